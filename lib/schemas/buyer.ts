import { CART_LINK_LIMITS } from "./cart";
import { LISTING_CONDITIONS } from "./seller/listings";
import { Cursor, Limit, Uuid } from "./seller/common";
import { z } from "./zod";
import { CURRENCY } from "@/lib/currency";

/** Lines an explicit ("buy now") checkout may hold (lib/checkout/lines.ts checks it). */
export const EXPLICIT_LINES_MAX = 20;

/**
 * The buyer API's own objects and inputs (decisions.md "Orders, checkout and returns", "OAuth,
 * agent MCP and buyer API"): the account holder, their cart, and what changes it or checks it
 * out. Orders and returns are lib/schemas/orders.ts. The same schemas validate the API's requests,
 * describe them in its openapi.json and are the agent MCP tools' inputs.
 */

const QUANTITY_MIN = CART_LINK_LIMITS.quantityMin;
const QUANTITY_MAX = CART_LINK_LIMITS.quantityMax;

export const BuyerUser = z
  .object({
    id: Uuid,
    object: z.literal("user"),
    email: z.string().openapi({ description: "The account's e-mail address (lower-cased)." }),
    name: z.string().nullable().openapi({ description: "The name the holder gave, or null." }),
  })
  .strict()
  .openapi("User", { description: "The account holder the token acts for." });
export type BuyerUserData = z.output<typeof BuyerUser>;

export const CartLine = z
  .object({
    listing_id: Uuid,
    product_slug: z.string().nullable().openapi({ description: "The product's slug (its page is /p/{slug}); null once the product is no longer publicly listed." }),
    title: z.string().nullable().openapi({ description: "The product's title; null once the product is no longer publicly listed." }),
    store_slug: z.string().openapi({ description: "The store selling this offer." }),
    condition: z.enum(LISTING_CONDITIONS),
    quantity: z.number().int().min(QUANTITY_MIN).max(QUANTITY_MAX),
    unit_price_cents: z.number().int().min(0).openapi({ description: "The offer's price now." }),
    line_total_cents: z.number().int().min(0).openapi({ description: "`unit_price_cents` × `quantity`." }),
    in_stock: z.boolean().openapi({ description: "The offer can supply the whole quantity from stock now (false: backorder, short of stock, or unavailable)." }),
    purchasable: z.boolean().openapi({
      description: "The line can be bought now (in stock, or the offer allows backorder). A line that is not is left out of `subtotal_cents` and refused at checkout.",
    }),
  })
  .strict()
  .openapi("CartLine");
export type CartLineData = z.output<typeof CartLine>;

export const Cart = z
  .object({
    object: z.literal("cart"),
    lines: z.array(CartLine).openapi({ description: "Oldest first, with current prices and availability; stock counts are never shown." }),
    subtotal_cents: z.number().int().min(0).openapi({ description: "Sum of `line_total_cents` over purchasable lines (shipping is added at checkout)." }),
    currency: z.string().openapi({ example: CURRENCY }),
  })
  .strict()
  .openapi("Cart", { description: "The holder's own cart, the same one they see on the storefront's /cart." });
export type CartData = z.output<typeof Cart>;

const ListingId = Uuid.openapi({ description: "`listing_id` of an offer (GET /api/public/v1/products/{slug}).", example: "7d0f6c1e-3c2a-4b8e-9f51-2a9c8d1e4b07" });
const Quantity = z
  .number({ error: "must be an integer" })
  .int({ error: "must be an integer" })
  .min(QUANTITY_MIN, { error: `must be at least ${QUANTITY_MIN}` })
  .max(QUANTITY_MAX, { error: `must be at most ${QUANTITY_MAX}` });

export const AddCartLine = z
  .object({
    listing_id: ListingId,
    quantity: Quantity.openapi({ description: `Units to add, ${QUANTITY_MIN} to ${QUANTITY_MAX}. Added to a line of the same listing; a line holds at most ${QUANTITY_MAX}.`, example: 1 }),
  })
  .strict()
  .openapi("AddCartLine");
