import { defaultAddress } from "@/lib/accounts/addresses";
import { defaultPaymentMethod } from "@/lib/accounts/payment-methods";
import { normaliseEmail } from "@/lib/accounts/users";
import { agentSpendThisMonth, getAgentSettings } from "@/lib/agents/settings";
import { effectiveScopes } from "@/lib/auth/scopes";
import { LINE_QUANTITY_MAX, type CartOwner } from "@/lib/cart/cart";
import { isToken, tokenHash } from "@/lib/cart/token";
import { db, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { logEvent } from "@/lib/log";
import { cardDigits, defaultProvider, passesLuhn, providerOf, type PaymentProvider, type PaymentSource } from "@/lib/payments";
import { formatCents } from "@/lib/catalog/money";
import { getSetting } from "@/lib/settings";
import type { ConditionValue } from "@/lib/schemas/catalog";
import type { OrderData, ShippingAddressData } from "@/lib/schemas/orders";
import { parseShippingAddress, type AddressInput } from "./address";
import { confirmationPath, isConfirmationKey } from "./confirmation";
import { sendOrderConfirmation } from "./confirmation-email";
import { ORDER_INCLUDE, toOrder, type OrderRow } from "./shape";
import { storeShippingCents, type LineRate } from "./shipping";

/**
 * Checkout (decisions.md "Orders, checkout and returns"): a quote of what would be bought now,
 * and placing the order in one transaction. Nothing here knows who calls: the storefront's
 * /checkout, the buyer API and the agent MCP pass plain values and get plain values back, and
 * every refusal is an AppError.
 */

type Tx = Prisma.TransactionClient;
type Executor = Pick<Tx, "$queryRaw">;

/** Lines an explicit ("buy now") checkout may hold. */
export const EXPLICIT_LINES_MAX = 20;

export interface ExplicitLine {
  listing_id: string;
  quantity: number;
}

/** What to buy: the lines of a cart, or lines given at once (the cart is left alone). */
export type CheckoutSource = { cart: CartOwner } | { lines: ReadonlyArray<ExplicitLine> };

/**
 * How a line stands now: `in_stock` and `backorder` can be bought; `short_of_stock` (fewer units
 * than asked, no backorder), `sold_out` (none left, no backorder) and `unavailable` (the listing,
 * its store or its product was deactivated, or it is gone) cannot.
 */
export type QuoteLineStatus = "in_stock" | "backorder" | "short_of_stock" | "sold_out" | "unavailable";

/** What changed since the cart was last seen (price) or since it was filled (the rest). */
export type QuoteChangeKind = "price_changed" | "short_of_stock" | "sold_out" | "unavailable";

export interface QuoteLine {
  /** 0-based, in the source's order: the `param` of a refusal is `lines[position]`. */
  position: number;
  listing_id: string;
  /** Null when the product is no longer publicly listed (or the listing is gone). */
  product_slug: string | null;
  title: string | null;
  store_id: string | null;
  store_slug: string | null;
  store_name: string | null;
  condition: ConditionValue | null;
  quantity: number;
  unit_price_cents: number | null;
  /** The price the cart last showed, when it differs from the current one. */
  previous_price_cents: number | null;
  line_total_cents: number;
  status: QuoteLineStatus;
  purchasable: boolean;
}

export interface QuoteChange {
  position: number;
  listing_id: string;
  title: string | null;
  kind: QuoteChangeKind;
  previous_price_cents?: number;
  price_cents?: number;
}

export interface QuoteStore {
  store_id: string;
  store_slug: string;
  store_name: string;
  lines: QuoteLine[];
  subtotal_cents: number;
  /** This store's shipping for its purchasable lines (lib/orders/shipping.ts). */
  shipping_cents: number;
}

export interface Quote {
  lines: QuoteLine[];
  /** Stores of the purchasable lines, in the order their first line appears. */
  stores: QuoteStore[];
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  currency: string;
  changes: QuoteChange[];
  /** Every line can be bought now and there is at least one. */
  ready: boolean;
  /** The country the shipping was quoted for. */
  country: string;
}

interface SourceLine {
  listing_id: string;
  quantity: number;
  seen_price_cents: number | null;
}

interface QuoteRow {
  position: number;
  listing_id: string;
  quantity: number;
  seen_price_cents: number | null;
  found: boolean;
  price_cents: number | null;
  currency: string | null;
  condition: ConditionValue | null;
  stock: number | null;
  allow_backorder: boolean | null;
  /** The listing, its store and its product are all active and listed. */
  listed: boolean;
  store_id: string | null;
  store_slug: string | null;
  store_name: string | null;
  product_slug: string | null;
  product_title: string | null;
  rate_price_cents: number | null;
  rate_free_over_cents: number | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Explicit lines, checked: 1-20, each a listing id and a quantity 1-99, no listing twice. */
export function checkExplicitLines(lines: ReadonlyArray<ExplicitLine>): SourceLine[] {
  if (!Array.isArray(lines) || lines.length === 0) throw new AppError("parameter_missing", "Give at least one line to buy.", "lines");
  if (lines.length > EXPLICIT_LINES_MAX) throw new AppError("parameter_invalid", `At most ${EXPLICIT_LINES_MAX} lines can be bought at once.`, "lines");
  const seen = new Set<string>();
  return lines.map((line, i) => {
    if (typeof line?.listing_id !== "string" || !UUID.test(line.listing_id)) {
      throw new AppError("parameter_invalid", "The listing id must be a UUID.", `lines[${i}].listing_id`);
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
      throw new AppError("parameter_invalid", `The quantity must be a whole number from 1 to ${LINE_QUANTITY_MAX}.`, `lines[${i}].quantity`);
    }
    const id = line.listing_id.toLowerCase();
    if (seen.has(id)) throw new AppError("parameter_invalid", "This listing appears in an earlier line; give each listing once.", `lines[${i}].listing_id`);
    seen.add(id);
    return { listing_id: id, quantity: line.quantity, seen_price_cents: null };
  });
}

/** The cart's id and lines (oldest first, as the cart shows them); locks the cart row when `lock`. */
async function cartLines(executor: Executor, owner: CartOwner, lock: boolean): Promise<{ cartId: string | null; lines: SourceLine[] }> {
  if ("token" in owner && !isToken(owner.token)) return { cartId: null, lines: [] };
  const where = "userId" in owner ? Prisma.sql`user_id = ${owner.userId}::uuid` : Prisma.sql`token_hash = ${tokenHash(owner.token)}`;
  const [cart] = await executor.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM carts WHERE ${where} ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  if (!cart) return { cartId: null, lines: [] };
  const lines = await executor.$queryRaw<SourceLine[]>`
    SELECT listing_id::text AS listing_id, quantity, price_cents AS seen_price_cents
    FROM cart_lines WHERE cart_id = ${cart.id}::uuid ORDER BY added_at, listing_id`;
  return { cartId: cart.id, lines };
}

async function sourceLines(executor: Executor, source: CheckoutSource, lock: boolean) {
  if ("lines" in source) return { cartId: null, lines: checkExplicitLines(source.lines) };
  return cartLines(executor, source.cart, lock);
}

/** Reads the lines as they stand now and prices them for `country`. */
async function priceLines(executor: Executor, lines: SourceLine[], country: string): Promise<Quote> {
  const rows = lines.length
    ? await executor.$queryRaw<QuoteRow[]>`
        SELECT (r.ord - 1)::int AS position, r.listing_id::text AS listing_id, r.quantity, r.seen_price_cents,
               l.id IS NOT NULL AS found, l.price_cents, l.currency, l.condition, l.quantity AS stock, l.allow_backorder,
               coalesce(l.status = 'active' AND s.status = 'active' AND p.publicly_listed, false) AS listed,
               s.id::text AS store_id, s.slug AS store_slug, s.name AS store_name,
               CASE WHEN p.publicly_listed THEN p.slug END AS product_slug,
               CASE WHEN p.publicly_listed THEN p.title END AS product_title,
               rate.price_cents AS rate_price_cents, rate.free_over_cents AS rate_free_over_cents
        FROM unnest(${lines.map((l) => l.listing_id)}::uuid[], ${lines.map((l) => l.quantity)}::int[],
                    ${lines.map((l) => l.seen_price_cents)}::int[])
             WITH ORDINALITY AS r(listing_id, quantity, seen_price_cents, ord)
        LEFT JOIN listings l ON l.id = r.listing_id
        LEFT JOIN stores s ON s.id = l.store_id
        LEFT JOIN products p ON p.id = l.product_id
        LEFT JOIN LATERAL (
          SELECT sr.price_cents, sr.free_over_cents FROM shipping_rates sr
          WHERE sr.template_id = l.shipping_template_id AND sr.service = 'standard' AND sr.region IN (${country}, '*')
          ORDER BY sr.region = ${country} DESC LIMIT 1
        ) rate ON true
        ORDER BY r.ord`
    : [];
  const quoteLines = rows.map((row): QuoteLine & { rate: LineRate | null } => {
    const status = statusOf(row);
    const purchasable = status === "in_stock" || status === "backorder";
    return {
      position: row.position,
      listing_id: row.listing_id,
      product_slug: row.product_slug,
      title: row.product_title,
      store_id: row.store_id,
      store_slug: row.store_slug,
      store_name: row.store_name,
      condition: row.condition,
      quantity: row.quantity,
      unit_price_cents: row.found ? row.price_cents : null,
      previous_price_cents:
        row.found && row.seen_price_cents !== null && row.seen_price_cents !== row.price_cents ? row.seen_price_cents : null,
      line_total_cents: row.found ? row.price_cents! * row.quantity : 0,
      status,
      purchasable,
      rate: row.rate_price_cents === null ? null : { priceCents: row.rate_price_cents, freeOverCents: row.rate_free_over_cents },
    };
  });

  const stores = new Map<string, QuoteStore & { rates: Array<LineRate | null> }>();
  for (const line of quoteLines) {
    if (!line.purchasable) continue;
    let store = stores.get(line.store_id!);
    if (!store) {
      store = { store_id: line.store_id!, store_slug: line.store_slug!, store_name: line.store_name!, lines: [], subtotal_cents: 0, shipping_cents: 0, rates: [] };
      stores.set(line.store_id!, store);
    }
    store.lines.push(withoutRate(line));
    store.rates.push(line.rate);
    store.subtotal_cents += line.line_total_cents;
  }
  const storeList = [...stores.values()].map(({ rates, ...store }) => ({
    ...store,
    shipping_cents: storeShippingCents(store.lines.map((l, i) => ({ lineTotalCents: l.line_total_cents, rate: rates[i]! }))),
  }));

  const changes: QuoteChange[] = [];
  for (const line of quoteLines) {
    const base = { position: line.position, listing_id: line.listing_id, title: line.title };
    if (line.previous_price_cents !== null) {
      changes.push({ ...base, kind: "price_changed", previous_price_cents: line.previous_price_cents, price_cents: line.unit_price_cents! });
    }
    if (!line.purchasable) changes.push({ ...base, kind: line.status as QuoteChangeKind });
  }

  const subtotal = storeList.reduce((sum, s) => sum + s.subtotal_cents, 0);
  const shipping = storeList.reduce((sum, s) => sum + s.shipping_cents, 0);
  return {
    lines: quoteLines.map(withoutRate),
    stores: storeList,
    subtotal_cents: subtotal,
    shipping_cents: shipping,
    total_cents: subtotal + shipping,
    currency: rows.find((r) => r.currency)?.currency ?? "USD",
    changes,
    ready: quoteLines.length > 0 && quoteLines.every((l) => l.purchasable),
    country,
  };
}

function withoutRate(line: QuoteLine & { rate?: LineRate | null }): QuoteLine {
  const copy: QuoteLine & { rate?: LineRate | null } = { ...line };
  delete copy.rate;
  return copy;
}

function statusOf(row: QuoteRow): QuoteLineStatus {
  if (!row.found || !row.listed) return "unavailable";
  if (row.stock! >= row.quantity) return "in_stock";
  if (row.allow_backorder) return "backorder";
  return row.stock! > 0 ? "short_of_stock" : "sold_out";
}

/**
 * What checking out would buy now: the source's lines re-read, each with its store, each store's
 * shipping to `country` (default `US`), the totals over the lines that can be bought, and what
 * changed since the cart was last seen. Writes nothing.
 */
export async function quoteCheckout(source: CheckoutSource, options: { country?: string } = {}): Promise<Quote> {
  const executor = db();
  const { lines } = await sourceLines(executor, source, false);
  return priceLines(executor, lines, (options.country ?? "US").toUpperCase());
}

/** An agent checking out for its holder through the buyer API or the agent MCP. */
export interface AgentCaller {
  grantId: string;
  scopes: readonly string[];
}

/** Who buys: an account holder, or a guest known by an e-mail address. */
export type Buyer = { userId: string } | { email: string };

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
   * are the token's scopes, of which `checkout` is needed (refused last, see `agentGate`).
   */
  agent?: AgentCaller;
  /**
   * One checkout's key: a second call with the same token answers the order the first placed and
   * places nothing (the storefront form's one-time token; an API's idempotency owner and key).
   */
  checkoutToken: string;
  /** The total the buyer saw: 409 `total_changed` when it differs. */
  expectedTotalCents?: number;
  /** The cart's lines as the buyer saw them: 409 `cart_changed` when the cart holds others now. */
  expectedLines?: ReadonlyArray<ExplicitLine>;
}

export interface PlacedOrder {
  order: OrderData;
  /** True when the token had already placed this order (nothing was placed now). */
  replayed: boolean;
  /** Where the buyer sees the confirmation (for a guest, a signed link only they hold). */
  confirmation_path: string;
  /** Placed by a signed-in account holder (else a guest). */
  account_holder: boolean;
  email: string;
  payment_last4: string;
  /** Each store's part: its name, subtotal and shipping, for the confirmation page and e-mail. */
  stores: Array<{ store_slug: string; store_name: string; subtotal_cents: number; shipping_cents: number }>;
}

const TOKEN_MAX = 200;

interface Payer {
  provider: PaymentProvider;
  source: PaymentSource;
}

async function buyerOf(buyer: Buyer): Promise<{ userId: string | null; email: string }> {
  if ("email" in buyer) return { userId: null, email: normaliseEmail(buyer.email) };
  const user = await db().user.findUnique({ where: { id: buyer.userId }, select: { id: true, email: true } });
  if (!user) throw new AppError("parameter_invalid", "No such account.", "buyer");
  return { userId: user.id, email: user.email };
}

async function addressOf(input: PlaceOrderInput, userId: string | null): Promise<ShippingAddressData> {
  if (input.shippingAddress) return parseShippingAddress(input.shippingAddress);
  const address = userId ? await defaultAddress(userId) : null;
  if (!address) {
    throw new AppError(
      "shipping_address_missing",
      userId ? "The account has no default shipping address; set one on /account." : "Enter a shipping address.",
      "shipping_address",
    );
  }
  return address;
}

async function payerOf(input: PlaceOrderInput, userId: string | null): Promise<Payer> {
  if (input.cardNumber !== undefined) {
    const digits = typeof input.cardNumber === "string" && input.cardNumber.length <= 40 ? cardDigits(input.cardNumber) : null;
    if (!digits || !passesLuhn(digits)) {
      throw new AppError("parameter_invalid", "Enter a valid card number (12 to 19 digits).", "card_number");
    }
    return { provider: defaultProvider(), source: { kind: "card", number: digits } };
  }
  const method = userId ? await defaultPaymentMethod(userId) : null;
  if (!method) {
    throw new AppError(
      "payment_method_missing",
      userId ? "The account has no default payment method; set one on /account." : "Enter a card number.",
      "payment_method",
    );
  }
  return { provider: providerOf(method.provider), source: { kind: "saved", provider: method.provider, providerRef: method.provider_ref, last4: method.last4 } };
}

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

/**
 * Agentic checkout's rules (decisions.md), inside the order's transaction. The holder's lock comes
 * first, so that one holder's agent checkouts run one at a time and each sees what the previous
 * one spent: together they can never pass the monthly limit. Then, each refusal a 403 of its own,
 * in this order: the marketplace switch, the holder's "Let agents place orders" (both right away),
 * then, once the order is priced (`checkTotal`), the per-order limit, what is left of the monthly
 * limit, and last the token's `checkout` scope.
 */
async function agentGate(tx: Tx, userId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`agent-spend:${userId}`}, 0))`;
  if (!(await getSetting("agentic_checkout", tx))) {
    throw new AppError("agentic_checkout_disabled", "The marketplace does not let agents place orders at the moment.");
  }
  const settings = await getAgentSettings(userId, tx);
  const perOrderLimit = settings.per_order_limit_cents;
  const monthlyLimit = settings.monthly_limit_cents;
  // Both limits are set whenever orders are on (a CHECK of agent_settings); a row without them counts as off.
  if (!settings.orders_enabled || perOrderLimit === null || monthlyLimit === null) {
    throw new AppError("agentic_purchasing_off", "The account holder has not let agents place orders (\"Let agents place orders\" on /account/agents).");
  }
  return {
    async checkTotal(totalCents: number, agent: AgentCaller): Promise<void> {
      if (totalCents > perOrderLimit) {
        throw new AppError(
          "per_order_limit_exceeded",
          `The order's total, ${formatCents(totalCents)}, is above the holder's per-order limit for agents, ${formatCents(perOrderLimit)}.`,
        );
      }
      const spent = await agentSpendThisMonth(userId, tx);
      if (spent + totalCents > monthlyLimit) {
        const left = Math.max(monthlyLimit - spent, 0);
        throw new AppError(
          "monthly_limit_exceeded",
          `The order's total, ${formatCents(totalCents)}, is above what is left of the holder's monthly limit for agents: ` +
            `${formatCents(left)} of ${formatCents(monthlyLimit)} left this month (calendar month, UTC).`,
        );
      }
      if (!effectiveScopes(agent.scopes).has("checkout")) {
        throw new AppError("scope_missing", "The access token lacks the scope 'checkout', which placing an order needs.", undefined, {
          requiredScopes: ["checkout"],
        });
      }
    },
  };
}

function lineParam(line: { position: number }): string {
  return `lines[${line.position}]`;
}

function refusalOf(line: QuoteLine): AppError {
  const name = line.title ? `'${line.title}'` : "An item";
  const extra = { extra: { listing_id: line.listing_id } };
  switch (line.status) {
    case "short_of_stock":
      return new AppError("insufficient_stock", `${name} does not have ${line.quantity} in stock any more; lower the quantity.`, lineParam(line), extra);
    case "sold_out":
      return new AppError("insufficient_stock", `${name} sold out.`, lineParam(line), extra);
    default:
      return new AppError("listing_unavailable", `${name} can no longer be bought.`, lineParam(line), extra);
  }
}

function sameLines(a: ReadonlyArray<ExplicitLine>, b: ReadonlyArray<ExplicitLine>): boolean {
  const key = (lines: ReadonlyArray<ExplicitLine>) =>
    lines
      .map((l) => `${String(l.listing_id).toLowerCase()}:${l.quantity}`)
      .sort()
      .join(",");
  return key(a) === key(b);
}

/**
 * Places an order, all or nothing, in one transaction: the token's lock and look-up (a repeat
 * answers the first order), the lines re-read and priced, every listing's stock taken by a
 * conditional update (`quantity >= n`, or backorder, floored at 0) with a stock adjustment each,
 * the payment charged once stock is held (a decline is 402 `payment_declined` and rolls it all
 * back), the order with each store's part, its lines as they are now and a `placed` event
 * written, and the bought lines taken out of the cart. When something fails after the charge was
 * approved, the charge is refunded. The confirmation e-mail goes out after commit.
 *
 * The charge's reference is stable across a crash (`chargeReference`): a process killed between
 * the approved charge and the commit leaves no order and no record, so the retry of the same
 * token charges under the same reference, which a provider honouring references answers with
 * the same charge (the buyer is charged once). A decline, or a charge refunded because the
 * transaction failed, ends its attempt (`endAttempt`), and the token's next attempt charges under
 * a new reference.
 *
 * An agent's checkout (`placedVia: "agent"`, with `agent`) is held to agentic checkout's rules in
 * the same transaction, before any stock is taken (`agentGate`), and the order keeps the agent's
 * grant id.
 */
export async function placeOrder(input: PlaceOrderInput): Promise<PlacedOrder> {
  if (typeof input.checkoutToken !== "string" || !input.checkoutToken || input.checkoutToken.length > TOKEN_MAX) {
    throw new AppError("parameter_invalid", "The checkout token is missing or too long.", "checkout_token");
  }
  if (input.expectedTotalCents !== undefined && (!Number.isSafeInteger(input.expectedTotalCents) || input.expectedTotalCents < 0)) {
    throw new AppError("parameter_invalid", "expected_total_cents must be a whole number of cents, 0 or more.", "expected_total_cents");
  }
  if ("lines" in input.source) checkExplicitLines(input.source.lines);
  checkAgent(input);
  const buyer = await buyerOf(input.buyer);
  const address = await addressOf(input, buyer.userId);
  const payer = await payerOf(input, buyer.userId);

  // Set once the provider answered: if the transaction then fails, the attempt ends (endAttempt).
  let attempt: Attempt | null = null;
  let result: { row: OrderRow; replayed: boolean; stores: QuoteStore[] | null };
  try {
    result = await db().$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`checkout:${input.checkoutToken}`}, 0))`;
        const existing = await tx.order.findUnique({ where: { checkoutToken: input.checkoutToken }, include: ORDER_INCLUDE });
        if (existing) {
          if (existing.userId !== buyer.userId || (!buyer.userId && existing.email !== buyer.email)) {
            throw new AppError("parameter_invalid", "This checkout token belongs to another checkout.", "checkout_token");
          }
          return { row: existing, replayed: true, stores: null };
        }

        const gate = input.agent ? await agentGate(tx, buyer.userId!) : null;

        const { cartId, lines } = await sourceLines(tx, input.source, true);
        if (lines.length === 0) throw new AppError("cart_empty", "There is nothing to buy: the cart is empty.");
        if (input.expectedLines && !sameLines(input.expectedLines, lines)) {
          throw new AppError(
            "cart_changed",
            "Your cart changed since this page was shown (an item or a quantity changed elsewhere). Check it and place the order again.",
          );
        }
        // Lock the offers in one order (by id) so that checkouts sharing listings never deadlock.
        await tx.$queryRaw`SELECT id FROM listings WHERE id = ANY(${lines.map((l) => l.listing_id)}::uuid[]) ORDER BY id FOR UPDATE`;
        const quote = await priceLines(tx, lines, address.country);
        const blocked = quote.lines.find((l) => !l.purchasable);
        if (blocked) throw refusalOf(blocked);
        if (gate) await gate.checkTotal(quote.total_cents, input.agent!);
        if (input.expectedTotalCents !== undefined && input.expectedTotalCents !== quote.total_cents) {
          throw new AppError(
            "total_changed",
            `The total changed: it is now ${formatCents(quote.total_cents)}, not ${formatCents(input.expectedTotalCents)}.`,
            "expected_total_cents",
            { extra: { total_cents: quote.total_cents } },
          );
        }

        const taken = await takeStock(tx, quote.lines);

        // Read under the token's lock: attempts of this token that ended before this one.
        const generation = await tx.paymentAttempt.count({ where: { checkoutToken: input.checkoutToken } });
        const reference = chargeReference(input.checkoutToken, generation);
        const charged = await payer.provider.charge({ source: payer.source, amountCents: quote.total_cents, currency: quote.currency, reference });
        if (charged.status !== "approved") {
          attempt = { reference, outcome: "declined" };
          const reason = charged.reason.charAt(0).toLowerCase() + charged.reason.slice(1);
          throw new AppError("payment_declined", `The payment was declined: ${reason} Nothing was charged and no order was placed.`, "payment_method");
        }
        attempt = { reference, outcome: "approved", provider: payer.provider, chargeRef: charged.chargeRef, amountCents: quote.total_cents, currency: quote.currency };
        logEvent("info", "payment charged", { reference, charge_ref: charged.chargeRef, provider: charged.provider, amount_cents: quote.total_cents, currency: quote.currency });

        const order = await tx.order.create({
          data: {
            userId: buyer.userId,
            email: buyer.email,
            placedVia: input.placedVia,
            subtotalCents: quote.subtotal_cents,
            shippingCents: quote.shipping_cents,
            totalCents: quote.total_cents,
            currency: quote.currency,
            shippingAddress: address as unknown as Prisma.InputJsonObject,
            paymentProvider: charged.provider,
            paymentRef: charged.chargeRef,
            paymentLast4: charged.last4.slice(-4),
            checkoutToken: input.checkoutToken,
            agentGrantId: input.agent?.grantId ?? null,
          },
        });
        const parts = await tx.orderStore.createManyAndReturn({
          data: quote.stores.map((s) => ({ orderId: order.id, storeId: s.store_id, shippingCents: s.shipping_cents })),
        });
        const orderLines = await tx.orderLine.createManyAndReturn({
          data: quote.lines.map((l) => ({
            orderId: order.id,
            storeId: l.store_id!,
            listingId: l.listing_id,
            position: l.position,
            productSlug: l.product_slug!,
            title: l.title!,
            storeSlug: l.store_slug!,
            condition: l.condition!,
            quantity: l.quantity,
            unitPriceCents: l.unit_price_cents!,
            lineTotalCents: l.line_total_cents,
          })),
        });
        await tx.orderEvent.create({ data: { orderId: order.id, status: "placed", note: `placed via ${input.placedVia}` } });
        await tx.stockAdjustment.createMany({
          data: taken.map((t) => ({ listingId: t.listing_id, delta: t.after - t.before, quantityAfter: t.after, reason: `order ${order.number}` })),
        });
        if (cartId) {
          await tx.cartLine.deleteMany({ where: { cartId, listingId: { in: quote.lines.map((l) => l.listing_id) } } });
        }
        const row: OrderRow = { ...order, parts: parts.map((part) => ({ ...part, lines: orderLines.filter((l) => l.storeId === part.storeId) })) };
        return { row, replayed: false, stores: quote.stores };
      },
      // Under a burst (a hundred buyers for one listing), checkouts queue for a connection.
      { maxWait: 30_000, timeout: 20_000 },
    );
  } catch (err) {
    // The transaction has rolled back (its connection is free): the attempt's end is written now.
    if (attempt) await endAttempt(input.checkoutToken, attempt as Attempt);
    throw err;
  }

  const placed = await describePlaced(result.row, result.replayed, result.stores);
  if (!result.replayed) await sendOrderConfirmation(placed);
  return placed;
}

