import { businessDays } from "@/lib/orders/shipping";
import {
  cancelCheckoutSession,
  completeCheckoutSession,
  createCheckoutSession,
  getCheckoutSession,
  quoteCheckout,
  updateCheckoutSession,
  type CheckoutSessionView,
  type ExplicitLine,
} from "@/lib/checkout";
import { LINE_QUANTITY_MAX } from "@/lib/cart/cart";
import { absoluteUrl } from "@/lib/config";
import type { DbClient, Prisma } from "@/lib/db";
import { transaction, withDb } from "@/lib/http/database";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

import { orderPageUrl } from "@/lib/orders/confirmation";
import { ACP_CURRENCY, ACP_VERSION } from "./version";
import type { AddressData, BuyerData, CheckoutCompleteData, CheckoutCreateData, CheckoutUpdateData, FulfillmentDetailsData } from "./shapes";

/**
 * ACP checkout sessions (2026-04-17) over the marketplace's checkout sessions. Several stores in
 * one session, inside ACP's own schema: every line names its store
 * (`marketplace_seller_details`), each store is a fulfillment group with its own shipping option
 * (`<store>__standard`, chosen by default), and completing charges once and places one order per
 * store: `order` is the first, `metadata.orders` lists every one. A session belongs to the
 * platform whose bearer key created it; another key sees a 404.
 */

/** The platform: the SHA-256 of its bearer key (the key itself is never stored). */
export interface AcpCaller {
  platform: string;
}

interface AcpState {
  buyer: BuyerData | null;
  fulfillment_details: FulfillmentDetailsData | null;
  locale: string | null;
  /** Chosen option per store slug. */
  selected: Record<string, string>;
}

const GUEST = { userId: null };
const STANDARD = "standard";

export const TEST_HANDLER_ID = "test_card";

export function paymentHandler() {
  return {
    id: TEST_HANDLER_ID,
    name: "marketplace.test_card",
    display_name: "Card (test mode)",
    version: ACP_VERSION,
    spec: absoluteUrl("/api/acp/handlers/test-card"),
    requires_delegate_payment: false,
    requires_pci_compliance: false,
    psp: "test",
    config_schema: absoluteUrl("/api/acp/handlers/test-card/config.json"),
    instrument_schemas: [absoluteUrl("/api/acp/handlers/test-card/instrument.json")],
    config: { merchant_id: "marketplace", psp: "test", environment: "sandbox" },
  };
}

const optionId = (storeSlug: string) => `${storeSlug}__${STANDARD}`;

/** The request's items as lines: ids are listing ids, each once (repeats add up), 1 to 99 units. */
function linesOf(items: CheckoutCreateData["line_items"]): ExplicitLine[] {
  const lines = new Map<string, ExplicitLine>();
  items.forEach((item, i) => {
    if (!isUuid(item.id)) throw new AppError("parameter_invalid", `No item '${String(item.id).slice(0, 100)}' is for sale here: item ids are listing ids.`, `$.line_items[${i}].id`);
    const quantity = item.quantity ?? 1;
    const id = item.id.toLowerCase();
    const line = lines.get(id) ?? { listing_id: id, quantity: 0 };
    line.quantity += quantity;
    if (quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
      throw new AppError("parameter_invalid", `The quantity must be a whole number from 1 to ${LINE_QUANTITY_MAX}.`, `$.line_items[${i}].quantity`);
    }
    lines.set(id, line);
  });
  if (lines.size > 20) throw new AppError("parameter_invalid", "At most 20 different items can be checked out at once.", "$.line_items");
  return [...lines.values()];
}

/** The lines, once each names something for sale: one that does not is the request's fault (400); the rest is said in messages. */
async function forSale(client: DbClient, lines: ExplicitLine[]): Promise<ExplicitLine[]> {
  const quote = await quoteCheckout(client, { lines });
  const missing = quote.lines.findIndex((l) => l.status === "unavailable");
  if (missing >= 0) throw new AppError("parameter_invalid", `No item '${quote.lines[missing]!.listing_id}' is for sale here.`, `$.line_items[${missing}].id`);
  return lines;
}

function checkCurrency(currency: string): void {
  if (currency.toLowerCase() !== ACP_CURRENCY) throw new AppError("parameter_invalid", `Only ${ACP_CURRENCY} is offered.`, "$.currency");
}

/** An ACP address as checkout's. */
function addressInput(address: AddressData) {
  return { full_name: address.name, line1: address.line_one, line2: address.line_two ?? null, city: address.city, state: address.state, postal_code: address.postal_code, country: address.country.toUpperCase() };
}

