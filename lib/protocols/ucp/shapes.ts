import { z } from "zod";

/**
 * UCP 2026-01-11 request bodies as this business reads them (spec/schemas/shopping/*_req.json),
 * and the answers it sends (checkout_resp.json, order.json, with the fulfillment extension).
 * Requests may carry fields the business does not use (a line item's `title` or `price`, the
 * platform's own `payment.handlers`, `risk_signals`, `ap2`): they are accepted and ignored, as
 * the schemas' `additionalProperties: true` says. Unknown listing ids, quantities and currencies
 * are the adapter's to refuse, with UCP messages naming each.
 */

const text = (max: number) => z.string().max(max);

export const PostalAddress = z.object({
  id: text(100).optional(),
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  full_name: text(200).optional(),
  street_address: text(200).optional(),
  extended_address: text(200).optional(),
  address_locality: text(100).optional(),
  address_region: text(100).optional(),
  postal_code: text(20).optional(),
  address_country: text(2).optional(),
  phone_number: text(40).optional(),
});
export type PostalAddressData = z.output<typeof PostalAddress>;

export const Buyer = z.object({
  email: text(254).optional(),
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  full_name: text(200).optional(),
  phone_number: text(40).optional(),
});
export type BuyerData = z.output<typeof Buyer>;

const LineItem = z.object({
  id: text(100).optional(),
  item: z.object({ id: text(100) }),
  quantity: z.number().int(),
});

/**
 * A payment instrument as the platform shows it back (never with a credential). `card` is the one
 * instrument type 2026-01-11 defines (card_payment_instrument.json); another is refused rather than
 * shown back in a checkout that its own schema would reject.
 */
const Instrument = z.object({
  id: text(100),
  handler_id: text(100),
  type: z.literal("card"),
  brand: text(40),
  last_digits: text(4),
});

const PaymentSelection = z.object({
  selected_instrument_id: text(100).optional(),
  instruments: z.array(Instrument).max(10).optional(),
});

const FulfillmentMethod = z.object({
  id: text(100).optional(),
  type: z.enum(["shipping", "pickup"]),
  destinations: z.array(PostalAddress).max(10).optional(),
  selected_destination_id: text(100).nullable().optional(),
  groups: z.array(z.object({ id: text(100).optional(), selected_option_id: text(100).nullable().optional() })).max(10).optional(),
});

/** fulfillment_method.create_req requires `type`; update_req does not (a method given without one is the checkout's shipping method). */
const fulfillmentRequest = (method: typeof FulfillmentMethod | ReturnType<typeof FulfillmentMethod.partial<{ type: true }>>) =>
  z.object({ methods: z.array(method).max(2).optional() });
const FulfillmentRequest = fulfillmentRequest(FulfillmentMethod);
export type FulfillmentRequestData = { methods?: Array<Omit<z.output<typeof FulfillmentMethod>, "type"> & { type?: "shipping" | "pickup" }> };

const LINE_ITEMS_MAX = 100;

export const CheckoutCreate = z.object({
  line_items: z.array(LineItem).min(1).max(LINE_ITEMS_MAX),
  currency: text(3),
  buyer: Buyer.optional(),
  payment: PaymentSelection.optional(),
  fulfillment: FulfillmentRequest.optional(),
});
export type CheckoutCreateData = z.output<typeof CheckoutCreate>;

export const CheckoutUpdate = CheckoutCreate.extend({ id: text(100).optional(), fulfillment: fulfillmentRequest(FulfillmentMethod.partial({ type: true })).optional() });
export type CheckoutUpdateData = z.output<typeof CheckoutUpdate>;

/** A credential: a card (its number) or a token (the handler's; ours takes a test card number). */
const Credential = z.object({
  type: text(40),
  token: text(200).optional(),
  number: text(40).optional(),
  card_number_type: text(20).optional(),
  binding: z.object({ checkout_id: text(100) }).optional(),
});

export const CheckoutComplete = z.object({
  payment_data: Instrument.extend({ credential: Credential.optional(), billing_address: PostalAddress.optional() }),
  risk_signals: z.record(z.string(), z.unknown()).optional(),
});
export type CheckoutCompleteData = z.output<typeof CheckoutComplete>;

// Answers -----------------------------------------------------------------------------------------

/** A line item's id: `li_` and its listing id (stable across updates of the checkout). */
export const lineItemId = (listingId: string) => `li_${listingId}`;

export interface UcpTotal {
  type: "subtotal" | "fulfillment" | "total";
  amount: number;
  display_text?: string;
}

export interface UcpMessage {
  type: "error";
  code: string;
  content: string;
  severity: "recoverable" | "requires_buyer_input" | "requires_buyer_review";
  path?: string;
}

export interface UcpCapabilityRef {
  name: string;
  version: string;
}

export interface UcpOrderConfirmation {
  id: string;
  permalink_url: string;
}
