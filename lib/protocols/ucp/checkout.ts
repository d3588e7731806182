import {
  cancelCheckoutSession,
  completeCheckoutSession,
  createCheckoutSession,
  getCheckoutSession,
  quoteCheckout,
  updateCheckoutSession,
  type AgentCaller,
  type CheckoutSessionView,
  type ExplicitLine,
} from "@/lib/checkout";
import { listAddresses } from "@/lib/accounts/addresses";
import { LINE_QUANTITY_MAX } from "@/lib/cart/cart";
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import { transaction, withDb } from "@/lib/http/database";
import { AppError } from "@/lib/errors";
import { parseShippingAddress } from "@/lib/orders/address";
import { isUuid } from "@/lib/ids";

import { renderCheckout, type UcpCheckout, type UcpState } from "./checkout-shape";
import { refusal } from "./errors";
import { addressOf, destinationPath, EMPTY_FULFILLMENT, mergeFulfillment, quoteCountry, savedDestinations, selectedDestination, type Destination } from "./fulfillment";
import { TEST_CARD_HANDLER_ID } from "./profile";
import type { CheckoutCompleteData, CheckoutCreateData, CheckoutUpdateData, UcpMessage } from "./shapes";
import { CURRENCY } from "@/lib/currency";

/**
 * UCP checkout operations over the marketplace's checkout sessions (lib/checkout/): create, get,
 * update (the whole checkout, as PUT says; an omitted buyer or fulfillment keeps what it was),
 * complete and cancel. A UCP checkout completes into one order per store, paid by one charge.
 * Without identity linking the buyer is a guest: the session's unguessable id is what lets a
 * platform read it again.
 */

/** Who calls: the platform (its UCP-Agent profile) and, with identity linking, the holder it acts for. */
export interface UcpCaller {
  platform: string | null;
  /** A linked holder (their OAuth token): their checkouts obey their agent settings and limits. */
  holder?: { userId: string; agent: AgentCaller };
}

const AGENT_RULES = new Set(["agentic_checkout_disabled", "agentic_purchasing_off", "per_order_limit_exceeded", "monthly_limit_exceeded"]);

/** A linked holder's saved addresses, offered as destinations; nobody else's, ever. */
async function savedOf(client: DbClient, caller: UcpCaller): Promise<Destination[]> {
  return caller.holder ? savedDestinations(await listAddresses(client, caller.holder.userId)) : [];
}

function viewerOf(caller: UcpCaller) {
  return { userId: caller.holder?.userId ?? null };
}

/** The request's line items as checkout lines, or a 400 naming every line that cannot be bought. */
async function linesOf(body: CheckoutCreateData): Promise<ExplicitLine[]> {
  const messages: UcpMessage[] = [];
  const seen = new Set<string>();
  const lines: Array<ExplicitLine & { index: number }> = [];
  body.line_items.forEach((line, i) => {
    const id = line.item.id;
    if (!isUuid(id)) {
      messages.push({ type: "error", code: "not_found", path: `$.line_items[${i}].item.id`, content: `Item '${String(id).slice(0, 100)}' not found.`, severity: "recoverable" });
    } else if (seen.has(id.toLowerCase())) {
      messages.push({ type: "error", code: "invalid", path: `$.line_items[${i}].item.id`, content: "This item appears in an earlier line item; give each item once.", severity: "recoverable" });
    } else if (line.quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
      messages.push({ type: "error", code: "invalid", path: `$.line_items[${i}].quantity`, content: `The quantity must be a whole number from 1 to ${LINE_QUANTITY_MAX}.`, severity: "recoverable" });
    } else {
      seen.add(id.toLowerCase());
      lines.push({ listing_id: id.toLowerCase(), quantity: line.quantity, index: i });
    }
  });
  if (lines.length > 20) {
    throw refusal(400, [{ type: "error", code: "invalid", path: "$.line_items", content: "At most 20 different items can be checked out at once.", severity: "recoverable" }]);
  }
  if (lines.length) {
    const quote = await withDb((client) => quoteCheckout(client, { lines }));
    quote.lines.forEach((q, n) => {
      const path = `$.line_items[${lines[n]!.index}]`;
      if (q.status === "unavailable") {
        messages.push({ type: "error", code: "not_found", path: `${path}.item.id`, content: `Item '${q.listing_id}' not found: it is not for sale.`, severity: "recoverable" });
      } else if (!q.purchasable) {
        const name = q.title ? `'${q.title}'` : "this item";
        messages.push({ type: "error", code: "out_of_stock", path, content: `Insufficient stock for ${name}: lower the quantity or remove it.`, severity: "recoverable" });
      }
    });
  }
  if (messages.length) {
    messages.sort((a, b) => (a.path ?? "").localeCompare(b.path ?? "", undefined, { numeric: true }));
    throw refusal(400, messages);
  }
  return lines.map(({ listing_id, quantity }) => ({ listing_id, quantity }));
}

