import { ORDER_STATUSES, OrderLine, RETURN_REASONS, RETURN_STATUSES, ShippingAddress } from "../orders";
import { z } from "../zod";
import { Cursor, Limit, Timestamp, Uuid } from "./common";
import { UpdatedSince } from "./listings";
import { CURRENCY } from "@/lib/currency";

/**
 * The seller orders API's objects (issue 34; not in decisions.md, so chosen here and described in
 * the OpenAPI document and docs/seller-api.md). A marketplace order may hold several stores'
 * lines; a store sees its own part of it, an `order_part`: its lines, its shipping charge and its
 * fulfilment, with the buyer's e-mail and shipping address, and nothing of other stores' parts or
 * of the payment.
 */

export const CARRIER_MAX = 64;
export const TRACKING_NUMBER_MAX = 64;

/** Why a store cancels its part of an order (`cancel_reason`). */
export const CANCEL_REASONS = ["out_of_stock", "cannot_ship", "buyer_request", "other"] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];
export const CANCEL_REASON_TEXT: Record<CancelReason, string> = {
  out_of_stock: "the items are out of stock",
  cannot_ship: "the store cannot ship them to your address",
  buyer_request: "you asked the store to cancel them",
  other: "the store could not fulfil them",
};

export const OrderPart = z
  .object({
    id: Uuid.openapi({ description: "The order's id (with your store, it names this part)." }),
    object: z.literal("order_part"),
    number: z.string().openapi({ example: "M-10042", description: "The order's short human reference, as the buyer sees it." }),
    status: z.enum(ORDER_STATUSES).openapi({
      description:
        "Your part's status: `placed` -> `shipped` (you ship it) -> `delivered` (you mark it delivered), or `placed` -> `cancelled` (you cancel it: the buyer is refunded your lines and shipping charge). Other stores' parts of the order move on their own.",
    }),
    placed_via: z.enum(["storefront", "agent"]).openapi({ description: "`agent` when an agent placed it for its holder (the buyer API, MCP, UCP or ACP)." }),
    email: z.string().openapi({ description: "The buyer's e-mail address, for questions about this order only." }),
    shipping_address: ShippingAddress,
    lines: z.array(OrderLine).openapi({ description: "Your lines of the order, in checkout order." }),
    subtotal_cents: z.number().int().min(0).openapi({ description: "The sum of your lines' `line_total_cents`." }),
    shipping_cents: z.number().int().min(0).openapi({ description: "Your store's shipping charge on this order." }),
    total_cents: z.number().int().min(0).openapi({ description: "`subtotal_cents` + `shipping_cents`: what the buyer paid for your part." }),
    currency: z.literal(CURRENCY),
    carrier: z.string().nullable().openapi({ description: "The carrier you named when you shipped; null until then, or if you named none." }),
    tracking_number: z.string().nullable().openapi({ description: "The tracking number you gave when you shipped; null until then." }),
    shipped_at: Timestamp.nullable(),
    delivered_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable().openapi({ description: "When you cancelled your part; null unless `cancelled`." }),
    cancel_reason: z.enum(CANCEL_REASONS).nullable().openapi({ description: "Why you cancelled it; null unless `cancelled`." }),
    refund_cents: z.number().int().min(0).nullable().openapi({ description: "What the cancellation paid back to the buyer (`total_cents`); null unless `cancelled`." }),
    created_at: Timestamp.openapi({ description: "When the order was placed." }),
    updated_at: Timestamp.openapi({ description: "Your part's last change." }),
  })
  .strict()
  .openapi("OrderPart", { description: "Your store's part of a marketplace order." });
export type OrderPartData = z.output<typeof OrderPart>;

export const ListOrdersQuery = z.object({
  limit: Limit,
  cursor: Cursor,
  updated_since: UpdatedSince.openapi({
    description:
      "The sync feed: every part of an order of yours that changed at or after this instant (ISO-8601 or Unix seconds), in commit order: new orders and fulfilment moves.",
  }),
});
export type ListOrdersQueryData = z.output<typeof ListOrdersQuery>;

/** Path parameter `{number}`: the order's number (`M-10042`, any case) or id. */
export const OrderNumberPath = z.object({
  number: z.string().openapi({ description: "The order's number (`M-10042`, any case) or its id.", example: "M-10042" }),
});

export const ShipOrder = z
  .object({
    tracking_number: z.string({ error: "must be a string" }).openapi({
      description: `The carrier's tracking number: 1 to ${TRACKING_NUMBER_MAX} printable ASCII characters (trimmed).`,
      example: "1Z999AA10123456784",
    }),
    carrier: z
      .string({ error: "must be a string" })
      .optional()
      .openapi({ description: `The carrier's name: 1 to ${CARRIER_MAX} printable ASCII characters (trimmed).`, example: "UPS" }),
  })
  .strict()
  .openapi("ShipOrder");
export type ShipOrderData = z.output<typeof ShipOrder>;

export const CancelOrder = z
  .object({
    reason: z.enum(CANCEL_REASONS, { error: `must be one of ${CANCEL_REASONS.join(", ")}` }).openapi({
      description:
        "Why you cancel: `out_of_stock`, `cannot_ship` (not to this address), `buyer_request` (the buyer asked you) or `other`. The buyer's e-mail says it in words.",
      example: "out_of_stock",
    }),
  })
  .strict()
  .openapi("CancelOrder");
export type CancelOrderData = z.output<typeof CancelOrder>;

/**
 * A return of your lines as your store handles it: the buyer's return (decisions.md) with the
 * order's number, each line's title and unit price, what a refund pays back, and, once refunded,
 * what it paid.
 */
export const StoreReturn = z
  .object({
    id: Uuid,
    object: z.literal("return"),
    order_id: Uuid,
    order_number: z.string().openapi({ example: "M-10042" }),
    status: z.enum(RETURN_STATUSES).openapi({
      description:
        "`requested` -> `approved` -> `received` -> `refunded`, or `rejected` (from `requested` or `approved`). You approve, mark received, refund or reject; the buyer asks.",
    }),
    lines: z.array(
      z
        .object({
          order_line_id: Uuid,
          title: z.string(),
          quantity: z.number().int().min(1).max(99),
          reason: z.enum(RETURN_REASONS),
          unit_price_cents: z.number().int().min(0),
        })
        .strict(),
    ),
    value_cents: z.number().int().min(0).openapi({ description: "The returned units at the order's unit prices: what a refund pays back (shipping is not refunded)." }),
    refund_cents: z.number().int().min(0).nullable().openapi({ description: "What the refund paid back; null until refunded." }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .openapi("StoreReturn", { description: "A return of your lines." });
export type StoreReturnData = z.output<typeof StoreReturn>;

export const ListReturnsQuery = z.object({ limit: Limit, cursor: Cursor });
export type ListReturnsQueryData = z.output<typeof ListReturnsQuery>;
