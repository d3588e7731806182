import { randomBytes } from "node:crypto";
import { defaultAddress } from "@/lib/accounts/addresses";
import { defaultPaymentMethod } from "@/lib/accounts/payment-methods";
import { normaliseEmail } from "@/lib/accounts/users";
import { agentSpendThisMonth, getAgentSettings } from "@/lib/agents/settings";
import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { parseShippingAddress, type AddressInput } from "@/lib/orders/address";
import { ORDER_INCLUDE, toOrder } from "@/lib/orders/shape";
import type { OrderData, ShippingAddressData } from "@/lib/schemas/orders";
import { getSetting } from "@/lib/settings";
import { cartIdOf, cartLines, checkExplicitLines, type SourceLine } from "./lines";
import { byFirstLine } from "./placed";
import { priceLines, quoteOfOrders, type Quote } from "./price";
import { openStatus, requirementsOf, type AgentStanding, type Requirement, type SessionStatus } from "./requirements";
import type { Buyer, CheckoutSource, Executor, ExplicitLine, Tx } from "./types";

/**
 * Checkout sessions: what a buyer is about to buy, from a cart (read again at completion) or from
 * lines given at once, with the buyer, the shipping address and the way to pay chosen so far.
 * Every door checks out through one (decisions.md "Orders, checkout and returns"): the
 * storefront's form, the buyer API and the agent MCP make one and complete it in one call
 * (`placeOrder`, complete.ts); a door that lets its caller build a checkout step by step creates,
 * reads, updates, completes and cancels it.
 *
 * States (`status`):
 * - `incomplete`: something the caller can give is missing or blocks (`requirements`);
 * - `requires_escalation`: only the buyer, signed in, in a browser, can resolve what is left (an
 *   agent's holder who has not let agents order, or whose limits the total passes);
 * - `ready_for_complete`: nothing is missing; completing places the orders;
 * - `completed`: it placed its orders (`orders`), once;
 * - `canceled`: canceled by its caller (`cancel_reason`);
 * - `expired`: it was neither completed nor canceled within its time (6 hours).
 * Completed, canceled and expired sessions cannot change.
 */

/** How long a session stays open: UCP's default, 6 hours. */
export const SESSION_TTL_MS = 6 * 60 * 60 * 1000;

export type SessionPayment = "saved" | "card";

/** A session as its doors read it. */
export interface CheckoutSessionView {
  id: string;
  status: SessionStatus;
  placed_via: "storefront" | "agent";
  buyer: { email: string | null; account_holder: boolean };
  source: "cart" | "lines";
  /** The lines priced now (a completed session: as the orders hold them), by store, with totals. */
  quote: Quote;
  /** The session's address, or else the holder's default one. */
  shipping_address: ShippingAddressData | null;
  payment: SessionPayment | null;
  /** Every missing or blocking thing at once (empty once completed, canceled or expired). */
  requirements: Requirement[];
  cancel_reason: string | null;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  /** The orders it completed into. */
  orders: OrderData[];
}

