import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SIGN_IN_LINK_MINUTES } from "@/lib/accounts/sign-in";
import { getSessionUser } from "@/lib/http/session";
import { config } from "@/lib/config";
import { safeNextPath } from "@/lib/http/next-path";
import { Message } from "../_components/Messages";

export const metadata: Metadata = { title: "Sign in", robots: { index: false } };

const ERRORS: Record<string, string> = {
  credentials: "Wrong e-mail or password.",
  email_invalid: "Enter a valid e-mail address.",
  link_invalid: "That sign-in link does not work: it was already used, or it was not copied whole. Ask for a new one below.",
  link_expired: `That sign-in link has expired (links last ${SIGN_IN_LINK_MINUTES} minutes). Ask for a new one below.`,
};

/** Read when a page is rendered: the back-off is configured (SIGN_IN_BACKOFF_SECONDS). */
function errorTexts(): Record<string, string> {
  const seconds = config().signInBackoffSeconds;
  const wait = seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}` : `${seconds} second${seconds === 1 ? "" : "s"}`;
  return {
    ...ERRORS,
    too_many_attempts: `Too many wrong passwords for this account lately. Wait ${wait} and try again, or ask for a sign-in link below.`,
  };
}
const NOTICES: Record<string, string> = {
  link_sent: `Check your e-mail: we sent a sign-in link to that address. It works once, within ${SIGN_IN_LINK_MINUTES} minutes.`,
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** E-mail + password, or a sign-in link by e-mail. Plain forms: works without JavaScript. */
export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const next = safeNextPath(params.next, "");
  if (await getSessionUser()) redirect(next || "/account");
  const registerHref = next ? `/register?next=${encodeURIComponent(next)}` : "/register";
  return (
    <main className="page" data-page="signin">
      <h1>Sign in</h1>
      <Message kind="error" code={params.error} texts={errorTexts()} />
      <Message kind="notice" code={params.notice} texts={NOTICES} />
      <form method="post" action="/signin/password" className="account-form" aria-label="Sign in">
        <input type="hidden" name="next" value={next} />
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required maxLength={254} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required maxLength={200} />
        </label>
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      <p>
        New here? <Link href={registerHref}>Create an account</Link>
      </p>
      <h2 id="link-heading">Or sign in without a password</h2>
      <form method="post" action="/signin/link" className="account-form" aria-label="Email me a sign-in link">
        <input type="hidden" name="next" value={next} />
        <p className="muted">We e-mail you a link that signs you in (and creates your account if you have none).</p>
        <label>
          Email
          <input type="email" name="email" autoComplete="email" required maxLength={254} />
        </label>
        <p>
          <button type="submit">Email me a sign-in link</button>
        </p>
      </form>
    </main>
  );
}
