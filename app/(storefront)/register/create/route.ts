import { registerWithPassword } from "@/lib/accounts/sign-in";
import { withDb } from "@/lib/http/database";
import { seeOther } from "@/lib/http/form-answer";
import { signedIn } from "@/lib/http/sign-in";
import { AppError } from "@/lib/errors";
import { formRoute } from "@/lib/http/form";
import { registerPage } from "../../_lib/account-paths";

/** The registration form: a shopper account with a password, signed in at once. */
export const POST = formRoute({ name: "register", rateLimit: "sign_in" }, async ({ request, form }) => {
  let result;
  try {
    result = await withDb((client) => registerWithPassword(client, { email: form.email ?? "", password: form.password ?? "", name: form.name }));
  } catch (err) {
    if (err instanceof AppError && err.param) return seeOther(registerPage({ error: `${err.param}_invalid`, next: form.next }));
    throw err;
  }
  if (result.state === "exists") return seeOther(registerPage({ error: "exists", next: form.next }));
  return signedIn(request, result.userId, form.next);
});