async function readState(client: DbClient, sessionId: string, caller: AcpCaller): Promise<AcpState> {
  const row = await client.protocolCheckout.findUnique({ where: { sessionId } });
  if (!row || row.protocol !== "acp" || row.platform !== caller.platform) throw new AppError("checkout_session_not_found", `No checkout session '${sessionId}' of yours.`);
  return row.state as unknown as AcpState;
}

/** The caller's session: 404 for an unknown id or another platform's. */
async function sessionFor(client: DbClient, caller: AcpCaller, id: string) {
  if (!isUuid(id)) throw new AppError("checkout_session_not_found", `No checkout session '${String(id).slice(0, 100)}' of yours.`);
  const state = await readState(client, id.toLowerCase(), caller);
  return { view: await getCheckoutSession(client, id, GUEST), state };
}

export async function createAcpCheckout(caller: AcpCaller, body: CheckoutCreateData) {
  checkCurrency(body.currency);
  const lines = await withDb((client) => forSale(client, linesOf(body.line_items)));
  const state: AcpState = { buyer: body.buyer ?? null, fulfillment_details: body.fulfillment_details ?? null, locale: body.locale ?? null, selected: {} };
  const address = state.fulfillment_details?.address;
  const view = await transaction(async (tx) => {
    const created = await createCheckoutSession(tx, {
      buyer: state.buyer ? { email: state.buyer.email } : state.fulfillment_details?.email ? { email: state.fulfillment_details.email } : { email: null },
      source: { lines },
      placedVia: "agent",
      shippingAddress: address ? addressInput(address) : undefined,
      payment: "card",
      splitByStore: true,
    });
    await tx.protocolCheckout.create({ data: { sessionId: created.id, protocol: "acp", platform: caller.platform, state: state as unknown as Prisma.InputJsonObject } });
    return created;
  });
  return render(view, state);
}

export async function getAcpCheckout(caller: AcpCaller, id: string) {
  const { view, state } = await withDb((client) => sessionFor(client, caller, id));
  return render(view, state);
}

function closed(view: CheckoutSessionView): AppError | null {
  if (view.status === "completed" || view.status === "canceled" || view.status === "expired") {
    return new AppError("checkout_session_closed", `This checkout session is ${view.status}: it cannot change any more.`);
  }
  return null;
}

export async function updateAcpCheckout(caller: AcpCaller, id: string, body: CheckoutUpdateData) {
  const { view: before, state: previous } = await withDb((client) => sessionFor(client, caller, id));
  const refusal = closed(before);
  if (refusal) throw refusal;
  const lines = body.line_items ? await withDb((client) => forSale(client, linesOf(body.line_items!))) : undefined;
  const state: AcpState = {
    ...previous,
    buyer: body.buyer ?? previous.buyer,
    fulfillment_details: body.fulfillment_details === undefined ? previous.fulfillment_details : body.fulfillment_details,
    selected: { ...previous.selected },
  };
  for (const [i, choice] of (body.selected_fulfillment_options ?? []).entries()) {
    const store = /^(.+)__([a-z_]+)$/.exec(choice.option_id);
    if (!store || store[2] !== STANDARD || !before.quote.stores.some((s) => s.store_slug === store[1])) {
      throw new AppError("parameter_invalid", `No fulfillment option '${choice.option_id.slice(0, 100)}' is offered.`, `$.selected_fulfillment_options[${i}].option_id`);
    }
    state.selected[store[1]!] = choice.option_id;
  }
  const address = state.fulfillment_details?.address;
  const email = state.buyer?.email ?? state.fulfillment_details?.email ?? null;
  const view = await transaction(async (tx) => {
    const updated = await updateCheckoutSession(tx, before.id, GUEST, { ...(lines ? { lines } : {}), shippingAddress: address ? addressInput(address) : null, email });
    await tx.protocolCheckout.update({ where: { sessionId: before.id }, data: { state: state as unknown as Prisma.InputJsonObject } });
    return updated;
  });
  return render(view, state);
}

/**
 * Completes the session: one charge, one order per store. A decline or a line that sold out is
 * the session again, 200, with the message saying so and no order (ACP's example
 * `checkout_session_with_payment_declined`): nothing was placed, and the agent can try again.
 */
