import { defaultAddress } from "@/lib/accounts/addresses";
import { formatCents } from "@/lib/catalog/money";
import { Prisma, type DbClient, type PrismaClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseShippingAddress, type AddressInput } from "@/lib/orders/address";
import { ORDER_INCLUDE, type OrderRow } from "@/lib/orders/shape";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { queueOrderEvents } from "@/lib/webhooks/outbox";
import { sendOrderConfirmation } from "./announce";
import { cardPayer, charge, endAttempt, savedPayer, type Attempt, type Payer } from "./charge";
import { openAgentGate } from "./limits";
import { cartOwnerWhere, checkExplicitLines, sameLines, sourceLines } from "./lines";
import { writeOrders } from "./orders";
import { byFirstLine, describePlaced } from "./placed";
import { lineRefusal, priceLines, type Quote } from "./price";
import { lockOffers, soldOut, takeStock } from "./stock";
import {
  assertOpen,
  getCheckoutSession,
  newSessionValues,
  readSession,
  resolveBuyer,
  SESSION_COLUMNS,
  sessionLines,
  sessionOf,
  SESSION_TTL_MS,
  type CheckoutSessionView,
  type SessionRow,
  type SessionViewer,
} from "./sessions";
import type { AgentCaller, Buyer, CheckoutSource, ExplicitLine, PlacedOrder, Tx } from "./types";

/**
 * Completing a checkout session: its named steps in one transaction, all or nothing.
 *
 * 1. lock the session (a second completion waits, then answers the orders the first placed);
 * 2. check the agent's limits, for an agent's session (limits.ts: the holder's lock first);
 * 3. read the lines as they stand now and price them (lines.ts, price.ts);
 * 4. take the stock, every offer locked in id order (stock.ts);
 * 5. charge, once stock is held (charge.ts: a decline is 402 and rolls it all back; an approved
 *    charge whose transaction then fails is refunded by `endAttempt`);
 * 6. write the order with each store's part, or one order per store for a session that splits
 *    by store (orders.ts), and close the session;
 * 7. announce it (announce.ts: the confirmation e-mail; lib/webhooks/outbox.ts: the order events
 *    owed to a commerce platform), queued in the transaction and sent after commit.
 */

/** What one attempt at completing brings, resolved before the transaction. */
interface Attempting {
  buyer: { userId: string | null; email: string };
  address: ShippingAddressData;
  payer: Payer;
  agent: AgentCaller | null;
  expectedTotalCents?: number;
  expectedLines?: ReadonlyArray<ExplicitLine>;
}

/**
 * The orders placed now (one, or one per store for a session that splits by store), or the rows
 * of the orders an earlier completion placed.
 */
type Completed = { placed: PlacedOrder[] } | { replayed: OrderRow[] };

// Under a burst (a hundred buyers for one listing), checkouts queue for a connection.
const TX_OPTIONS = { maxWait: 30_000, timeout: 20_000 };

/** Steps 2 to 7 on a locked open session. `onAttempt` hears the charge's answer. */
async function completeLocked(tx: Tx, session: SessionRow, attempt: Attempting, onAttempt: (a: Attempt) => void): Promise<Completed> {
  const gate = attempt.agent ? await openAgentGate(tx, attempt.buyer.userId!, attempt.agent) : null;

  const lines = await sessionLines(tx, session, true);
  if (lines.length === 0) throw new AppError("cart_empty", "There is nothing to buy: the cart is empty.");
  if (attempt.expectedLines && !sameLines(attempt.expectedLines, lines)) {
    throw new AppError(
      "cart_changed",
      "Your cart changed since this page was shown (an item or a quantity changed elsewhere). Check it and place the order again.",
    );
  }
  await lockOffers(tx, lines.map((l) => l.listing_id));
  const quote = await priceLines(tx, lines, attempt.address.country);
  const blocked = quote.lines.find((l) => !l.purchasable);
  if (blocked) throw lineRefusal(blocked);
  if (gate) await gate.checkTotal(quote);
  if (attempt.expectedTotalCents !== undefined && attempt.expectedTotalCents !== quote.total_cents) {
    throw new AppError(
      "total_changed",
      `The total changed: it is now ${formatCents(quote.total_cents)}, not ${formatCents(attempt.expectedTotalCents)}.`,
      "expected_total_cents",
      { extra: { total_cents: quote.total_cents } },
    );
  }

  const taken = await takeStock(tx, quote.lines);
  const charged = await charge(tx, attempt.payer, { checkoutToken: session.token, amountCents: quote.total_cents, currency: quote.currency }, onAttempt);
  const rows = await writeOrders(tx, {
    sessionId: session.id,
    checkoutToken: session.token,
    buyer: attempt.buyer,
    placedVia: session.placed_via,
    agentGrantId: attempt.agent?.grantId ?? null,
    quote,
    address: attempt.address,
    charged,
    taken,
    cartId: session.source === "cart" ? session.cart_id : null,
  }, session.split_by_store);
  // The platform of a commerce-protocol checkout hears of its orders (after commit, lib/webhooks/).
  // Only an agent's checkout can be one: the storefront's skips the lookup.
  if (session.placed_via === "agent") await queueOrderEvents(tx, rows.map((r) => r.id), "order_create");
  // The stores hear of it too, if they asked (lib/seller/webhooks/).
  await emitStoreEvents(tx, "order.created", rows.flatMap((r) => r.parts.map((p) => ({ storeId: p.storeId, id: r.id }))));
  await emitStoreEvents(tx, "listing.sold_out", soldOut(taken));
  const completedAt = rows[0]!.createdAt;
  await tx.$executeRaw`
    UPDATE checkout_sessions SET status = 'completed', completed_at = ${completedAt}, updated_at = ${completedAt},
      shipping_address = ${JSON.stringify(attempt.address)}::jsonb
    WHERE id = ${session.id}::uuid`;
  const placed: PlacedOrder[] = [];
  for (const row of rows) {
    const one = await describePlaced(tx, row, false, quote.stores);
    await sendOrderConfirmation(one, tx);
    placed.push(one);
  }
  return { placed };
}