function checkCurrency(currency: string): void {
  if (currency.toUpperCase() !== CURRENCY) {
    throw refusal(400, [{ type: "error", code: "invalid", path: "$.currency", content: `Only ${CURRENCY} is offered.`, severity: "recoverable" }]);
  }
}

/**
 * The selected destination as the session's address, when it is one; else null and everything
 * it lacks, each a message naming the destination's field.
 */
function addressFrom(state: UcpState): { address: ReturnType<typeof parseShippingAddress> | null; problems: UcpMessage[] } {
  const destination = selectedDestination(state.fulfillment);
  if (!destination || quoteCountry(state.fulfillment) === null) return { address: null, problems: [] };
  const input = addressOf(destination, state.buyer);
  const missing = REQUIRED_ADDRESS_FIELDS.filter((field) => !input[field]?.trim());
  if (missing.length) {
    return {
      address: null,
      problems: missing.map((field) => ({ type: "error", code: "missing", path: destinationPath(state.fulfillment, field), content: `The destination needs ${FIELD_WORDS[field]}.`, severity: "recoverable" })),
    };
  }
  try {
    return { address: parseShippingAddress(input, ""), problems: [] };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { address: null, problems: [{ type: "error", code: "invalid", path: destinationPath(state.fulfillment, err.param ?? ""), content: err.message, severity: "recoverable" }] };
  }
}

const REQUIRED_ADDRESS_FIELDS = ["full_name", "line1", "city", "state", "postal_code"] as const;
const FIELD_WORDS: Record<(typeof REQUIRED_ADDRESS_FIELDS)[number], string> = {
  full_name: "a name (full_name, or first_name and last_name, or the buyer's)",
  line1: "a street address",
  city: "a locality (city)",
  state: "a region (state or province)",
  postal_code: "a postal code",
};

/** The UCP state of a session; a session another door made is not a UCP checkout (404). */
async function readState(client: DbClient, sessionId: string): Promise<UcpState> {
  const row = await client.protocolCheckout.findUnique({ where: { sessionId } });
  if (!row || row.protocol !== "ucp") throw new AppError("checkout_session_not_found", "No such checkout session.");
  const state = row.state as unknown as Partial<UcpState>;
  return { currency: state.currency ?? CURRENCY, buyer: state.buyer ?? null, fulfillment: state.fulfillment ?? EMPTY_FULFILLMENT, payment: state.payment ?? null };
}

function stateData(state: UcpState) {
  return { state: state as unknown as Prisma.InputJsonObject };
}

/**
 * The checkout's answer. While the session has no address yet, its shipping is priced for the
 * selected destination's country (a platform may give a country alone to see the options).
 */
async function render(client: DbClient, view: CheckoutSessionView, state: UcpState, caller: UcpCaller): Promise<UcpCheckout> {
  const country = quoteCountry(state.fulfillment);
  const priced = country && !view.shipping_address && view.quote.country !== country ? await getCheckoutSession(client, view.id, viewerOf(caller), { country }) : view;
  const { problems } = addressFrom(state);
  return renderCheckout(priced, state, problems);
}

export async function createUcpCheckout(caller: UcpCaller, body: CheckoutCreateData): Promise<UcpCheckout> {
  checkCurrency(body.currency);
  const lines = await linesOf(body);
  const state: UcpState = {
    currency: CURRENCY,
    buyer: body.buyer ?? null,
    fulfillment: mergeFulfillment(EMPTY_FULFILLMENT, body.fulfillment, await withDb((client) => savedOf(client, caller))),
    payment: body.payment ?? null,
  };
  const { address } = addressFrom(state);
  const email = body.buyer?.email;
  const view = await transaction(async (tx) => {
    const created = await createCheckoutSession(tx, {
      buyer: caller.holder ? { userId: caller.holder.userId } : email ? { email } : { email: null },
      source: { lines },
      placedVia: "agent",
      agentGrantId: caller.holder?.agent.grantId,
      payment: "card",
      splitByStore: true,
    });
    await tx.protocolCheckout.create({ data: { sessionId: created.id, protocol: "ucp", platform: caller.platform, ...stateData(state) } });
    return address ? updateCheckoutSession(tx, created.id, viewerOf(caller), { shippingAddress: address }) : created;
  });
  return withDb((client) => render(client, view, state, caller));
}

