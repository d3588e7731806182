import { signedOut } from "@/lib/http/sign-in";
import { formRoute } from "@/lib/http/form";

/** "Sign out" ends this session; "End all sessions" (`scope=everywhere`) every session of the account. Both clear the cookie and go home. */
export const POST = formRoute({ name: "signout" }, async ({ form }) => signedOut({ everywhere: form.scope === "everywhere" }));