export type AddCartLineData = z.output<typeof AddCartLine>;

export const UpdateCartLine = z
  .object({ quantity: Quantity.openapi({ description: `The line's new quantity, ${QUANTITY_MIN} to ${QUANTITY_MAX} (DELETE the line to remove it).`, example: 2 }) })
  .strict()
  .openapi("UpdateCartLine");
export type UpdateCartLineData = z.output<typeof UpdateCartLine>;

/** Path parameter `{listing_id}` of a cart line (anything not in the holder's cart is a 404). */
export const CartLinePath = z.object({ listing_id: z.string().openapi({ description: "The line's `listing_id`." }) });

export const CheckoutLine = z
  .object({ listing_id: ListingId, quantity: Quantity.openapi({ example: 1 }) })
  .strict()
  .openapi("CheckoutLine");

export const CheckoutRequest = z
  .object({
    lines: z
      .array(CheckoutLine, { error: "must be an array" })
      .min(1, { error: "must have at least 1 line" })
      .max(EXPLICIT_LINES_MAX, { error: `must have at most ${EXPLICIT_LINES_MAX} lines` })
      .optional()
      .openapi({
        description: `"Buy now": 1 to ${EXPLICIT_LINES_MAX} lines (each listing once) bought at once; the cart is left alone. Omit to buy the holder's cart (its bought lines leave the cart).`,
      }),
    expected_total_cents: z
      .number({ error: "must be an integer" })
      .int({ error: "must be an integer" })
      .min(0, { error: "must be at least 0" })
      .max(Number.MAX_SAFE_INTEGER, { error: "is too large" })
      .optional()
      .openapi({
        description:
          "The total (with shipping) the agent showed its human. When the total now differs, nothing is placed: 409 `total_changed` carrying `total_cents`.",
      }),
  })
  .strict()
  .openapi("CheckoutRequest");
export type CheckoutRequestData = z.output<typeof CheckoutRequest>;

const cents = () => z.number().int().min(0);

export const CheckoutSummaryStore = z
  .object({
    store_slug: z.string(),
    store_name: z.string(),
    line_count: z.number().int().min(1).openapi({ description: "Purchasable cart lines of this store." }),
    subtotal_cents: cents(),
    shipping_cents: cents().openapi({ description: "This store's shipping to the holder's default address (as the order would charge it)." }),
  })
  .strict();

export const CheckoutSummary = z
  .object({
    object: z.literal("checkout_summary"),
    stores: z.array(CheckoutSummaryStore).openapi({ description: "Stores of the cart's purchasable lines, in the order of their first line." }),
    subtotal_cents: cents(),
    shipping_cents: cents(),
    total_cents: cents().openapi({ description: "What checking out the cart would charge now." }),
    currency: z.string().openapi({ example: CURRENCY }),
    country: z.string().openapi({ description: "The country shipping was quoted for: the default address's, else US." }),
    agent_orders: z
      .object({
        enabled: z.boolean().openapi({ description: "The holder lets agents place orders (with both limits set)." }),
        per_order_limit_cents: cents().nullable(),
        monthly_limit_cents: cents().nullable(),
        spent_this_month_cents: cents().openapi({ description: "Agent orders this calendar month (UTC), cancelled ones aside." }),
        left_this_month_cents: cents().nullable().openapi({ description: "monthly_limit_cents less what was spent, never below 0; null without a limit." }),
      })
      .strict(),
  })
  .strict()
  .openapi("CheckoutSummary", { description: "The cart as checking it out would charge it now, per store, and what is left of the holder's limits for agents." });
export type CheckoutSummaryData = z.output<typeof CheckoutSummary>;

/** `limit` and `cursor` of the buyer's lists (the seller API's conventions). */
export const BuyerListQuery = z.object({ limit: Limit, cursor: Cursor });
export type BuyerListQueryData = z.output<typeof BuyerListQuery>;

/** Path parameter `{id}` of an order: its id or its number (`M-10042`). */
export const OrderPath = z.object({ id: z.string().openapi({ description: "The order's id (UUID) or number (`M-10042`)." }) });
