import { createHash } from "node:crypto";
import { Prisma, type DbClient, type PrismaClient } from "@/lib/db";
import { AppError, type ErrorCode } from "@/lib/errors";
import type { ConditionValue } from "@/lib/schemas/catalog";
import { UUID } from "@/lib/ids";

/**
 * The holder's approval of one agent order that their agent settings would refuse (agent orders
 * off, the per-order limit, what is left of the month's limit). An agent that can ask its person
 * to open a URL (the agent MCP server's URL elicitation) is sent to
 * /account/agents/approvals/<id>; there the signed-in holder sees the order (stores, lines,
 * shipping, total, the month's limit) and approves or declines it. The agent's retry of the same
 * checkout then places it once: the approval is spent in the order's transaction, after the
 * holder's agent lock, so a hundred retries place one order.
 *
 * What an approval covers: the priced order it was asked for (`quoteHash`: these lines, these
 * quantities at these prices, this shipping and total), for the grant (connected agent) that
 * asked, for 15 minutes. A quote that changed since (a price, a line, shipping) matches no
 * approval and needs a new one. A declined approval refuses that order for its 15 minutes; the
 * agent is not sent to ask again.
 */

/** The refusals an approval lifts, in decisions.md's order. The marketplace switch and the token's scopes are not the holder's to lift here. */
export const APPROVABLE_REFUSALS = ["agentic_purchasing_off", "per_order_limit_exceeded", "monthly_limit_exceeded"] as const;
export type ApprovableRefusal = (typeof APPROVABLE_REFUSALS)[number];

export function isApprovable(code: ErrorCode): code is ApprovableRefusal {
  return (APPROVABLE_REFUSALS as readonly string[]).includes(code);
}

/** How long an approval (asked or given) stands. */
export const APPROVAL_TTL_MS = 15 * 60_000;

export type ApprovalStatus = "pending" | "approved" | "declined" | "used";

/** What the approval page shows of the order, as it was priced when the agent asked. */
export interface ApprovalSummary {
  stores: Array<{
    store_name: string;
    subtotal_cents: number;
    shipping_cents: number;
    lines: Array<{ title: string; condition: ConditionValue; quantity: number; unit_price_cents: number; line_total_cents: number }>;
  }>;
  subtotal_cents: number;
  shipping_cents: number;
  /** The holder's settings and this month's agent spend when the agent asked. */
  limits: { orders_enabled: boolean; per_order_limit_cents: number | null; monthly_limit_cents: number | null; spent_cents: number };
}

/** The priced order an approval is asked for: what `checkTotal` knows when it refuses. */
export interface PricedOrder {
  lines: ReadonlyArray<{
    listing_id: string;
    quantity: number;
    unit_price_cents: number | null;
    line_total_cents: number;
    title: string | null;
    condition: ConditionValue | null;
    store_id: string | null;
  }>;
  stores: ReadonlyArray<{ store_id: string; store_name: string; subtotal_cents: number; shipping_cents: number }>;
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  currency: string;
  country: string;
}

/** The name of a priced order: equal for the same lines, quantities, prices, shipping and total. */
export function quoteHash(order: PricedOrder): string {
  const named = {
    lines: order.lines.map((l) => [l.listing_id, l.quantity, l.unit_price_cents, l.line_total_cents]),
    stores: order.stores.map((s) => [s.store_id, s.subtotal_cents, s.shipping_cents]),
    total: [order.subtotal_cents, order.shipping_cents, order.total_cents, order.currency, order.country],
  };
  return createHash("sha256").update(JSON.stringify(named)).digest("base64url");
}

/**
 * A refusal the holder could lift: the AppError an agent gets (its code one of
 * APPROVABLE_REFUSALS), carrying what asking the holder needs. A caller that cannot ask sends it
 * on as the refusal it is.
 */
export class ApprovalNeeded extends AppError {
  constructor(
    readonly reason: ApprovableRefusal,
    message: string,
    readonly order: { hash: string; total_cents: number; currency: string; summary: ApprovalSummary },
  ) {
    super(reason, message);
  }
}

export function summaryOf(order: PricedOrder, limits: ApprovalSummary["limits"]): ApprovalSummary {
  return {
    stores: order.stores.map((s) => ({
      store_name: s.store_name,
      subtotal_cents: s.subtotal_cents,
      shipping_cents: s.shipping_cents,
      lines: order.lines
        .filter((l) => l.store_id === s.store_id)
        .map((l) => ({
          title: l.title ?? "",
          condition: l.condition ?? "new",
          quantity: l.quantity,
          unit_price_cents: l.unit_price_cents ?? 0,
          line_total_cents: l.line_total_cents,
        })),
    })),
    subtotal_cents: order.subtotal_cents,
    shipping_cents: order.shipping_cents,
    limits,
  };
}

/**
 * In the order's transaction, after the holder's agent lock: spends the grant's approval of this
 * priced order, if the holder gave one that still stands. True when one was spent (the order may
 * go ahead); false otherwise.
 */
export async function spendApproval(tx: Prisma.TransactionClient, userId: string, grantId: string, hash: string, totalCents: number): Promise<boolean> {
  const spent = await tx.$executeRaw`
    UPDATE agent_approvals SET status = 'used', used_at = now()
    WHERE id = (
      SELECT id FROM agent_approvals
      WHERE user_id = ${userId}::uuid AND grant_id = ${grantId} AND quote_hash = ${hash} AND total_cents = ${totalCents}
        AND status = 'approved' AND expires_at > now()
      ORDER BY decided_at LIMIT 1
    )`;
  return spent === 1;
}