/**
 * Runs `body` in the checkout's transaction; when it fails after the provider answered, the
 * attempt is ended (a decline recorded, an approved charge refunded) once the transaction has
 * rolled back and its connection is free.
 */
async function inCheckoutTransaction<T>(client: PrismaClient, checkoutToken: () => string | null, body: (tx: Tx, onAttempt: (a: Attempt) => void) => Promise<T>): Promise<T> {
  let attempt: Attempt | null = null;
  try {
    return await client.$transaction((tx) => body(tx, (a) => (attempt = a)), TX_OPTIONS);
  } catch (err) {
    const token = checkoutToken();
    if (attempt && token) await endAttempt(client, token, attempt);
    throw err;
  }
}

/** The orders as callers get them (after commit: a replay reads its stores' names). */
async function described(client: DbClient, result: Completed): Promise<PlacedOrder[]> {
  if ("placed" in result) return result.placed;
  const placed: PlacedOrder[] = [];
  for (const row of result.replayed) placed.push(await describePlaced(client, row, true));
  return placed;
}

// ---------------------------------------------------------------------------------------------
// The one-shot doors: the storefront's form, the buyer API, the agent MCP.

export interface PlaceOrderInput {
  buyer: Buyer;
  source: CheckoutSource;
  /** Where to ship; without it, the account's default address (400 `shipping_address_missing`). */
  shippingAddress?: AddressInput;
  /** A card number typed at checkout; without it, the account's default payment method (400 `payment_method_missing`). */
  cardNumber?: string;
  placedVia: "storefront" | "agent";
  /**
   * The agent placing the order for its holder: required when `placedVia` is `agent`, refused
   * otherwise. `grantId` is the OAuth grant of its access token (stored on the order); `scopes`
   * are the token's scopes, of which `checkout` is needed (refused last, see limits.ts).
   */
  agent?: AgentCaller;
  /**
   * The checkout's key, its session's token: a second call with the same token answers the order
   * the first placed and places nothing (the storefront form's one-time token; an API's
   * idempotency owner and key).
   */
  checkoutToken: string;
  /** The total the buyer saw: 409 `total_changed` when it differs. */
  expectedTotalCents?: number;
  /** The cart's lines as the buyer saw them: 409 `cart_changed` when the cart holds others now. */
  expectedLines?: ReadonlyArray<ExplicitLine>;
}

const TOKEN_MAX = 200;
const GRANT_ID_MAX = 200;

/** An agent checkout names its grant and scopes, and buys for an account holder; anything else has no agent. */
function checkAgent(input: PlaceOrderInput): void {
  if (input.placedVia !== "agent") {
    if (input.agent !== undefined) throw new AppError("parameter_invalid", "Only an agent checkout names an agent.", "agent");
    return;
  }
  const agent = input.agent;
  if (
    !agent ||
    typeof agent.grantId !== "string" ||
    !agent.grantId ||
    agent.grantId.length > GRANT_ID_MAX ||
    !Array.isArray(agent.scopes) ||
    !agent.scopes.every((scope) => typeof scope === "string")
  ) {
    throw new AppError("parameter_invalid", "An agent checkout needs the agent's grant id and scopes.", "agent");
  }
  // Agents act for account holders, whose settings and limits they are held to; a guest has none.
  if (!("userId" in input.buyer)) throw new AppError("parameter_invalid", "An agent can only buy for an account holder.", "buyer");
}

