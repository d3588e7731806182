import { oauthAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { CheckoutRequest } from "@/lib/schemas/buyer";
import { Order } from "@/lib/schemas/orders";
import { itemEnvelope } from "@/lib/schemas/seller/common";

export const checkoutEndpoint = defineEndpoint({
  name: "buyer.checkout",
  method: "POST",
  path: "/checkout",
  operationId: "checkout",
  summary: "Place an order",
  description:
    "Buys the holder's cart (its bought lines leave the cart), or, with `lines`, those lines at once (\"buy now\": the cart is left alone). " +
    "It ships to the holder's default address and pays with their default payment method (400 `shipping_address_missing` / " +
    "`payment_method_missing` when there is none; only the holder sets them, on /account). The order is `placed_via: \"agent\"`. " +
    "All or nothing, in one transaction: a line that cannot be bought is 409 `insufficient_stock` or `listing_unavailable` " +
    "(`param` names the line, `listing_id` the offer); with `expected_total_cents`, a different total is 409 `total_changed` carrying " +
    "`total_cents`. Agentic checkout's rules are checked in this order, each its own 403: the marketplace allows agents to order " +
    "(`agentic_checkout_disabled`), the holder turned on \"Let agents place orders\" (`agentic_purchasing_off`), the total is within " +
    "the holder's per-order limit (`per_order_limit_exceeded`) and what is left of their monthly limit (`monthly_limit_exceeded`), and " +
    "last the token has `checkout` (`scope_missing`, with the `insufficient_scope` challenge). Send an Idempotency-Key: a retry with " +
    "the same key answers the order already placed and never places a second one.",
  tags: ["Checkout"],
  // Any valid token: the domain checks `checkout` last, after the rules above (decisions.md's order).
  access: oauthAccess("buyer_api", [], ["checkout"]),
  body: CheckoutRequest,
  idempotent: "claim",
  success: { status: 201, description: "The order, placed.", schema: itemEnvelope(Order) },
  errors: [
    "cart_empty",
    "insufficient_stock",
    "listing_unavailable",
    "total_changed",
    "agentic_checkout_disabled",
    "agentic_purchasing_off",
    "per_order_limit_exceeded",
    "monthly_limit_exceeded",
    "payment_declined",
    "shipping_address_missing",
    "payment_method_missing",
  ],
});
