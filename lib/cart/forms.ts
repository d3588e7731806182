import { type NextRequest, NextResponse } from "next/server";
import { publicBaseUrl } from "@/lib/config";
import { z } from "@/lib/schemas/zod";
import { addToCart, CartFullError, LINE_QUANTITY_MAX, setLineQuantity } from "./cart";
import { CART_COOKIE, cartCookieOptions } from "./cookie";
import { isToken, newToken } from "./token";

/**
 * The cart's HTML form posts (`/cart/add`, `/cart/update`). They work without JavaScript: each
 * answers 303 to the cart page, with a `notice` naming what happened. A post from another site
 * is refused (the cookie is SameSite=Lax as well).
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const listingId = z.string().regex(UUID).transform((v) => v.toLowerCase());
// Digits only: Number() would read "" and " " as 0 (so an emptied quantity field removed the
// line), "1e1" as 10 and "0x2" as 2.
const quantity = (min: number) =>
  z
    .string()
    .trim()
    .regex(/^[0-9]{1,3}$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(LINE_QUANTITY_MAX));

const AddForm = z.object({ listing_id: listingId, quantity: quantity(1).default(1) });
const UpdateForm = z.object({
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

function redirectToCart(notice: CartNotice, newCartToken?: string): Response {
  const response = new NextResponse(null, {
    status: 303,
    headers: { Location: `/cart?notice=${notice}`, "Cache-Control": "no-store" },
  });
  if (newCartToken) response.cookies.set(CART_COOKIE, newCartToken, cartCookieOptions());
  return response;
}

/**
 * Sec-Fetch-Site decides when the browser sends it; Origin is the fallback. A page served with
 * `Referrer-Policy: no-referrer` (the cart link page, and every page reached from it by client-side
 * navigation) makes the browser send `Origin: null` with its own same-origin posts, so `null`
 * alone must not refuse a post the browser marks same-origin.
 */
function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site") return true;
  if (site === "same-origin") return false;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return origin === "null";
  return origin !== new URL(request.url).origin && origin !== publicBaseUrl();
}

async function formOf(request: Request): Promise<Record<string, string>> {
  try {
    const data = await request.formData();
    return Object.fromEntries([...data].filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

export async function handleAddForm(request: NextRequest): Promise<Response> {
  if (isCrossSite(request)) return new Response("Cross-site form posts are refused.", { status: 403 });
  const parsed = AddForm.safeParse(await formOf(request));
  if (!parsed.success) return redirectToCart("invalid");
  const cookie = request.cookies.get(CART_COOKIE)?.value;
  const existing = cookie && isToken(cookie) ? cookie : undefined;
  const token = existing ?? newToken();
  try {
    const result = await addToCart(token, parsed.data.listing_id, parsed.data.quantity);
    return redirectToCart(result, existing ? undefined : token);
  } catch (err) {
    if (err instanceof CartFullError) return redirectToCart("full");
    throw err;
  }
}

export async function handleUpdateForm(request: NextRequest): Promise<Response> {
  if (isCrossSite(request)) return new Response("Cross-site form posts are refused.", { status: 403 });
  const parsed = UpdateForm.safeParse(await formOf(request));
  if (!parsed.success || (parsed.data.quantity === undefined && parsed.data.remove === undefined)) {
    return redirectToCart("invalid");
  }
  const token = request.cookies.get(CART_COOKIE)?.value;
  const next = parsed.data.remove !== undefined ? 0 : parsed.data.quantity!;
  const changed = token ? await setLineQuantity(token, parsed.data.listing_id, next) : false;
  if (!changed) return redirectToCart("not_in_cart");
  return redirectToCart(next === 0 ? "removed" : "updated");
}