function checkExpectedTotal(expected: number | undefined): void {
  if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0)) {
    throw new AppError("parameter_invalid", "expected_total_cents must be a whole number of cents, 0 or more.", "expected_total_cents");
  }
}

async function addressFor(
  client: DbClient,
  given: AddressInput | ShippingAddressData | null | undefined,
  userId: string | null,
  parse: boolean,
): Promise<ShippingAddressData> {
  if (given) return parse ? parseShippingAddress(given) : (given as ShippingAddressData);
  const address = userId ? await defaultAddress(client, userId) : null;
  if (!address) {
    throw new AppError(
      "shipping_address_missing",
      userId ? "The account has no default shipping address; set one on /account." : "Enter a shipping address.",
      "shipping_address",
    );
  }
  return address;
}

/**
 * Places an order in one call: makes the checkout's session (keyed by `checkoutToken`) and
 * completes it in the same transaction. A repeat of the token answers the first order and places
 * nothing; an attempt that failed (a decline, a sold-out line) leaves the session open for the
 * token's next attempt. Agentic checkout's rules hold an agent's checkout (`placedVia: "agent"`,
 * with `agent`) inside the transaction, before any stock is taken; the order keeps the agent's
 * grant id. The confirmation e-mail goes out after commit.
 */
export async function placeOrder(client: PrismaClient, input: PlaceOrderInput): Promise<PlacedOrder> {
  if (typeof input.checkoutToken !== "string" || !input.checkoutToken || input.checkoutToken.length > TOKEN_MAX) {
    throw new AppError("parameter_invalid", "The checkout token is missing or too long.", "checkout_token");
  }
  checkExpectedTotal(input.expectedTotalCents);
  if ("lines" in input.source) checkExplicitLines(input.source.lines);
  checkAgent(input);
  const buyer = await resolveBuyer(client, input.buyer);
  const address = await addressFor(client, input.shippingAddress, buyer.userId, true);
  const payer = input.cardNumber !== undefined ? cardPayer(input.cardNumber) : await savedPayer(client, buyer.userId);
  const token = input.checkoutToken;

  const result = await inCheckoutTransaction<Completed>(
    client,
    () => token,
    async (tx, onAttempt) => {
      const existing = await tx.order.findUnique({ where: { checkoutToken: token }, include: ORDER_INCLUDE });
      if (existing) {
        if (existing.userId !== buyer.userId || (!buyer.userId && existing.email !== buyer.email)) throw tokenOfAnother();
        return { replayed: [existing] };
      }
      const session = await openOneShotSession(tx, input, buyer);
      if (session.status === "completed") {
        // A concurrent attempt of this token completed it while this one waited for its lock.
        const placed = await tx.order.findUnique({ where: { checkoutToken: token }, include: ORDER_INCLUDE });
        if (!placed || placed.userId !== buyer.userId || (!buyer.userId && placed.email !== buyer.email)) throw tokenOfAnother();
        return { replayed: [placed] };
      }
      return completeLocked(tx, session, { buyer, address, payer, agent: input.agent ?? null, expectedTotalCents: input.expectedTotalCents, expectedLines: input.expectedLines }, onAttempt);
    },
  );
  // A one-shot session never splits by store: one order.
  return (await described(client, result))[0]!;
}

function tokenOfAnother(): AppError {
  return new AppError("parameter_invalid", "This checkout token belongs to another checkout.", "checkout_token");
}

/**
 * The one-shot session of a token, locked: made now (with this attempt's lines, buyer and
 * address), or the one an earlier attempt of the token left open, brought up to this attempt.
 */
