import { authenticateWithPassword } from "@/lib/accounts/sign-in";
import { withDb } from "@/lib/http/database";
import { seeOther } from "@/lib/http/form-answer";
import { signedIn } from "@/lib/http/sign-in";
import { formRoute } from "@/lib/http/form";
import { signinPage } from "../../_lib/account-paths";

/** The sign-in form (e-mail + password). One message for an unknown e-mail and a wrong password. */
export const POST = formRoute({ name: "signin.password", rateLimit: "sign_in" }, async ({ request, form, requestId }) => {
  const result = await withDb((client) => authenticateWithPassword(client, form.email ?? "", form.password ?? "", requestId));
  if (result.state === "backing_off") return seeOther(signinPage({ error: "too_many_attempts", next: form.next }));
  if (result.state !== "signed_in") return seeOther(signinPage({ error: "credentials", next: form.next }));
  return signedIn(request, result.userId, form.next);
});