/** Whether the holder declined this priced order for this grant within the last 15 minutes. */
export async function wasDeclined(client: DbClient, grantId: string, hash: string): Promise<boolean> {
  const rows = await client.$queryRaw<unknown[]>`
    SELECT 1 FROM agent_approvals WHERE grant_id = ${grantId} AND quote_hash = ${hash} AND status = 'declined' AND expires_at > now() LIMIT 1`;
  return rows.length > 0;
}

export interface AskedApproval {
  id: string;
  expires_at: Date;
}

/**
 * The holder's pending approval of this refused order: the one already asked for (a retry asks
 * nothing new), or a new one. Its own small transaction, after the refused checkout rolled back.
 */
export async function requestApproval(client: PrismaClient, userId: string, grantId: string, needed: ApprovalNeeded): Promise<AskedApproval> {
  const { hash, total_cents, currency, summary } = needed.order;
  return client.$transaction(async (tx) => {
    // A pending approval that expired unanswered makes room for the new one.
    await tx.$executeRaw`
      UPDATE agent_approvals SET status = 'declined', decided_at = expires_at
      WHERE grant_id = ${grantId} AND quote_hash = ${hash} AND status = 'pending' AND expires_at <= now()`;
    const expiresAt = new Date(Date.now() + APPROVAL_TTL_MS);
    await tx.$executeRaw`
      INSERT INTO agent_approvals (user_id, grant_id, quote_hash, reason, total_cents, currency, summary, expires_at)
      VALUES (${userId}::uuid, ${grantId}, ${hash}, ${needed.reason}, ${total_cents}, ${currency}, ${JSON.stringify(summary)}::jsonb, ${expiresAt})
      ON CONFLICT (grant_id, quote_hash) WHERE status = 'pending' DO NOTHING`;
    const [row] = await tx.$queryRaw<AskedApproval[]>`
      SELECT id::text AS id, expires_at FROM agent_approvals WHERE grant_id = ${grantId} AND quote_hash = ${hash} AND status = 'pending'`;
    if (!row) throw new Error("the pending approval was not found after it was written");
    return row;
  });
}

/** An approval as its page shows it. */
export interface ApprovalView {
  id: string;
  status: ApprovalStatus;
  /** Past its expiry: a pending one can no longer be approved, an approved one no longer spent. */
  expired: boolean;
  reason: ApprovableRefusal;
  total_cents: number;
  currency: string;
  summary: ApprovalSummary;
  client_name: string;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  used_at: Date | null;
}

function notFound(): AppError {
  return new AppError("agent_approval_not_found", "No such approval request on your account.");
}

/** The holder's own approval; another account's, or none, is `agent_approval_not_found`. */
export async function getApproval(client: DbClient, userId: string, id: string): Promise<ApprovalView> {
  if (!UUID.test(id)) throw notFound();
  const [row] = await client.$queryRaw<Array<Omit<ApprovalView, "expired"> & { now: Date }>>`
    SELECT a.id::text AS id, a.status, a.reason, a.total_cents, a.currency, a.summary, a.created_at, a.expires_at, a.decided_at, a.used_at,
      coalesce(c.client_name, 'An agent') AS client_name, now() AS now
    FROM agent_approvals a LEFT JOIN agent_connections c ON c.grant_id = a.grant_id
    WHERE a.id = ${id}::uuid AND a.user_id = ${userId}::uuid`;
  if (!row) throw notFound();
  const { now, ...view } = row;
  return { ...view, expired: view.expires_at <= now };
}

/** The holder's requests still waiting for an answer, newest first (the "Waiting for you" list on /account/agents). */
export async function pendingApprovals(client: DbClient, userId: string): Promise<Array<{ id: string; client_name: string; total_cents: number; expires_at: Date }>> {
  return client.$queryRaw`
    SELECT a.id::text AS id, coalesce(c.client_name, 'An agent') AS client_name, a.total_cents, a.expires_at
    FROM agent_approvals a LEFT JOIN agent_connections c ON c.grant_id = a.grant_id
    WHERE a.user_id = ${userId}::uuid AND a.status = 'pending' AND a.expires_at > now()
    ORDER BY a.created_at DESC LIMIT 20`;
}

/**
 * The holder's answer on the approval page: `approve` lets the agent's retry place exactly this
 * order (once, within 15 minutes of the agent's asking); `decline` refuses it. Only a pending
 * approval that has not expired can be answered (`agent_approval_closed` otherwise).
 */
export async function decideApproval(client: DbClient, userId: string, id: string, decision: "approve" | "decline"): Promise<ApprovalView> {
  if (!UUID.test(id)) throw notFound();
  const status = decision === "approve" ? "approved" : "declined";
  const changed = await client.$executeRaw`
    UPDATE agent_approvals SET status = ${status}, decided_at = now()
    WHERE id = ${id}::uuid AND user_id = ${userId}::uuid AND status = 'pending' AND expires_at > now()`;
  const view = await getApproval(client, userId, id);
  if (changed === 0) {
    throw new AppError("agent_approval_closed", view.expired ? "This request has expired: ask your agent to try again." : "This request was already answered.");
  }
  return view;
}
