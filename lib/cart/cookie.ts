import { publicBaseUrl } from "@/lib/config";

/**
 * The anonymous cart is bound to this cookie. Its value is a bearer token (lib/cart/token.ts);
 * the database keeps only its hash. HttpOnly and SameSite=Lax: scripts cannot read it and other
 * sites cannot send it with a POST.
 */
export const CART_COOKIE = "cart";

const MAX_AGE_SECONDS = 90 * 24 * 60 * 60;

export function cartCookieOptions() {
  return {
    httpOnly: true,
    sameSite: "lax" as const,
    path: "/",
    maxAge: MAX_AGE_SECONDS,
    secure: publicBaseUrl().startsWith("https:"),
  };
}
