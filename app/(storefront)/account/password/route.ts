import { setAccountPassword } from "@/lib/accounts/account-password";
import { withDb } from "@/lib/http/database";
import { currentSessionId } from "@/lib/http/session";
import { formRoute } from "@/lib/http/form";
import { refused, seeOther } from "../_lib/post";

/**
 * The "Password" form of /account: set a first password, or change it with the current one.
 * Limited like sign-in attempts (it checks a password); a refusal echoes nothing typed back.
 */
export const POST = formRoute({ name: "account.password", session: "required", rateLimit: "sign_in" }, async ({ form, user }) => {
  try {
    const keepSessionId = await currentSessionId();
    await withDb((client) => setAccountPassword(client, user!.id, { current: form.current_password, password: form.password }, keepSessionId));
    return seeOther("/account?notice=password_saved");
  } catch (err) {
    return refused("/account", "password", err, {});
  }
});