/** What the provider answered to a checkout's charge. */
type Attempt =
  | { reference: string; outcome: "declined" }
  | { reference: string; outcome: "approved"; provider: PaymentProvider; chargeRef: string; amountCents: number; currency: string };

/**
 * The reference of a checkout's charge: the token and how many of its attempts ended before
 * (declined, or refunded; rows of `payment_attempts`). The same on a retry after a crash (nothing
 * was recorded), new after a decline or a refund.
 */
export function chargeReference(checkoutToken: string, generation: number): string {
  return `checkout:${checkoutToken}:${generation}`;
}

/**
 * Ends an attempt whose transaction failed (it has rolled back): records it in `payment_attempts`
 * so that the token's next attempt charges under a new reference, and refunds an approved charge
 * (reference `refund:<charge ref>`, one per refunded charge). Never throws: the checkout's own
 * error is what the caller gets.
 *
 * An approved charge is refunded only once its attempt is recorded: were the record missing, the
 * next attempt would reuse the reference and the provider would answer it with the refunded
 * charge. When the record cannot be written (the database is unreachable), the charge is left as
 * a crash leaves it, and logged (`payment not refunded: attempt not recorded`, with `charge_ref`):
 * a retry of the token reuses the charge; without one, the operator refunds it. A decline that
 * cannot be recorded is logged (`payment decline not recorded`); the token's next attempt reuses
 * the declined reference, which
 * a provider remembering declines answers with the decline (a new Idempotency-Key, or a new
 * checkout page, starts afresh).
 */
