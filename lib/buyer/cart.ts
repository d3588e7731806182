import { isPurchasable } from "@/lib/cart/availability";
import { addToCart, CartFullError, CART_MAX_LINES, getCart, setLineQuantity } from "@/lib/cart/cart";
import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { AddCartLineData, CartData, CartLineData, UpdateCartLineData } from "@/lib/schemas/buyer";

/**
 * The holder's own cart (the account cart the storefront's /cart shows when they are signed in),
 * as the buyer API and the agent MCP tools see it. Writes run in the caller's transaction, so that
 * an Idempotency-Key's record is stored with the change it describes.
 */

type Tx = Prisma.TransactionClient;

/**
 * The holder's cart with current prices and availability (an account without a cart: an empty
 * one): the storefront's cart (lib/cart) in the buyer API's shape. `client`: the caller's
 * transaction after a write, so the answer shows the write.
 */
export async function getBuyerCart(client: DbClient, userId: string): Promise<CartData> {
  const cart = await getCart(client, { userId });
  return {
    object: "cart",
    lines: cart.lines.map(
      (line): CartLineData => ({
        listing_id: line.listing_id,
        product_slug: line.product?.slug ?? null,
        title: line.product?.title ?? null,
        store_slug: line.store_slug,
        condition: line.condition,
        quantity: line.quantity,
        unit_price_cents: line.price_cents,
        line_total_cents: line.line_total_cents,
        in_stock: line.status === "in_stock",
        purchasable: isPurchasable(line.status),
      }),
    ),
    subtotal_cents: cart.subtotal_cents,
    currency: cart.currency,
  };
}

/**
 * Adds `quantity` units of an offer (a new line, or more of a line already there; a line holds at
 * most 99, as on the storefront), then answers the cart. An offer that cannot supply the line's
 * quantity is refused and nothing changes: 409 `listing_unavailable` (unknown, withdrawn, unlisted)
 * or `insufficient_stock` (no count is revealed); a cart of 100 offers takes no new one (409 `cart_full`).
 */
export async function addCartLine(tx: Tx, userId: string, line: AddCartLineData): Promise<CartData> {
  let result;
  try {
    result = await addToCart(tx, { userId }, line.listing_id, line.quantity);
  } catch (err) {
    if (err instanceof CartFullError) {
      throw new AppError("cart_full", `A cart holds at most ${CART_MAX_LINES} different offers; remove a line first.`, "listing_id");
    }
    throw err;
  }
  if (result === "unavailable") {
    throw new AppError("listing_unavailable", "This offer cannot be bought now (unknown, withdrawn or no longer listed).", "listing_id", {
      extra: { listing_id: line.listing_id },
    });
  }
  if (result === "insufficient_stock") {
    throw new AppError("insufficient_stock", "This offer cannot supply that many units now; ask for fewer.", "quantity", {
      extra: { listing_id: line.listing_id },
    });
  }
  return getBuyerCart(tx, userId);
}

/**
 * Sets a line's quantity (1-99) and answers the cart. As on the storefront, the quantity is set
 * even when the offer cannot supply it now: the line then shows `purchasable: false` (checkout
 * refuses it) until it is lowered or removed.
 */
export async function updateCartLine(tx: Tx, userId: string, listingId: string, change: UpdateCartLineData): Promise<CartData> {
  if (!isUuid(listingId) || !(await setLineQuantity(tx, { userId }, listingId.toLowerCase(), change.quantity))) throw lineNotFound();
  return getBuyerCart(tx, userId);
}

/** Removes a line and answers the cart. */
export async function removeCartLine(tx: Tx, userId: string, listingId: string): Promise<CartData> {
  if (!isUuid(listingId) || !(await setLineQuantity(tx, { userId }, listingId.toLowerCase(), 0))) throw lineNotFound();
  return getBuyerCart(tx, userId);
}

function lineNotFound(): AppError {
  return new AppError("cart_line_not_found", "Your cart has no line for this listing.");
}
