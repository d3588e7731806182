import { absoluteUrl } from "@/lib/config";
import type { CheckoutSessionView } from "@/lib/checkout";
import { messageOf } from "./errors";
import { fulfillmentMessages, fulfillmentOf, quoteCountry, type FulfillmentState } from "./fulfillment";
import { orderPageUrl } from "@/lib/orders/confirmation";
import { paymentHandlers } from "./profile";
import { lineItemId, type BuyerData, type UcpMessage, type UcpTotal } from "./shapes";
import { UCP_CAPABILITIES, UCP_VERSION } from "./version";

/**
 * A checkout session as UCP's checkout object (checkout_resp.json with the fulfillment
 * extension, 2026-01-11). Line items are the session's lines, each named `li_<listing id>` and
 * its item the offer (`item.id` is the listing id); `messages` lists every requirement left at
 * once; `status` follows from them. A completed checkout names its first order in `order` and
 * every order, one per store, in `orders` (our extension, the shape of the open UCP proposal for
 * multi-order checkouts).
 */

/** What the adapter keeps beside the session. */
export interface UcpState {
  currency: string;
  buyer: BuyerData | null;
  fulfillment: FulfillmentState;
  payment: { selected_instrument_id?: string; instruments?: Array<{ id: string; handler_id: string; type: string; brand: string; last_digits: string }> } | null;
}

const LINKS = [
  { type: "shipping_policy", path: "/help/shipping-and-delivery", title: "Shipping and delivery" },
  { type: "refund_policy", path: "/help/returns", title: "Returns" },
  { type: "faq", path: "/help/checking-out", title: "Checking out" },
];

/** Messages of an open session: the domain's requirements, its address ones told as fulfillment's. */
export function checkoutMessages(view: CheckoutSessionView, state: UcpState, addressProblems: UcpMessage[]): UcpMessage[] {
  const domain = view.requirements.filter((r) => r.code !== "shipping_address_missing" && r.code !== "payment_method_missing").map(messageOf);
  const fulfillment = fulfillmentMessages(state.fulfillment, view.quote);
  return [...domain, ...(fulfillment.length ? fulfillment : addressProblems)];
}

function statusOf(view: CheckoutSessionView, messages: UcpMessage[]) {
  if (view.status === "completed") return "completed" as const;
  if (view.status === "canceled" || view.status === "expired") return "canceled" as const;
  if (messages.some((m) => m.severity !== "recoverable")) return "requires_escalation" as const;
  return messages.length ? ("incomplete" as const) : ("ready_for_complete" as const);
}

export function renderCheckout(view: CheckoutSessionView, state: UcpState, addressProblems: UcpMessage[]) {
  const open = view.status !== "completed" && view.status !== "canceled" && view.status !== "expired";
  const messages = open ? checkoutMessages(view, state, addressProblems) : [];
  const status = statusOf(view, messages);
  const shipping = quoteCountry(state.fulfillment) !== null || !open;
  const lines = view.quote.lines;
  const totals: UcpTotal[] = [
    { type: "subtotal", amount: view.quote.subtotal_cents },
    ...(shipping ? [{ type: "fulfillment" as const, amount: view.quote.shipping_cents }] : []),
    { type: "total", amount: view.quote.subtotal_cents + (shipping ? view.quote.shipping_cents : 0) },
  ];
  const buyer = { ...state.buyer, ...(view.buyer.email ? { email: view.buyer.email } : {}) };
  const orders = view.orders.map((o) => ({ id: o.id, permalink_url: orderPageUrl({ id: o.id, number: o.number, accountHolder: view.buyer.account_holder }) }));
  return {
    ucp: {
      version: UCP_VERSION,
      capabilities: [
        { name: UCP_CAPABILITIES.checkout, version: UCP_VERSION },
        { name: UCP_CAPABILITIES.fulfillment, version: UCP_VERSION },
      ],
    },
    id: view.id,
    status,
    currency: state.currency,
    ...(Object.keys(buyer).length ? { buyer } : {}),
    line_items: lines.map((l) => ({
      id: lineItemId(l.listing_id),
      item: { id: l.listing_id, title: l.title ?? "Item no longer available", price: l.unit_price_cents ?? 0 },
      quantity: l.quantity,
      totals: [
        { type: "subtotal", amount: l.line_total_cents },
        { type: "total", amount: l.line_total_cents },
      ],
    })),
    fulfillment: fulfillmentOf(state.fulfillment, view.quote, lines.filter((l) => l.purchasable || !open).map((l) => lineItemId(l.listing_id))),
    totals,
    ...(messages.length ? { messages } : {}),
    links: LINKS.map((l) => ({ type: l.type, url: absoluteUrl(l.path), title: l.title })),
    ...(open ? { expires_at: view.expires_at } : {}),
    ...(status === "requires_escalation" ? { continue_url: absoluteUrl("/account/agents") } : {}),
    payment: {
      handlers: paymentHandlers(),
      ...(state.payment?.selected_instrument_id ? { selected_instrument_id: state.payment.selected_instrument_id } : {}),
      ...(state.payment?.instruments?.length ? { instruments: state.payment.instruments } : {}),
    },
    ...(orders.length ? { order: orders[0], orders } : {}),
  };
}

export type UcpCheckout = ReturnType<typeof renderCheckout>;