/** A session row as complete.ts and this file read it. */
export interface SessionRow {
  id: string;
  token: string;
  placed_via: "storefront" | "agent";
  user_id: string | null;
  email: string | null;
  agent_grant_id: string | null;
  source: "cart" | "lines";
  cart_id: string | null;
  lines: ExplicitLine[] | null;
  shipping_address: ShippingAddressData | null;
  payment: SessionPayment | null;
  /** Completes into one order per store (the commerce protocols' checkouts), else one order. */
  split_by_store: boolean;
  status: "open" | "completed" | "canceled";
  cancel_reason: string | null;
  expires_at: Date;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns of a SessionRow, for SELECT and RETURNING. */
export const SESSION_COLUMNS = Prisma.sql`id::text AS id, token, placed_via::text AS placed_via, user_id::text AS user_id, email,
  agent_grant_id, source, cart_id::text AS cart_id, lines, shipping_address, payment, split_by_store, status, cancel_reason,
  expires_at, completed_at, created_at, updated_at`;

/** The session, locked for the transaction when `lock`; `by` its id or its token. */
export async function readSession(executor: Executor, by: { id: string } | { token: string }, lock: boolean): Promise<SessionRow | null> {
  const where = "id" in by ? Prisma.sql`id = ${by.id}::uuid` : Prisma.sql`token = ${by.token}`;
  const [row] = await executor.$queryRaw<SessionRow[]>`
    SELECT ${SESSION_COLUMNS} FROM checkout_sessions WHERE ${where} ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  return row ?? null;
}

/** Who reads or changes a session: its account holder, or (a guest's session) anyone holding its id. */
export interface SessionViewer {
  userId: string | null;
}

function notFound(): AppError {
  return new AppError("checkout_session_not_found", "No such checkout session of yours.");
}

/** The viewer's session by id, locked when `lock`; 404 for an unknown id or another holder's. */
export async function sessionOf(executor: Executor, id: unknown, viewer: SessionViewer, lock: boolean): Promise<SessionRow> {
  if (!isUuid(id)) throw notFound();
  const row = await readSession(executor, { id: id.toLowerCase() }, lock);
  if (!row || row.user_id !== viewer.userId) throw notFound();
  return row;
}

export function isExpired(row: Pick<SessionRow, "status" | "expires_at">, now = new Date()): boolean {
  return row.status === "open" && row.expires_at.getTime() <= now.getTime();
}

/** 409 `checkout_session_closed` unless the session is open and within its time. */
export function assertOpen(row: SessionRow): void {
  if (row.status === "completed") throw new AppError("checkout_session_closed", "This checkout session is completed: it placed its orders already.");
  if (row.status === "canceled") throw new AppError("checkout_session_closed", "This checkout session was canceled.");
  if (isExpired(row)) throw new AppError("checkout_session_closed", "This checkout session expired; start a new one.");
}

/** A buyer, resolved: an account (which must exist) or a guest's normalised e-mail address. */
export async function resolveBuyer(client: Pick<Tx, "user">, buyer: Buyer): Promise<{ userId: string | null; email: string }> {
  if ("email" in buyer) return { userId: null, email: normaliseEmail(buyer.email) };
  const user = isUuid(buyer.userId) ? await client.user.findUnique({ where: { id: buyer.userId }, select: { id: true, email: true } }) : null;
  if (!user) throw new AppError("parameter_invalid", "No such account.", "buyer");
  return { userId: user.id, email: user.email };
}

/** A new session's token: the one-shot doors give theirs (form token, idempotency key). */
export function newSessionToken(): string {
  return `session:${randomBytes(24).toString("base64url")}`;
}

export interface NewSession {
  /** An account holder, a guest with an e-mail address, or a guest who gives one later (`{ email: null }`). */
  buyer: Buyer | { email: null };
  source: CheckoutSource;
  placedVia: "storefront" | "agent";
  /** The agent's OAuth grant, for an agent's session. */
  agentGrantId?: string;
  shippingAddress?: AddressInput;
  /** Default: the account's default method for a holder, none yet for a guest. */
  payment?: SessionPayment;
  /** Complete into one order per store (default: one order with a part per store). */
  splitByStore?: boolean;
}

/** The row values of a new session (a cart source names its owner; the cart's id is looked up by the caller). */
export function newSessionValues(input: NewSession, buyer: { userId: string | null; email: string | null }) {
  const lines = "lines" in input.source ? checkExplicitLines(input.source.lines).map(({ listing_id, quantity }) => ({ listing_id, quantity })) : null;
  return {
    placedVia: input.placedVia,
    userId: buyer.userId,
    email: buyer.userId ? null : buyer.email,
    agentGrantId: input.agentGrantId ?? null,
    source: lines ? "lines" : "cart",
    cartOwner: "cart" in input.source ? input.source.cart : null,
    lines,
    shippingAddress: input.shippingAddress ? parseShippingAddress(input.shippingAddress) : null,
    payment: input.payment ?? (buyer.userId ? "saved" : null),
    splitByStore: input.splitByStore ?? false,
  } as const;
}

/** Creates an open session (6 hours to complete it) and answers it as its doors read it. */
export async function createCheckoutSession(client: DbClient, input: NewSession): Promise<CheckoutSessionView> {
  const buyer = "email" in input.buyer && input.buyer.email === null ? { userId: null, email: null } : await resolveBuyer(client, input.buyer as Buyer);
  const { cartOwner, ...values } = newSessionValues(input, buyer);
  const cartId = cartOwner ? await cartIdOf(client, cartOwner) : null;
  const now = new Date();
  const created = await client.checkoutSession.create({
    data: {
      ...values,
      cartId,
      lines: values.lines ?? Prisma.DbNull,
      shippingAddress: values.shippingAddress ? (values.shippingAddress as unknown as Prisma.InputJsonObject) : Prisma.DbNull,
      token: newSessionToken(),
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    },
    select: { id: true },
  });
  return getCheckoutSession(client, created.id, { userId: buyer.userId });
}

export async function getCheckoutSession(client: DbClient, id: unknown, viewer: SessionViewer, options: ViewOptions = {}): Promise<CheckoutSessionView> {
  return viewSession(client, await sessionOf(client, id, viewer, false), options);
}

export interface SessionChanges {
  /** New lines given at once (the session no longer follows a cart). */
  lines?: ReadonlyArray<ExplicitLine>;
  /** A guest's e-mail address (null takes it away). */
  email?: string | null;
  /** A new shipping address; null takes it away (a holder's default applies again). */
  shippingAddress?: AddressInput | null;
  payment?: SessionPayment;
}

/**
 * Changes an open session; 409 `checkout_session_closed` once it is completed, canceled or
 * expired. In the caller's transaction `tx` (a door that writes its own state with it).
 */
export async function updateCheckoutSession(tx: Tx, id: unknown, viewer: SessionViewer, changes: SessionChanges): Promise<CheckoutSessionView> {
  const data: Prisma.CheckoutSessionUpdateInput = {};
  if (changes.lines !== undefined) {
    data.source = "lines";
    data.cart = { disconnect: true };
    data.lines = checkExplicitLines(changes.lines).map(({ listing_id, quantity }) => ({ listing_id, quantity }));
  }
  if (changes.shippingAddress !== undefined) {
    data.shippingAddress = changes.shippingAddress === null ? Prisma.DbNull : (parseShippingAddress(changes.shippingAddress) as unknown as Prisma.InputJsonObject);
  }
  if (changes.payment !== undefined) data.payment = changes.payment;
  const email = changes.email !== undefined && changes.email !== null ? normaliseEmail(changes.email) : changes.email;
  const row = await sessionOf(tx, id, viewer, true);
  assertOpen(row);
  if (email !== undefined) {
    if (row.user_id) throw new AppError("parameter_invalid", "An account holder's session uses the account's e-mail address.", "buyer.email");
    data.email = email;
  }
  await tx.checkoutSession.update({ where: { id: row.id }, data });
  return getCheckoutSession(tx, id, viewer);
}

/** Cancels an open session; 409 `checkout_session_closed` once it is completed, canceled or expired. */
export async function cancelCheckoutSession(tx: Tx, id: unknown, viewer: SessionViewer, reason = "canceled_by_buyer"): Promise<CheckoutSessionView> {
  const row = await sessionOf(tx, id, viewer, true);
  assertOpen(row);
  await tx.checkoutSession.update({ where: { id: row.id }, data: { status: "canceled", cancelReason: reason } });
  return getCheckoutSession(tx, id, viewer);
}

/** The lines a session would buy now: its own, or its cart's as the cart stands. */
export async function sessionLines(executor: Executor, row: SessionRow, lock: boolean): Promise<SourceLine[]> {
  if (row.source === "lines") return (row.lines ?? []).map((l) => ({ listing_id: l.listing_id, quantity: l.quantity, seen_price_cents: null }));
  return cartLines(executor, row.cart_id, lock);
}

async function storeNamesOf(client: DbClient, ids: string[]): Promise<Map<string, string>> {
  const stores = await client.store.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(stores.map((s) => [s.id, s.name]));
}

async function agentStanding(client: DbClient, userId: string): Promise<AgentStanding> {
  if (!(await getSetting(client, "agentic_checkout"))) return { marketplace: "off" };
  const settings = await getAgentSettings(client, userId);
  if (!settings.orders_enabled || settings.per_order_limit_cents === null || settings.monthly_limit_cents === null) return { marketplace: "on", holder: "off" };
  return {
    marketplace: "on",
    holder: "on",
    perOrderLimitCents: settings.per_order_limit_cents,
    monthlyLimitCents: settings.monthly_limit_cents,
    spentCents: await agentSpendThisMonth(client, userId),
  };
}

export interface ViewOptions {
  /**
   * The country to quote shipping for when the session has no address yet (a door that knows
   * only where the buyer is, such as a protocol's destination with a country alone).
   */
  country?: string;
}

/** The session as its doors read it: priced now while open, with every requirement left. */
export async function viewSession(client: DbClient, row: SessionRow, options: ViewOptions = {}): Promise<CheckoutSessionView> {
  const orderRows = row.status === "completed" ? byFirstLine(await client.order.findMany({ where: { checkoutSessionId: row.id }, include: ORDER_INCLUDE })) : [];
  const address = row.shipping_address ?? (row.user_id ? await defaultAddress(client, row.user_id) : null);
  const open = row.status === "open" && !isExpired(row);
  const quote = orderRows.length
    ? quoteOfOrders(orderRows, await storeNamesOf(client, orderRows.flatMap((o) => o.parts.map((p) => p.storeId))))
    : await priceLines(client, await sessionLines(client, row, false), address?.country ?? options.country ?? "US");
  let requirements: Requirement[] = [];
  if (open) {
    const saved = row.payment === "saved" ? { kind: "saved" as const, available: row.user_id ? (await defaultPaymentMethod(client, row.user_id)) !== null : false } : null;
    requirements = requirementsOf({
      quote,
      accountHolder: row.user_id !== null,
      email: row.email,
      hasShippingAddress: address !== null,
      payment: row.payment === "card" ? { kind: "card" } : saved,
      agent: row.placed_via === "agent" && row.user_id ? await agentStanding(client, row.user_id) : null,
    });
  }
  const status: SessionStatus = row.status === "open" ? (open ? openStatus(requirements) : "expired") : row.status;
  const holderEmail = row.user_id ? ((await client.user.findUnique({ where: { id: row.user_id }, select: { email: true } }))?.email ?? null) : null;
  return {
    id: row.id,
    status,
    placed_via: row.placed_via,
    buyer: { email: holderEmail ?? row.email, account_holder: row.user_id !== null },
    source: row.source,
    quote,
    shipping_address: address,
    payment: row.payment,
    requirements,
    cancel_reason: row.cancel_reason,
    expires_at: row.expires_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    orders: orderRows.map(toOrder),
  };
}
