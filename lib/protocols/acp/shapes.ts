import { z } from "zod";

/**
 * ACP 2026-04-17 request bodies as this seller reads them (vendor/acp/2026-04-17, `$defs`
 * CheckoutSessionCreateRequest, ...UpdateRequest, ...CompleteRequest, CancelSessionRequest).
 * Two leniencies, both documented in docs/agents.md: a line item may carry `quantity` (the pinned
 * `Item` has none; ACP issue 264 / SEP 272 add it), and an unknown `intent_trace.reason_code`
 * counts as `other` (rfc.intent_traces.md 7.2). Anything else the schemas do not allow is refused.
 */

const text = (max: number) => z.string().max(max);

const Item = z.strictObject({
  id: text(100),
  name: text(300).optional(),
  unit_amount: z.number().int().optional(),
  quantity: z.number().int().optional(),
});

export const Address = z.strictObject({
  name: text(100),
  line_one: text(200),
  line_two: text(200).optional(),
  city: text(100),
  state: text(100),
  country: text(2),
  postal_code: text(20),
  company: text(200).optional(),
});
export type AddressData = z.output<typeof Address>;

export const FulfillmentDetails = z.strictObject({
  name: text(100).optional(),
  phone_number: text(40).optional(),
  email: text(254).optional(),
  address: Address.optional(),
});
export type FulfillmentDetailsData = z.output<typeof FulfillmentDetails>;

export const Buyer = z.strictObject({
  email: text(254),
  first_name: text(100).optional(),
  last_name: text(100).optional(),
  full_name: text(200).optional(),
  phone_number: text(40).optional(),
});
export type BuyerData = z.output<typeof Buyer>;

const SelectedOption = z.strictObject({
  type: z.enum(["shipping", "digital", "pickup", "local_delivery"]).optional(),
  option_id: text(200),
  item_ids: z.array(text(100)).max(100),
});

/** What the agent says it can do; read for nothing yet, checked for shape only. */
const Capabilities = z.object({}).passthrough();

export const CheckoutCreate = z.strictObject({
  line_items: z.array(Item).min(1).max(100),
  currency: text(3),
  capabilities: Capabilities,
  buyer: Buyer.optional(),
  fulfillment_details: FulfillmentDetails.optional(),
  locale: text(35).optional(),
  timezone: text(64).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  order_notes: text(5000).optional(),
});
export type CheckoutCreateData = z.output<typeof CheckoutCreate>;

export const CheckoutUpdate = z.strictObject({
  line_items: z.array(Item).min(1).max(100).optional(),
  buyer: Buyer.optional(),
  fulfillment_details: FulfillmentDetails.nullable().optional(),
  selected_fulfillment_options: z.array(SelectedOption).max(100).optional(),
  order_notes: text(5000).optional(),
});
export type CheckoutUpdateData = z.output<typeof CheckoutUpdate>;

export const CheckoutComplete = z.strictObject({
  buyer: Buyer.optional(),
  payment_data: z.strictObject({
    handler_id: text(100),
    instrument: z.object({ type: text(40), credential: z.object({ type: text(40), token: text(200) }) }),
    billing_address: Address.optional(),
  }),
  risk_signals: z.record(z.string(), z.string()).optional(),
  order_notes: text(5000).optional(),
});
export type CheckoutCompleteData = z.output<typeof CheckoutComplete>;

export const REASON_CODES = [
  "price_sensitivity",
  "shipping_cost",
  "shipping_speed",
  "product_fit",
  "trust_security",
  "returns_policy",
  "payment_options",
  "comparison",
  "timing_deferred",
  "other",
] as const;

export const CancelRequest = z
  .strictObject({
    intent_trace: z
      .strictObject({
        reason_code: text(60),
        trace_summary: text(500).optional(),
        metadata: z.record(z.string(), z.union([z.string().max(500), z.number(), z.boolean()])).optional(),
      })
      .optional(),
  })
  .optional();
