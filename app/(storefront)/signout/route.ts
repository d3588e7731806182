import { signedOut } from "@/lib/auth/sign-in";
import { formRoute } from "@/lib/http/form";

/** The "Sign out" button: clears the session cookie and goes home. */
export const POST = formRoute({ name: "signout" }, async () => signedOut());
