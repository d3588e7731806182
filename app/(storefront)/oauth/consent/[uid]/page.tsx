import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { BUYER_SCOPE_TEXT } from "@/lib/auth/scopes";
import { readConsentRequest } from "@/lib/oauth/consent";
import { getAgentSettings } from "@/lib/agents/settings";

export const metadata: Metadata = { title: "Connect an agent", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ uid: string }> };

/**
 * The consent screen of the OAuth server: which agent asks, where the answer goes, each scope in
 * plain words with its own checkbox (all ticked; the holder unticks what they do not grant), the
 * holder's agent spending limits when `checkout` is asked, and Allow / Deny. No JavaScript.
 */
export default async function ConsentPage({ params }: Props) {
  const { uid } = await params;
  const user = await getSessionUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(`/oauth/consent/${uid}`)}`);
  const requestHeaders = await headers();
  let request;
  try {
    request = await readConsentRequest({ headers: new Headers(requestHeaders), clientIp: clientIp(requestHeaders) }, uid);
  } catch (err) {
    if (err instanceof AppError && err.code === "consent_request_gone") return <Over message={err.message} />;
    throw err;
  }
  if (request.answered) return <Over message="You already answered this authorization request. Go back to the app that sent you here." />;
  const limits = request.scopes.includes("checkout") ? await withDb((client) => getAgentSettings(client, user.id)) : null;
  return (
    <main className="page" data-page="oauth-consent">
      <h1>Connect {request.clientName}?</h1>
      <p>
        <strong data-field="client-name">{request.clientName}</strong> wants to act for you on this marketplace. Your answer goes back to{" "}
        <strong data-field="redirect-host">{request.redirectHost}</strong>.
      </p>
      <p className="muted">
        Signed in as {user.email}. You can disconnect this agent at any time on <a href="/account/agents">Agents</a>.
      </p>
      <form method="post" action={`/oauth/consent/${encodeURIComponent(uid)}/answer`} className="stacked-form panel" aria-labelledby="consent-heading">
        <input type="hidden" name="account" value={user.id} />
        <fieldset>
          <legend id="consent-heading">Allow {request.clientName} to:</legend>
          {request.scopes.length === 0 ? <p className="muted">It asks for no permissions this marketplace knows.</p> : null}
          {request.scopes.map((scope) => (
            <label className="check" key={scope}>
              <input type="checkbox" name="scope" value={scope} defaultChecked />
              <span className="check-text">{BUYER_SCOPE_TEXT[scope]}</span>
            </label>
          ))}
        </fieldset>
        {limits ? (
          <section aria-labelledby="limits-heading" data-section="agent-limits">
            <h2 id="limits-heading">Your agent spending limits</h2>
            {limits.orders_enabled ? (
              <ul>
                <li data-field="per-order-limit">Per order: {limits.per_order_limit_cents === null ? "no limit set" : formatCents(limits.per_order_limit_cents)}</li>
                <li data-field="monthly-limit">Each month: {limits.monthly_limit_cents === null ? "no limit set" : formatCents(limits.monthly_limit_cents)}</li>
              </ul>
            ) : (
              <p data-field="orders-off">Agents may not place orders for you now: turn on “Let agents place orders” on Agents to let them.</p>
            )}
          </section>
        ) : null}
        <p className="saved-actions">
          <button type="submit" name="decision" value="allow">
            Allow
          </button>{" "}
          <button type="submit" name="decision" value="deny" className="secondary">
            Deny
          </button>
        </p>
      </form>
    </main>
  );
}

function Over({ message }: { message: string }) {
  return (
    <main className="page" data-page="oauth-consent-over">
      <h1>This request is over</h1>
      <p role="alert">{message}</p>
    </main>
  );
}