export async function completeAcpCheckout(caller: AcpCaller, id: string, body: CheckoutCompleteData) {
  const { view, state: previous } = await withDb((client) => sessionFor(client, caller, id));
  const refusal = closed(view);
  if (refusal) throw refusal;
  if (body.payment_data.handler_id !== TEST_HANDLER_ID) {
    throw new AppError("parameter_invalid", `Unknown payment handler '${body.payment_data.handler_id.slice(0, 100)}': this seller offers '${TEST_HANDLER_ID}'.`, "$.payment_data.handler_id");
  }
  const state: AcpState = { ...previous, buyer: body.buyer ?? previous.buyer };
  if (body.buyer) {
    await transaction(async (tx) => {
      await updateCheckoutSession(tx, view.id, GUEST, { email: body.buyer!.email });
      await tx.protocolCheckout.update({ where: { sessionId: view.id }, data: { state: state as unknown as Prisma.InputJsonObject } });
    });
  }
  const ready = await withDb((client) => getCheckoutSession(client, view.id, GUEST));
  if (messagesOf(ready).length) return { status: 200 as const, body: renderView(ready, state) };
  try {
    const { session } = await withDb((client) =>
      completeCheckoutSession(client, view.id, GUEST, { cardNumber: body.payment_data.instrument.credential.token, expectedTotalCents: ready.quote.total_cents }),
    );
    return { status: 200 as const, body: render(session, state) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const code = { payment_declined: "payment_declined", insufficient_stock: "out_of_stock", listing_unavailable: "out_of_stock", total_changed: "invalid" }[err.code as string];
    if (!code) throw err;
    const now = await withDb((client) => getCheckoutSession(client, view.id, GUEST));
    return {
      status: 200 as const,
      body: renderView(now, state, [{ type: "error", code, content_type: "plain", content: err.message, resolution: "recoverable", ...(err.code === "payment_declined" ? { param: "$.payment_data" } : {}) }]),
    };
  }
}

export async function cancelAcpCheckout(caller: AcpCaller, id: string, reasonCode: string | undefined) {
  const { view } = await withDb((client) => sessionFor(client, caller, id));
  if (view.status === "completed" || view.status === "canceled") {
    throw new AppError("acp_session_not_cancelable", `This checkout session is ${view.status} already: it cannot be canceled.`);
  }
  const canceled = await transaction((tx) => cancelCheckoutSession(tx, view.id, GUEST, reasonCode ?? "canceled_by_agent"));
  const state = await withDb((client) => readState(client, view.id, caller));
  return renderView(canceled, state, [{ type: "info", content_type: "plain", content: "This checkout session has been canceled." }]);
}

// Rendering ---------------------------------------------------------------------------------------

type Message =
  | { type: "info"; content_type: "plain"; content: string }
  | { type: "error"; code: string; content_type: "plain"; content: string; resolution: "recoverable" | "requires_buyer_input" | "requires_buyer_review"; param?: string };

export const total = (type: string, display_text: string, amount: number) => ({ type, display_text, amount });

/** What the session still needs, as ACP messages. */
function messagesOf(view: CheckoutSessionView): Message[] {
  if (view.status !== "incomplete" && view.status !== "requires_escalation" && view.status !== "ready_for_complete") return [];
  return view.requirements
    .filter((r) => r.code !== "payment_method_missing")
    .map((r): Message => {
      const line = /^lines\[(\d+)\]$/.exec(r.path);
      const code = r.code === "insufficient_stock" ? "out_of_stock" : r.code === "listing_unavailable" ? "out_of_stock" : r.code === "cart_empty" || r.code === "shipping_address_missing" || r.code === "parameter_missing" ? "missing" : "invalid";
      const param = line ? `$.line_items[${line[1]}]` : r.path === "shipping_address" ? "$.fulfillment_details.address" : r.path === "buyer.email" ? "$.buyer.email" : undefined;
      return {
        type: "error",
        code,
        content_type: "plain",
        content: r.code === "shipping_address_missing" ? "Give the shipping address in fulfillment_details.address." : r.code === "parameter_missing" && r.path === "buyer.email" ? "Give the buyer's e-mail address (buyer.email): the confirmation is sent there." : r.message,
        resolution: r.severity === "unrecoverable" ? "requires_buyer_review" : r.severity,
        ...(param ? { param } : {}),
      };
    });
}

function statusOf(view: CheckoutSessionView, messages: Message[]) {
  switch (view.status) {
    case "completed":
    case "canceled":
    case "expired":
      return view.status;
    default:
      if (messages.some((m) => m.type === "error" && m.resolution !== "recoverable")) return "requires_escalation" as const;
      return messages.some((m) => m.type === "error") ? ("not_ready_for_payment" as const) : ("ready_for_payment" as const);
  }
}

function render(view: CheckoutSessionView, state: AcpState) {
  return renderView(view, state);
}

/**
 * The session in ACP's shape. Its status follows from what it still needs; `said` are messages
 * of this answer alone (a decline, a cancellation), listed first and leaving the status alone.
 */
function renderView(view: CheckoutSessionView, state: AcpState, said: Message[] = []) {
  const needs = messagesOf(view);
  const messages = [...said, ...needs];
  const { quote } = view;
  const lineItems = quote.lines.map((l) => ({
    id: l.listing_id,
    item: { id: l.listing_id },
    quantity: l.quantity,
    name: l.title ?? "Item no longer available",
    ...(l.unit_price_cents !== null ? { unit_amount: l.unit_price_cents } : {}),
    ...(l.store_name ? { marketplace_seller_details: { name: l.store_name } } : {}),
    availability_status: l.purchasable ? (l.status === "backorder" ? "backorder" : "in_stock") : "out_of_stock",
    totals: [total("items_base_amount", "Base amount", l.line_total_cents), total("subtotal", "Subtotal", l.line_total_cents), total("total", "Total", l.line_total_cents)],
  }));
  const options = quote.stores.map((s) => ({
    type: "shipping" as const,
    id: optionId(s.store_slug),
    title: `Standard shipping from ${s.store_name}`,
    description: `${s.store_name} ships its items in one parcel${s.terms?.delivery ? `, arriving in ${businessDays(s.terms.delivery.min_days, s.terms.delivery.max_days)}` : ""}.`,
    totals: [total("total", "Shipping", s.shipping_cents)],
  }));
  const address = state.fulfillment_details?.address;
  const details = state.fulfillment_details ?? undefined;
  const status = statusOf(view, needs);
  const orders = view.orders.map((o) => ({ id: o.id, order_number: o.number, permalink_url: orderPageUrl({ id: o.id, number: o.number, accountHolder: view.buyer.account_holder }), total: o.total_cents }));
  const first = view.orders[0];
  return {
    id: view.id,
    protocol: { version: ACP_VERSION },
    capabilities: { payment: { handlers: [paymentHandler()] } },
    ...(state.buyer ? { buyer: state.buyer } : {}),
    status,
    currency: ACP_CURRENCY,
    ...(state.locale ? { locale: state.locale } : {}),
    line_items: lineItems,
    ...(details ? { fulfillment_details: details } : {}),
    fulfillment_options: options,
    selected_fulfillment_options: quote.stores.map((s) => ({ type: "shipping" as const, option_id: state.selected[s.store_slug] ?? optionId(s.store_slug), item_ids: s.lines.map((l) => l.listing_id) })),
    fulfillment_groups: quote.stores.map((s) => ({
      id: `grp_${s.store_slug}`,
      item_ids: s.lines.map((l) => l.listing_id),
      destination_type: "shipping" as const,
      ...(address ? { fulfillment_details: details } : {}),
    })),
    totals: [
      total("items_base_amount", "Item(s) total", quote.subtotal_cents),
      total("subtotal", "Subtotal", quote.subtotal_cents),
      total("fulfillment", quote.stores.length > 1 ? `Shipping (${quote.stores.length} stores)` : "Shipping", quote.shipping_cents),
      total("total", "Total", quote.total_cents),
    ],
    messages,
    links: [
      { type: "shipping_policy", url: absoluteUrl("/help/shipping-and-delivery"), title: "Shipping and delivery" },
      { type: "return_policy", url: absoluteUrl("/help/returns"), title: "Returns" },
      { type: "faq", url: absoluteUrl("/help/checking-out"), title: "Checking out" },
    ],
    created_at: view.created_at,
    updated_at: view.updated_at,
    expires_at: view.expires_at,
    ...(orders.length ? { metadata: { orders } } : {}),
    ...(first
      ? {
          order: {
            type: "order",
            id: first.id,
            checkout_session_id: view.id,
            order_number: first.number,
            permalink_url: orders[0]!.permalink_url,
            status: "confirmed",
            line_items: first.lines.map((l) => ({ id: l.listing_id, title: l.title, quantity: { ordered: l.quantity, current: l.quantity, fulfilled: 0 }, unit_price: l.unit_price_cents, subtotal: l.line_total_cents, status: "processing" })),
            totals: [total("subtotal", "Subtotal", first.subtotal_cents), total("fulfillment", "Shipping", first.shipping_cents), total("total", "Total", first.total_cents)],
          },
        }
      : {}),
  };
}