async function endAttempt(checkoutToken: string, attempt: Attempt): Promise<void> {
  if (attempt.outcome === "approved") {
    // A commit can succeed and still be reported as failed (its connection lost on the way back):
    // then the order exists and the charge pays it.
    const placed = await db()
      .order.findFirst({ where: { checkoutToken, paymentRef: attempt.chargeRef }, select: { id: true } })
      .catch(() => null);
    if (placed) return;
  }
  try {
    await db().paymentAttempt.create({
      data: { checkoutToken, reference: attempt.reference, outcome: attempt.outcome === "declined" ? "declined" : "refunded" },
    });
  } catch (err) {
    if (attempt.outcome === "declined") logEvent("error", "payment decline not recorded", { reference: attempt.reference, error: String(err) });
    else logEvent("error", "payment not refunded: attempt not recorded", { reference: attempt.reference, charge_ref: attempt.chargeRef, error: String(err) });
    return;
  }
  if (attempt.outcome === "declined") return;
  const reference = `refund:${attempt.chargeRef}`;
  try {
    await attempt.provider.refund({ chargeRef: attempt.chargeRef, amountCents: attempt.amountCents, currency: attempt.currency, reference });
  } catch (err) {
    logEvent("error", "payment refund failed", { reference: attempt.reference, charge_ref: attempt.chargeRef, refund_reference: reference, error: String(err) });
  }
}

