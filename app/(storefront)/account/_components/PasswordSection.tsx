import type { FormFlash } from "@/lib/http/flash";
import { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/accounts/password";
import { FormState } from "@/app/_components/forms";

/**
 * "Password" on /account: change it with the current one, or set a first one (an account made by
 * a sign-in link, or whose password was removed when its address was confirmed). Saving signs
 * every other browser out. A refusal never echoes a password back.
 */
export function PasswordSection({ hasPassword, flash }: { hasPassword: boolean; flash: FormFlash | null }) {
  const state = new FormState("password", flash);
  return (
    <section aria-labelledby="password-heading" id="password" className="panel">
      <h2 id="password-heading">Password</h2>
      <form method="post" action="/account/password" className="stacked-form" aria-label={hasPassword ? "Change password" : "Set password"}>
        {state.alert()}
        {hasPassword ? null : <p className="muted">Your account has no password: you sign in with e-mailed links. Set one to sign in with it as well.</p>}
        {hasPassword ? (
          <label>
            Current password
            <input {...state.field("current_password")} type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} />
          </label>
        ) : null}
        <label>
          New password
          <input {...state.field("password")} type="password" autoComplete="new-password" required minLength={PASSWORD_MIN} maxLength={PASSWORD_MAX} />
        </label>
        <button type="submit">{hasPassword ? "Change password" : "Set password"}</button>
      </form>
    </section>
  );
}