export async function getUcpCheckout(caller: UcpCaller, id: string): Promise<UcpCheckout> {
  return withDb(async (client) => {
    const view = await getCheckoutSession(client, id, viewerOf(caller));
    return render(client, view, await readState(client, view.id), caller);
  });
}

export async function updateUcpCheckout(caller: UcpCaller, id: string, body: CheckoutUpdateData): Promise<UcpCheckout> {
  checkCurrency(body.currency);
  // 404 for another's session or an unknown id, before anything about the body is said.
  const before = await withDb((client) => getCheckoutSession(client, id, viewerOf(caller)));
  if (before.status === "completed" || before.status === "canceled" || before.status === "expired") {
    throw new AppError("checkout_session_closed", `This checkout is ${before.status === "expired" ? "expired" : before.status}: it cannot change any more.`);
  }
  const lines = await linesOf(body);
  const previous = await withDb((client) => readState(client, before.id));
  const state: UcpState = {
    currency: CURRENCY,
    buyer: body.buyer ?? previous.buyer,
    fulfillment: mergeFulfillment(previous.fulfillment, body.fulfillment, await withDb((client) => savedOf(client, caller))),
    payment: body.payment ?? previous.payment,
  };
  const { address } = addressFrom(state);
  const view = await transaction(async (tx) => {
    const updated = await updateCheckoutSession(tx, before.id, viewerOf(caller), {
      lines,
      shippingAddress: address,
      ...(caller.holder ? {} : { email: state.buyer?.email ?? null }),
    });
    await tx.protocolCheckout.update({ where: { sessionId: before.id }, data: stateData(state) });
    return updated;
  });
  return withDb((client) => render(client, view, state, caller));
}

/** The card number a complete's instrument carries: a card credential's number, or a token that is one. */
function cardNumberOf(id: string, body: CheckoutCompleteData): string {
  const data = body.payment_data;
  if (data.handler_id !== TEST_CARD_HANDLER_ID) {
    throw refusal(400, [{ type: "error", code: "invalid", path: "$.payment_data.handler_id", content: `Unknown payment handler '${data.handler_id.slice(0, 100)}': this business offers '${TEST_CARD_HANDLER_ID}'.`, severity: "recoverable" }]);
  }
  const credential = data.credential;
  const number = credential?.type === "card" ? credential.number : credential?.token;
  if (!credential || typeof number !== "string") {
    throw refusal(400, [{ type: "error", code: "missing", path: "$.payment_data.credential", content: "Give a card credential (its number) or a token credential.", severity: "recoverable" }]);
  }
  if (credential.binding && credential.binding.checkout_id !== id) {
    throw refusal(400, [{ type: "error", code: "invalid", path: "$.payment_data.credential.binding.checkout_id", content: "This credential is bound to another checkout.", severity: "recoverable" }]);
  }
  return number;
}

export async function completeUcpCheckout(caller: UcpCaller, id: string, body: CheckoutCompleteData): Promise<UcpCheckout> {
  return withDb((client) => completeWith(client, caller, id, body));
}

async function completeWith(client: PrismaClient, caller: UcpCaller, id: string, body: CheckoutCompleteData): Promise<UcpCheckout> {
  const view = await getCheckoutSession(client, id, viewerOf(caller));
  if (view.status === "completed" || view.status === "canceled" || view.status === "expired") {
    throw new AppError("checkout_session_closed", `This checkout is ${view.status}: it cannot be completed again.`);
  }
  const state = await readState(client, view.id);
  const current = await render(client, view, state, caller);
  // What the request can fix is refused here, all at once; an agent's limits are the domain's to
  // refuse, in their order and with their codes (403), exactly as on the agent MCP server.
  const blocking = (current.messages ?? []).filter((m) => !AGENT_RULES.has(m.code));
  if (blocking.length) throw refusal(400, blocking);
  const cardNumber = cardNumberOf(view.id, body);
  const { session } = await completeCheckoutSession(client, view.id, viewerOf(caller), { cardNumber, agent: caller.holder?.agent, expectedTotalCents: view.quote.total_cents });
  return render(client, session, state, caller);
}

export async function cancelUcpCheckout(caller: UcpCaller, id: string): Promise<UcpCheckout> {
  const view = await transaction((tx) => cancelCheckoutSession(tx, id, viewerOf(caller), "canceled_by_platform"));
  return withDb(async (client) => render(client, view, await readState(client, view.id), caller));
}
