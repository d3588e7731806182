import { setLineQuantity } from "@/lib/cart/cart";
import { CART_COOKIE } from "@/lib/cart/cookie";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { UpdateCartForm } from "@/lib/schemas/cart-forms";
import { cartOwnerOf } from "../../_lib/cart-owner";
import { redirectToCart } from "../notice";

/** Sets a line's quantity, or removes it (`remove`, or quantity 0). */
export const POST = formRoute({ name: "cart.update", session: "optional" }, async ({ request, form, user }) => {
  const parsed = UpdateCartForm.safeParse(form);
  if (!parsed.success || (parsed.data.quantity === undefined && parsed.data.remove === undefined)) {
    return redirectToCart("invalid");
  }
  const owner = cartOwnerOf(user, request.cookies.get(CART_COOKIE)?.value);
  const next = parsed.data.remove !== undefined ? 0 : parsed.data.quantity!;
  const changed = owner ? await transaction((tx) => setLineQuantity(tx, owner, parsed.data.listing_id, next)) : false;
  if (!changed) return redirectToCart("not_in_cart");
  return redirectToCart(next === 0 ? "removed" : "updated");
});