const ORDER_NUMBER = /^M-[0-9]{1,18}$/;

/**
 * An order for its confirmation page: the signed-in account holder's own order, or a guest's
 * order with its confirmation key (lib/orders/confirmation.ts). Anything else, a forged number or
 * key included, is null (the page answers 404).
 */
export async function orderForConfirmation(number: string, viewer: { userId: string | null; key: unknown }): Promise<PlacedOrder | null> {
  if (!ORDER_NUMBER.test(number)) return null;
  const row = await db().order.findUnique({ where: { number }, include: ORDER_INCLUDE });
  if (!row) return null;
  const allowed = row.userId ? row.userId === viewer.userId : isConfirmationKey(row.id, viewer.key);
  return allowed ? describePlaced(row, true) : null;
}

const firstPosition = (part: OrderRow["parts"][number]) => Math.min(...part.lines.map((l) => l.position));

/** The order as callers get it; `known` saves reading the stores' names again right after placing. */
async function describePlaced(row: OrderRow, replayed: boolean, known: QuoteStore[] | null = null): Promise<PlacedOrder> {
  const stores = known
    ? known.map((s) => ({ id: s.store_id, slug: s.store_slug, name: s.store_name }))
    : await db().store.findMany({ where: { id: { in: row.parts.map((p) => p.storeId) } }, select: { id: true, slug: true, name: true } });
  const storeOf = new Map(stores.map((s) => [s.id, s]));
  const order = toOrder(row);
  return {
    order,
    replayed,
    account_holder: row.userId !== null,
    confirmation_path: confirmationPath(row),
    email: row.email,
    payment_last4: row.paymentLast4,
    // In the order of their first line; the slug as the lines keep it (from the moment of
    // purchase), so that lines group by it.
    stores: [...row.parts].sort((a, b) => firstPosition(a) - firstPosition(b)).map((p) => ({
      store_slug: p.lines[0]?.storeSlug ?? storeOf.get(p.storeId)?.slug ?? "",
      store_name: storeOf.get(p.storeId)?.name ?? "",
      shipping_cents: p.shippingCents,
      subtotal_cents: p.lines.reduce((sum, l) => sum + l.lineTotalCents, 0),
    })),
  };
}

