import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/accounts/password";
import { getSessionUser } from "@/lib/http/session";
import { safeNextPath } from "@/lib/http/next-path";
import { Message } from "../_components/Messages";

export const metadata: Metadata = { title: "Create an account", robots: { index: false } };

const ERRORS: Record<string, string> = {
  email_invalid: "Enter a valid e-mail address.",
  password_invalid: `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`,
  name_invalid: "A name is at most 100 characters, without control characters.",
  exists:
    "We could not create an account with that e-mail address. If it is yours, sign in, or ask for a sign-in link; we have e-mailed that address too.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Registration: a shopper account with a password, signed in at once. */
export default async function RegisterPage({ searchParams }: Props) {
  const params = await searchParams;
  const next = safeNextPath(params.next, "");
  if (await getSessionUser()) redirect(next || "/account");
  const signinHref = next ? `/signin?next=${encodeURIComponent(next)}` : "/signin";
  return (
    <main className="page" data-page="register">
      <h1>Create an account</h1>
      <Message kind="error" code={params.error} texts={ERRORS} />
      <form method="post" action="/register/create" className="account-form" aria-label="Create account">
        <input type="hidden" name="next" value={next} />
        <label>
          Name
          <input type="text" name="name" autoComplete="name" maxLength={100} />
        </label>
        <label>
          Email
          <input type="email" name="email" autoComplete="email" required maxLength={254} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} />
        </label>
        <p className="muted">
          {PASSWORD_MIN} to {PASSWORD_MAX} characters.
        </p>
        <p>
          <button type="submit">Create account</button>
        </p>
      </form>
      <p>
        Already have an account? <Link href={signinHref}>Sign in</Link>
      </p>
    </main>
  );
}
