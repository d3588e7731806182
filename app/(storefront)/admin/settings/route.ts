import { withDb } from "@/lib/http/database";
import { seeOther } from "@/lib/http/form-answer";
import { formRoute } from "@/lib/http/form";
import { setSetting } from "@/lib/settings";

/** The marketplace settings form of /admin (admins only). An unticked checkbox is not sent: off. */
export const POST = formRoute({ name: "admin.settings", session: ["admin"] }, async ({ form }) => {
  await withDb((client) => setSetting(client, "agentic_checkout", form.agentic_checkout === "on" ? "on" : "off"));
  return seeOther("/admin?notice=saved");
});
