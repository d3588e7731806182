import { createHmac, timingSafeEqual } from "node:crypto";
import { absoluteUrl, config } from "@/lib/config";

/**
 * The confirmation page of an order: `/checkout/confirmation/<number>`. An account holder sees
 * their own order there while signed in. A guest has no account, so their link carries a key:
 * an HMAC of the order's id under the app's secret (unguessable, and nobody can make one for
 * another order); the confirmation e-mail holds the same link. Any other visitor gets a 404.
 */

function keyOf(orderId: string): string {
  return createHmac("sha256", `order-confirmation:${config().authSecret}`).update(orderId).digest("base64url");
}

/** Whether `key` is the confirmation key of the order `orderId`. */
export function isConfirmationKey(orderId: string, key: unknown): boolean {
  if (typeof key !== "string" || key.length !== 43) return false;
  const given = Buffer.from(key, "base64url");
  const expected = Buffer.from(keyOf(orderId), "base64url");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where the buyer sees the confirmation: a signed link for a guest's order. */
export function confirmationPath(order: { id: string; number: string; userId: string | null }): string {
  const path = `/checkout/confirmation/${encodeURIComponent(order.number)}`;
  return order.userId ? path : `${path}?key=${keyOf(order.id)}`;
}

/**
 * The order's page for its buyer, as an absolute URL: the account's order page, or a guest's
 * signed confirmation link (the confirmation e-mail's link, the protocols' `permalink_url`).
 */
export function orderPageUrl(order: { id: string; number: string; accountHolder: boolean }): string {
  return absoluteUrl(order.accountHolder ? `/account/orders/${encodeURIComponent(order.number)}` : confirmationPath({ id: order.id, number: order.number, userId: null }));
}
