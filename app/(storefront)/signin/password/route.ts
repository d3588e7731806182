import { authenticateWithPassword } from "@/lib/accounts/sign-in";
import { seeOther, signedIn } from "@/lib/auth/sign-in";
import { formRoute } from "@/lib/http/form";
import { signinPage } from "../../_lib/account-paths";

/** The sign-in form (e-mail + password). One message for an unknown e-mail and a wrong password. */
export const POST = formRoute({ name: "signin.password", rateLimit: "sign_in" }, async ({ request, form }) => {
  const userId = await authenticateWithPassword(form.email ?? "", form.password ?? "");
  if (!userId) return seeOther(signinPage({ error: "credentials", next: form.next }));
  return signedIn(request, userId, form.next);
});
