import { saveAgentSettings } from "@/lib/agents/settings";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { refused, seeOther } from "../../_lib/post";

/** The agent settings form of /account/agents: the session says whose settings; the form carries no id. */
export const POST = formRoute({ name: "account.agents.settings", session: "required" }, async ({ form, user }) => {
  try {
    await withDb((client) => saveAgentSettings(client, user!.id, { ordersEnabled: form.orders_enabled, perOrderLimit: form.per_order_limit, monthlyLimit: form.monthly_limit }));
    return seeOther("/account/agents?notice=agent_settings_saved");
  } catch (err) {
    return refused("/account/agents", "agent-settings", err, form);
  }
});
