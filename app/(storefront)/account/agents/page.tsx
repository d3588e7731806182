import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { pendingApprovals } from "@/lib/agents/approvals";
import { AGENT_SETTINGS_LABELS, agentSpendByGrant, agentSpendThisMonth, getAgentSettings, limitFieldText } from "@/lib/agents/settings";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { decodeFlash } from "@/lib/http/flash";
import { listConnections } from "@/lib/oauth/connections";
import { getSetting } from "@/lib/settings";
import { FormState, Notice, When } from "@/app/_components/forms";
import { ACCOUNT_NOTICES } from "../_lib/notices";
import { one, type SearchParams } from "../_lib/post";
import { ConnectedAgents } from "./_components/ConnectedAgents";

export const metadata: Metadata = { title: "Agents", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * What agents may do for the signed-in holder: the orders their agents asked them to approve
 * (lib/agents/approvals.ts), the agent settings (may agents place orders, and within which
 * limits) with this month's agent spend, and the agents connected over OAuth, each
 * with its scopes, first and last use, this month's spend and a "Revoke" button.
 */
export default async function AgentsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Faccount%2Fagents");
  const params = await searchParams;
  const flash = decodeFlash(one(params.flash));
  const [settings, spent, marketplaceOn, connections, spentByGrant, waiting] = await withDb((client) =>
    Promise.all([
      getAgentSettings(client, user.id),
      agentSpendThisMonth(client, user.id),
      getSetting(client, "agentic_checkout"),
      listConnections(client, user.id),
      agentSpendByGrant(client, user.id),
      pendingApprovals(client, user.id),
    ]),
  );
  const form = new FormState("agent-settings", flash);
  return (
    <main className="page" data-page="account-agents">
      <p className="back">
        <Link href="/account">Your account</Link>
      </p>
      <h1>Agents</h1>
      <Notice notices={ACCOUNT_NOTICES} notice={one(params.notice)} />

      {waiting.length > 0 ? (
        <section aria-labelledby="waiting-heading" id="approvals" className="panel">
          <h2 id="waiting-heading">Orders waiting for your approval</h2>
          <ul>
            {waiting.map((w) => (
              <li key={w.id} data-approval={w.id}>
                <Link href={`/account/agents/approvals/${w.id}`}>
                  {w.client_name}: {formatCents(w.total_cents)}
                </Link>{" "}
                <span className="muted">
                  (until <When at={w.expires_at} />)
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="agent-settings-heading" id="agent-settings" className="panel">
        <h2 id="agent-settings-heading">Agent settings</h2>
        <p>
          Agents you connect can place orders for you only when you let them, and only within your limits. They ship to your default
          address and pay with your default payment method. <Link href="/help/agent-settings">How agent settings work</Link>
        </p>
        {marketplaceOn ? null : (
          <p className="muted" data-marketplace-agentic-checkout="off">
            The marketplace does not let agents place orders at the moment; your settings apply once it does.
          </p>
        )}
        <p data-agent-spend-cents={spent} data-monthly-limit-cents={settings.monthly_limit_cents ?? ""}>
          {settings.monthly_limit_cents === null
            ? `Spent by agents this month: ${formatCents(spent)} (no monthly limit set)`
            : `Spent by agents this month: ${formatCents(spent)} of ${formatCents(settings.monthly_limit_cents)}`}
        </p>
        <p className="muted">A month is a calendar month in UTC.</p>
        <form method="post" action="/account/agents/settings" className="stacked-form" aria-labelledby="agent-settings-heading">
          {form.alert()}
          <label className="check">
            <input type="checkbox" {...form.field("orders_enabled")} defaultChecked={form.checked("orders_enabled", settings.orders_enabled)} />
            {AGENT_SETTINGS_LABELS.orders_enabled}
          </label>
          <div className="field-grid">
            <label>
              {AGENT_SETTINGS_LABELS.per_order_limit}
              <input
                type="text"
                inputMode="decimal"
                autoComplete="off"
                maxLength={20}
                placeholder="50"
                {...form.field("per_order_limit")}
                defaultValue={form.value("per_order_limit", limitFieldText(settings.per_order_limit_cents))}
              />
            </label>
            <label>
              {AGENT_SETTINGS_LABELS.monthly_limit}
              <input
                type="text"
                inputMode="decimal"
                autoComplete="off"
                maxLength={20}
                placeholder="200"
                {...form.field("monthly_limit")}
                defaultValue={form.value("monthly_limit", limitFieldText(settings.monthly_limit_cents))}
              />
            </label>
          </div>
          <p className="muted">In dollars, cents optional: 50 or 49.99. Both limits are needed to let agents place orders.</p>
          <button type="submit">Save</button>
        </form>
      </section>

      <ConnectedAgents connections={connections} spentByGrant={spentByGrant} />
    </main>
  );
}
