import { z } from "./zod";
import { LISTING_CONDITIONS } from "./seller/listings";
import { Timestamp, Uuid } from "./seller/common";
import { CURRENCY } from "@/lib/currency";

/**
 * Orders and returns on the wire (decisions.md "Orders, checkout and returns"): exactly these
 * fields, for the buyer API, the agent MCP tools and the pages that show them. The storefront,
 * the buyer API and the agent MCP call the same domain functions (lib/orders, lib/returns), which
 * return these shapes.
 */

export const ORDER_STATUSES = ["placed", "shipped", "delivered", "cancelled"] as const;
export const RETURN_STATUSES = ["requested", "approved", "received", "refunded", "rejected"] as const;
export const RETURN_REASONS = ["damaged", "not_as_described", "wrong_item", "no_longer_needed", "other"] as const;
export type OrderStatusValue = (typeof ORDER_STATUSES)[number];
export type ReturnStatusValue = (typeof RETURN_STATUSES)[number];
export type ReturnReasonValue = (typeof RETURN_REASONS)[number];

/** Plain words for each reason, for forms and pages. */
export const RETURN_REASON_LABELS: Record<ReturnReasonValue, string> = {
  damaged: "Arrived damaged",
  not_as_described: "Not as described",
  wrong_item: "Wrong item sent",
  no_longer_needed: "No longer needed",
  other: "Other",
};

/** How long after delivery a return may be requested. */
export const RETURN_WINDOW_DAYS = 30;

export const ShippingAddress = z
  .object({
    full_name: z.string(),
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string(),
    state: z.string(),
    postal_code: z.string(),
    country: z.string().openapi({ description: "ISO 3166-1 alpha-2.", example: "US" }),
  })
  .strict()
  .openapi("ShippingAddress");
export type ShippingAddressData = z.infer<typeof ShippingAddress>;

export const OrderLine = z
  .object({
    id: Uuid,
    listing_id: Uuid,
    product_slug: z.string(),
    title: z.string(),
    store_slug: z.string(),
    condition: z.enum(LISTING_CONDITIONS),
    quantity: z.number().int().min(1).max(99),
    unit_price_cents: z.number().int().min(0),
    line_total_cents: z.number().int().min(0),
  })
  .strict()
  .openapi("OrderLine", { description: "A line as it was at the moment of purchase." });
export type OrderLineData = z.infer<typeof OrderLine>;

export const Order = z
  .object({
    id: Uuid,
    object: z.literal("order"),
    number: z.string().openapi({ example: "M-10042", description: "Short human reference." }),
    status: z.enum(ORDER_STATUSES).openapi({
      description:
        "`placed` -> `shipped` -> `delivered`, or `placed` -> `cancelled`. Each store ships its own lines, or cancels them before they ship (refunding them and its shipping charge); the order is `shipped` once every store has shipped, `delivered` once every store has delivered (cancelled stores aside), `cancelled` once every store has cancelled.",
    }),
    placed_via: z.enum(["storefront", "agent"]),
    lines: z.array(OrderLine),
    subtotal_cents: z.number().int().min(0),
    shipping_cents: z.number().int().min(0).openapi({
      description:
        "The sum of each store's shipping. A store charges once per order: each of its lines has its listing's `standard` shipping rate for the address's country (that country's rate, else the `*` rate, else free), the store charges the highest of them, and waives it when the store's subtotal reaches that rate's `free_over_cents`.",
    }),
    total_cents: z.number().int().min(0).openapi({ description: "`subtotal_cents` + `shipping_cents`: what was charged." }),
    currency: z.string().openapi({ example: CURRENCY }),
    shipping_address: ShippingAddress,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .openapi("Order");
export type OrderData = z.infer<typeof Order>;

export const ReturnLine = z
  .object({
    order_line_id: Uuid,
    quantity: z.number().int().min(1).max(99),
    reason: z.enum(RETURN_REASONS),
  })
  .strict()
  .openapi("ReturnLine");

export const Return = z
  .object({
    id: Uuid,
    object: z.literal("return"),
    order_id: Uuid,
    status: z.enum(RETURN_STATUSES).openapi({
      description: "`requested` -> `approved` -> `received` -> `refunded`, or `rejected` (from `requested` or `approved`).",
    }),
    lines: z.array(ReturnLine),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .openapi("Return");
export type ReturnData = z.infer<typeof Return>;

/** Most lines one return request may hold (an order holds at most this many lines anyway). */
export const RETURN_LINES_MAX = 100;

/**
 * `POST .../orders/:id/returns`: lines of ONE store of the order (a return is handled by the store
 * that shipped the lines; lines of several stores are a 400 naming `lines`), each line at most
 * once, each quantity at most what was bought minus what earlier returns (other than rejected
 * ones) of that line hold.
 */
export const CreateReturn = z
  .object({
    lines: z
      .array(
        z
          .object({
            order_line_id: Uuid.openapi({ description: "The `id` of a line of the order." }),
            quantity: z.number().int().min(1).max(99),
            reason: z.enum(RETURN_REASONS),
          })
          .strict(),
      )
      .min(1)
      .max(RETURN_LINES_MAX),
  })
  .strict()
  .openapi("CreateReturn", { description: "Lines of one store of a delivered order, within 30 days of delivery." });
export type CreateReturnData = z.infer<typeof CreateReturn>;
