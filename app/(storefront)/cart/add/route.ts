import { addToCart, CartFullError } from "@/lib/cart/cart";
import { CART_COOKIE, cartCookieOptions } from "@/lib/cart/cookie";
import { newToken } from "@/lib/cart/token";
import { transaction } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { AddToCartForm } from "@/lib/schemas/cart-forms";
import { cartOwnerOf } from "../../_lib/cart-owner";
import { redirectToCart } from "../notice";

/** Adds an offer to the cart (the account's while signed in, else the cookie's, made on first use). */
export const POST = formRoute({ name: "cart.add", session: "optional" }, async ({ request, form, user }) => {
  const parsed = AddToCartForm.safeParse(form);
  if (!parsed.success) return redirectToCart("invalid");
  const owner = cartOwnerOf(user, request.cookies.get(CART_COOKIE)?.value);
  const newCartToken = owner ? undefined : newToken();
  try {
    const result = await transaction((tx) => addToCart(tx, owner ?? { token: newCartToken! }, parsed.data.listing_id, parsed.data.quantity));
    const response = redirectToCart(result);
    if (newCartToken) response.cookies.set(CART_COOKIE, newCartToken, cartCookieOptions());
    return response;
  } catch (err) {
    if (err instanceof CartFullError) return redirectToCart("full");
    throw err;
  }
});
