import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { FormState, When } from "@/app/_components/forms";
import { OrderLinesTable } from "@/app/_components/orders";
import { getApproval, type ApprovalView } from "@/lib/agents/approvals";
import { agentSpendThisMonth, getAgentSettings } from "@/lib/agents/settings";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { decodeFlash } from "@/lib/http/flash";
import { one, type SearchParams } from "../../../_lib/post";

export const metadata: Metadata = { title: "Approve an agent's order", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }>; searchParams: SearchParams };

const REASONS: Record<ApprovalView["reason"], string> = {
  agentic_purchasing_off: "You have not let agents place orders.",
  per_order_limit_exceeded: "The total is above your per-order limit for agents.",
  monthly_limit_exceeded: "The total is above what is left of your monthly limit for agents.",
};

/**
 * The holder's approval of one agent order their agent settings refuse: the page an agent's URL
 * elicitation opens (lib/mcp/elicitation.ts). It shows the order as priced when the agent asked
 * (stores, lines, shipping, total), why it needs them, and what is left of the month's limit now;
 * "Approve order" lets the agent's retry place exactly this order, once, until the request
 * expires; "Decline" refuses it. Another account's request (or none) is the not-found page.
 */
export default async function ApprovalPage({ params, searchParams }: Props) {
  const [{ id }, sp] = await Promise.all([params, searchParams]);
  const user = await getSessionUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(`/account/agents/approvals/${id}`)}`);
  let approval: ApprovalView;
  try {
    approval = await withDb((client) => getApproval(client, user.id, id));
  } catch (err) {
    if (err instanceof AppError && err.code === "agent_approval_not_found") notFound();
    throw err;
  }
  const [settings, spent] = await withDb((client) => Promise.all([getAgentSettings(client, user.id), agentSpendThisMonth(client, user.id)]));
  const form = new FormState("approval", decodeFlash(one(sp.flash)));
  const state = approval.status === "pending" && approval.expired ? "expired" : approval.status;
  const { summary } = approval;
  return (
    <main className="page" data-page="agent-approval" data-approval={approval.id} data-state={state}>
      <p className="back">
        <Link href="/account/agents">Agents</Link>
      </p>
      <h1>Approve an agent&apos;s order</h1>
      <p>
        <strong data-field="client-name">{approval.client_name}</strong> wants to place this order for you, paid with your default payment
        method and shipped to your default address. <span data-field="reason">{REASONS[approval.reason]}</span>
      </p>

      {summary.stores.map((store, i) => (
        <section key={i} className="panel order-part" aria-labelledby={`store-${i}`}>
          <h2 id={`store-${i}`}>From {store.store_name}</h2>
          <OrderLinesTable lines={store.lines.map((line, j) => ({ ...line, id: String(j) }))} label={`Items from ${store.store_name}`} />
          <dl className="facts">
            <dt>Shipping</dt>
            <dd className="amount">{formatCents(store.shipping_cents)}</dd>
          </dl>
        </section>
      ))}

      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Total</h2>
        <dl className="facts totals">
          <dt>Items</dt>
          <dd className="amount">{formatCents(summary.subtotal_cents)}</dd>
          <dt>Shipping</dt>
          <dd className="amount">{formatCents(summary.shipping_cents)}</dd>
          <dt>Total</dt>
          <dd className="amount" data-field="total" data-total-cents={approval.total_cents}>
            {formatCents(approval.total_cents)}
          </dd>
        </dl>
        <p data-field="limits">{limitsText(settings, spent)}</p>
      </section>

      <section aria-labelledby="decision-heading" className="panel">
        <h2 id="decision-heading">Your answer</h2>
        {state === "pending" ? (
          <form method="post" action={`/account/agents/approvals/${approval.id}/decision`} className="stacked-form" aria-labelledby="decision-heading">
            {form.alert()}
            <p>
              Approving lets your agent place exactly this order once, at this total, until <When at={approval.expires_at} />. If a price
              or an item changes, it has to ask you again. It does not change your settings.
            </p>
            <div className="inline-form">
              <button type="submit" name="decision" value="approve">
                Approve order
              </button>
              <button type="submit" name="decision" value="decline" className="secondary">
                Decline
              </button>
            </div>
          </form>
        ) : (
          <p data-field="decision" role="status">
            {stateText(state, approval)}
          </p>
        )}
      </section>
    </main>
  );
}

function limitsText(settings: { orders_enabled: boolean; monthly_limit_cents: number | null; per_order_limit_cents: number | null }, spent: number): string {
  const spentText = `Spent by agents this month: ${formatCents(spent)}`;
  if (!settings.orders_enabled || settings.monthly_limit_cents === null || settings.per_order_limit_cents === null) {
    return `${spentText}. Agents may not place orders without your approval (agent settings).`;
  }
  const left = Math.max(settings.monthly_limit_cents - spent, 0);
  return `${spentText}; ${formatCents(left)} of your ${formatCents(settings.monthly_limit_cents)} monthly limit is left, and the per-order limit is ${formatCents(settings.per_order_limit_cents)}.`;
}

function stateText(state: ApprovalView["status"] | "expired", approval: ApprovalView): string {
  switch (state) {
    case "approved":
      return approval.expired
        ? "You approved this order, but your agent did not place it in time. It has to ask you again."
        : "Approved. Your agent can place this order now: go back to it and let it try again.";
    case "used":
      return "Approved, and your agent placed this order. You can find it under Your orders.";
    case "declined":
      return "Declined. Your agent cannot place this order.";
    case "expired":
      return "This request has expired. Your agent has to ask you again.";
    default:
      return "";
  }
}
