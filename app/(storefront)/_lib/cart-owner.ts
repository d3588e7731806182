import type { SessionUser } from "@/lib/http/session";
import type { CartOwner } from "@/lib/cart/cart";
import { isToken } from "@/lib/cart/token";

/**
 * Whose cart a request works on: the signed-in person's account cart, else the anonymous cart of
 * the cart cookie (when it holds a well-formed token).
 */
export function cartOwnerOf(user: SessionUser | null, cartCookie: string | undefined): CartOwner | undefined {
  if (user) return { userId: user.id };
  return cartCookie && isToken(cartCookie) ? { token: cartCookie } : undefined;
}
