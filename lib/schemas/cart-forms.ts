import { CART_LINK_LIMITS } from "./cart";
import { z } from "./zod";
import { UUID } from "@/lib/ids";

/** The fields of the cart's HTML forms (/cart/add, /cart/update) and the notices they answer with. */

const listingId = z.string().regex(UUID).transform((v) => v.toLowerCase());
// Digits only: Number() would read "" and " " as 0 (so an emptied quantity field removed the
// line), "1e1" as 10 and "0x2" as 2.
const quantity = (min: number) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(CART_LINK_LIMITS.quantityMax));

export const AddToCartForm = z.object({ listing_id: listingId, quantity: quantity(1).default(1) });
export const UpdateCartForm = z.object({
  listing_id: listingId,
  quantity: quantity(0).optional(),
  remove: z.string().optional(),
});

export type CartNotice =
  | "added"
  | "updated"
  | "removed"
  | "not_in_cart"
  | "unavailable"
  | "insufficient_stock"
  | "invalid"
  | "full";
