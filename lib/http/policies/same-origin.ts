import { publicBaseUrl } from "@/lib/config";
import type { Policy } from "../pipeline";

/**
 * Refuses a form post sent from another site (403, nothing read or changed). Session and cart
 * cookies are SameSite=Lax as well; this is the second lock.
 */
export const sameOrigin: Policy = async (ctx, next) => {
  if (!isCrossSite(ctx.request)) return next();
  ctx.failure = "cross_site_post";
  return new Response("Cross-site form posts are refused.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
};

/**
 * Sec-Fetch-Site decides when the browser sends it; Origin is the fallback. A page served with
 * `Referrer-Policy: no-referrer` (the cart link page, and every page reached from it by client-side
 * navigation) makes the browser send `Origin: null` with its own same-origin posts, so `null`
 * alone must not refuse a post the browser marks same-origin.
 */
export function isCrossSite(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site === "cross-site") return true;
  if (site === "same-origin") return false;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return origin === "null";
  return origin !== new URL(request.url).origin && origin !== publicBaseUrl();
}
