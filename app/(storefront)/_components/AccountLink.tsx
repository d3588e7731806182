import Link from "next/link";
import { getSessionUser } from "@/lib/http/session";

/** The header's way to an account: "Sign in", or the signed-in person's account page. */
export async function AccountLink() {
  const user = await getSessionUser();
  return user ? (
    <Link href="/account" prefetch={false} data-signed-in="true">
      Your account
    </Link>
  ) : (
    <Link href="/signin" prefetch={false}>
      Sign in
    </Link>
  );
}
