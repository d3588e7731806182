import { RequestMeta } from "./catalog";
import { z } from "./zod";
import { UUID } from "@/lib/ids";

/** Cart-link limits (spec section 8). */
export const CART_LINK_LIMITS = {
  linesMin: 1,
  linesMax: 20,
  quantityMin: 1,
  quantityMax: 99,
  lifetimeDays: 7,
} as const;

export const REJECT_REASONS = ["unavailable", "insufficient_stock"] as const;
export type RejectReason = (typeof REJECT_REASONS)[number];

export const CartLinkItem = z
  .object({
    listing_id: z
      .string({ error: "must be a string" })
      .regex(UUID, { error: "must be a UUID" })
      .transform((v) => v.toLowerCase())
      .openapi({ description: "`listing_id` of an offer from GET /products/{slug}.", example: "7d0f6c1e-3c2a-4b8e-9f51-2a9c8d1e4b07" }),
    quantity: z
      .number({ error: "must be an integer" })
      .int({ error: "must be an integer" })
      .min(CART_LINK_LIMITS.quantityMin, { error: `must be at least ${CART_LINK_LIMITS.quantityMin}` })
      .max(CART_LINK_LIMITS.quantityMax, { error: `must be at most ${CART_LINK_LIMITS.quantityMax}` })
      .openapi({ example: 1 }),
  })
  .strict()
  .openapi("CartLinkItem");

export const CartLinkRequest = z
  .object({
    items: z
      .array(CartLinkItem, { error: "must be an array" })
      .min(CART_LINK_LIMITS.linesMin, { error: `must have at least ${CART_LINK_LIMITS.linesMin} line` })
      .max(CART_LINK_LIMITS.linesMax, { error: `must have at most ${CART_LINK_LIMITS.linesMax} lines` })
      .openapi({
        description:
          "1 to 20 lines. A repeated listing_id has its quantities summed; the sum may not exceed 99.",
      }),
  })
  .strict()
  .openapi("CartLinkRequest");
export type CartLinkRequestData = z.output<typeof CartLinkRequest>;

export const RejectedLine = z
  .object({
    listing_id: z.string().openapi({ description: "The listing id, lower-cased." }),
    reason: z.enum(REJECT_REASONS).openapi({
      description:
        "`insufficient_stock`: the offer cannot supply the (summed) quantity; `unavailable`: anything else (unknown id, offer withdrawn, out of stock, product not listed). Deliberately generic. Comparing a quantity above 1 with an offer's stock spends a small budget per offer shared by all clients (a few a day); once it is spent, such lines are accepted unchecked, and the link checks them again when it is opened.",
    }),
  })
  .strict()
  .openapi("RejectedLine");
export type RejectedLineData = z.output<typeof RejectedLine>;

export const CartLinkResult = z
  .object({
    url: z.string().openapi({ description: "Absolute link for a human to open: it fills that person's own cart. It places no order and reserves no stock." }),
    expires_at: z.string().openapi({ description: "RFC 3339 UTC with milliseconds; 7 days after creation.", example: "2026-11-29T12:00:00.000Z" }),
    accepted: z.number().int().openapi({ description: "Number of accepted lines (distinct listings)." }),
    rejected: z.array(RejectedLine),
  })
  .strict()
  .openapi("CartLinkResult");
export type CartLinkResultData = z.output<typeof CartLinkResult>;

/** Success body of POST /cart-links and structured result of the `create_cart_link` tool. */
export const CartLinkResponse = z.object({ data: CartLinkResult, meta: RequestMeta }).strict();