interface Taken {
  listing_id: string;
  before: number;
  after: number;
}

/**
 * Takes every line's units with one conditional update: a listing gives `n` units only when it is
 * still purchasable and holds `n` (or allows backorder; a backordered listing stays at 0). A line
 * the update skips is refused, naming it.
 */
async function takeStock(tx: Tx, lines: QuoteLine[]): Promise<Taken[]> {
  const rows = await tx.$queryRaw<Array<{ listing_id: string; before: number; after: number }>>`
    WITH wanted AS (
      SELECT r.listing_id, r.n, l.quantity AS before
      FROM unnest(${lines.map((l) => l.listing_id)}::uuid[], ${lines.map((l) => l.quantity)}::int[]) AS r(listing_id, n)
      JOIN listings l ON l.id = r.listing_id
    )
    UPDATE listings l SET quantity = GREATEST(l.quantity - w.n, 0)
    FROM wanted w, stores s, products p
    WHERE l.id = w.listing_id AND s.id = l.store_id AND p.id = l.product_id
      AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)
      AND (l.quantity >= w.n OR l.allow_backorder)
    RETURNING l.id::text AS listing_id, w.before, l.quantity AS after`;
  const done = new Set(rows.map((r) => r.listing_id));
  const missed = lines.find((l) => !done.has(l.listing_id));
  if (missed) throw refusalOf({ ...missed, status: "short_of_stock" });
  return rows;
}
