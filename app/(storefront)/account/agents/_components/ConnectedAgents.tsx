import { formatCents } from "@/lib/catalog/money";
import type { AgentConnection } from "@/lib/oauth/connections";
import { BUYER_SCOPE_TEXT } from "@/lib/auth/scopes";

const WHEN = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

function when(date: Date | null): string {
  return date ? `${WHEN.format(date)} UTC` : "Never";
}

/**
 * "Connected agents" on /account/agents: each live connection (OAuth grant) with the scopes the
 * holder granted, first and last use, what it spent this month (`spentByGrant`, cents by grant id)
 * and a "Revoke" button that ends its tokens at once.
 */
export function ConnectedAgents({ connections, spentByGrant }: { connections: AgentConnection[]; spentByGrant: Map<string, number> }) {
  return (
    <section aria-labelledby="connected-agents-heading" id="connected-agents" className="panel">
      <h2 id="connected-agents-heading">Connected agents</h2>
      {connections.length === 0 ? (
        <p className="muted">No agent is connected. An agent connects when you allow it on the consent screen it sends you to.</p>
      ) : (
        <ul className="agent-list">
          {connections.map((c) => (
            <li key={c.grant_id} data-grant-id={c.grant_id} data-client-id={c.client_id}>
              <p>
                <strong data-field="client-name">{c.client_name}</strong> <span className="muted">({c.redirect_host})</span>
              </p>
              <ul data-field="scopes">
                {c.scopes.map((scope) => (
                  <li key={scope} data-scope={scope}>
                    {BUYER_SCOPE_TEXT[scope as keyof typeof BUYER_SCOPE_TEXT] ?? scope}
                  </li>
                ))}
              </ul>
              <dl className="profile">
                <dt>Connected</dt>
                <dd data-field="created">{when(c.created_at)}</dd>
                <dt>First used</dt>
                <dd data-field="first-used">{when(c.first_used_at)}</dd>
                <dt>Last used</dt>
                <dd data-field="last-used">{when(c.last_used_at)}</dd>
                <dt>Spent this month</dt>
                <dd data-field="spent">{formatCents(spentByGrant.get(c.grant_id) ?? 0)}</dd>
              </dl>
              <form method="post" action={`/account/agents/${encodeURIComponent(c.grant_id)}/revoke`} className="inline-form" aria-label={`Revoke ${c.client_name}`}>
                <button type="submit" className="secondary">
                  Revoke
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