async function openOneShotSession(tx: Tx, input: PlaceOrderInput, buyer: { userId: string | null; email: string }): Promise<SessionRow> {
  const values = newSessionValues({ ...input, agentGrantId: input.agent?.grantId, payment: input.cardNumber !== undefined ? "card" : "saved" }, buyer);
  // The cart's id is looked up in the same statement; the cart is locked when its lines are read
  // (completeLocked), after the holder's lock: every checkout takes its locks in one order
  // (session, holder, cart, offers).
  const ownerWhere = values.cartOwner ? cartOwnerWhere(values.cartOwner) : null;
  const cartId = ownerWhere ? Prisma.sql`(SELECT id FROM carts WHERE ${ownerWhere})` : Prisma.sql`NULL::uuid`;
  const lines = values.lines === null ? null : JSON.stringify(values.lines);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  // A new row is this transaction's alone until it commits (a concurrent attempt of the token
  // waits on the unique index): no lock to take.
  const [made] = await tx.$queryRaw<SessionRow[]>`
    INSERT INTO checkout_sessions (token, placed_via, user_id, email, agent_grant_id, source, cart_id, lines, payment, expires_at, created_at, updated_at)
    VALUES (${input.checkoutToken}, ${values.placedVia}::order_placed_via, ${values.userId}::uuid, ${values.email}, ${values.agentGrantId},
            ${values.source}, ${cartId}, ${lines}::jsonb, ${values.payment}, ${expiresAt}, ${now}, ${now})
    ON CONFLICT (token) DO NOTHING
    RETURNING ${SESSION_COLUMNS}`;
  if (made) return made;
  // An earlier attempt of this token (declined, or refused) left it open: this attempt's choices hold.
  await tx.$executeRaw`
    UPDATE checkout_sessions SET placed_via = ${values.placedVia}::order_placed_via, user_id = ${values.userId}::uuid, email = ${values.email},
      agent_grant_id = ${values.agentGrantId}, source = ${values.source}, cart_id = ${cartId}, lines = ${lines}::jsonb,
      payment = ${values.payment}, expires_at = ${expiresAt}, updated_at = ${now}
    WHERE token = ${input.checkoutToken} AND status = 'open'`;
  const session = (await readSession(tx, { token: input.checkoutToken }, true))!;
  if (session.status === "canceled" || (session.status === "open" && session.user_id !== values.userId)) throw tokenOfAnother();
  return session;
}

// ---------------------------------------------------------------------------------------------
// Sessions built step by step.

export interface CompleteInput {
  /** A card number given now (the session's payment is `card`); else the account's default method. */
  cardNumber?: string;
  /** The agent completing an agent's session: its grant and its token's scopes. */
  agent?: AgentCaller;
  expectedTotalCents?: number;
}

/**
 * Completes the viewer's session into its orders. Completing a completed session again answers
 * the same orders (`replayed`) and places nothing; a canceled or expired one is 409
 * `checkout_session_closed`. Each refusal is the one-shot doors' own (the first requirement left,
 * in their order), and leaves the session open.
 */
export async function completeCheckoutSession(client: PrismaClient, id: unknown, viewer: SessionViewer, input: CompleteInput = {}): Promise<{ session: CheckoutSessionView; placed: PlacedOrder[] }> {
  checkExpectedTotal(input.expectedTotalCents);
  let token: string | null = null;
  const result = await inCheckoutTransaction<Completed>(
    client,
    () => token,
    async (tx, onAttempt) => {
      const session = await sessionOf(tx, id, viewer, true);
      token = session.token;
      if (session.status === "completed") {
        const rows = byFirstLine(await tx.order.findMany({ where: { checkoutSessionId: session.id }, include: ORDER_INCLUDE }));
        return { replayed: rows };
      }
      assertOpen(session);
      // A holder's agent session is held to the holder's agent settings: its agent must say who it is.
      if (session.placed_via === "agent" && session.user_id && !input.agent) throw new AppError("parameter_invalid", "An agent's checkout session is completed by an agent.", "agent");
      if (session.placed_via !== "agent" && input.agent) throw new AppError("parameter_invalid", "Only an agent checkout names an agent.", "agent");
      if (!session.user_id && !session.email) {
        throw new AppError("parameter_missing", "Give the buyer's e-mail address: the confirmation is sent there.", "buyer.email");
      }
      const buyer = session.user_id ? await resolveBuyer(tx, { userId: session.user_id }) : { userId: null, email: session.email! };
      // Inside the transaction, every read goes through it: a second connection per checkout would
      // starve the pool under a burst.
      const address = await addressFor(tx, session.shipping_address, buyer.userId, false);
      const payer = session.payment === "card" || input.cardNumber !== undefined ? cardPayer(input.cardNumber) : await savedPayer(tx, buyer.userId);
      return completeLocked(tx, session, { buyer, address, payer, agent: input.agent ?? null, expectedTotalCents: input.expectedTotalCents }, onAttempt);
    },
  );
  const placed = await described(client, result);
  return { session: await getCheckoutSession(client, id, viewer), placed };
}

/**
 * What checking out would buy now, without a session: the source's lines re-read, each with its
 * store, each store's shipping to `country` (default `US`), the totals over the lines that can be
 * bought, and what changed since the cart was last seen. Writes nothing. (The storefront's
 * /checkout page shows it before "Place order".)
 */
export async function quoteCheckout(client: DbClient, source: CheckoutSource, options: { country?: string } = {}): Promise<Quote> {
  const { lines } = await sourceLines(client, source);
  return priceLines(client, lines, (options.country ?? "US").toUpperCase());
}
