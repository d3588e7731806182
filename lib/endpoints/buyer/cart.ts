import { oauthAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { AddCartLine, Cart, CartLinePath, UpdateCartLine } from "@/lib/schemas/buyer";
import { itemEnvelope } from "@/lib/schemas/seller/common";

// cart:write implies cart:read, and checkout implies cart:write (lib/auth/scopes.ts).
const read = oauthAccess("buyer_api", ["cart:read"]);
const write = oauthAccess("buyer_api", ["cart:write"]);
const tags = ["Cart"];
const cartAfter = { status: 200 as const, description: "The cart after the change.", schema: itemEnvelope(Cart) };

export const getCartEndpoint = defineEndpoint({
  name: "buyer.cart.get",
  method: "GET",
  path: "/cart",
  operationId: "getCart",
  summary: "Retrieve the cart",
  description:
    "The holder's own cart (the one they see on the storefront's /cart), with current prices and availability. " +
    "A line that cannot be bought now shows `purchasable: false` and is left out of `subtotal_cents`; stock counts are never shown.",
  tags,
  access: read,
  success: { status: 200, description: "The cart (empty when the holder has none).", schema: itemEnvelope(Cart) },
  errors: [],
});

export const addCartLineEndpoint = defineEndpoint({
  name: "buyer.cart.add",
  method: "POST",
  path: "/cart/lines",
  operationId: "addCartLine",
  summary: "Add units of an offer to the cart",
  description:
    "Adds `quantity` units of the offer: a new line, or more units on the line of the same listing (a line holds at most 99, " +
    "as on the storefront: a sum above 99 is capped at 99). An offer that cannot supply the line's quantity now is refused and " +
    "nothing changes: 409 `listing_unavailable` (unknown, withdrawn or no longer listed) or `insufficient_stock`. " +
    "A cart holds at most 100 different offers (409 `cart_full`).",
  tags,
  access: write,
  body: AddCartLine,
  idempotent: true,
  success: cartAfter,
  errors: ["cart_full", "insufficient_stock", "listing_unavailable"],
});

export const updateCartLineEndpoint = defineEndpoint({
  name: "buyer.cart.update",
  method: "PATCH",
  path: "/cart/lines/{listing_id}",
  operationId: "updateCartLine",
  summary: "Change a line's quantity",
  description:
    "Sets the line's quantity (1 to 99). As on the storefront, a quantity the offer cannot supply now is set all the same and " +
    "the line shows `purchasable: false` until it is lowered or removed. A listing not in the cart is 404 `cart_line_not_found`.",
  tags,
  access: write,
  params: CartLinePath,
  body: UpdateCartLine,
  idempotent: true,
  success: cartAfter,
  errors: ["cart_line_not_found"],
});

export const removeCartLineEndpoint = defineEndpoint({
  name: "buyer.cart.remove",
  method: "DELETE",
  path: "/cart/lines/{listing_id}",
  operationId: "removeCartLine",
  summary: "Remove a line",
  description: "Takes the line out of the cart. A listing not in the cart is 404 `cart_line_not_found`.",
  tags,
  access: write,
  params: CartLinePath,
  idempotent: true,
  success: cartAfter,
  errors: ["cart_line_not_found"],
});
