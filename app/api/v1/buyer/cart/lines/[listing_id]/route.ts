import { oauthPrincipalOf } from "@/lib/auth/principal";
import { removeCartLine, updateCartLine } from "@/lib/buyer";
import { removeCartLineEndpoint, updateCartLineEndpoint } from "@/lib/endpoints/buyer/cart";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const PATCH = route(updateCartLineEndpoint, async ({ db, principal, params, body }) => ({
  data: await updateCartLine(db, oauthPrincipalOf(principal).userId, params.listing_id!, body),
}));
export const DELETE = route(removeCartLineEndpoint, async ({ db, principal, params }) => ({
  data: await removeCartLine(db, oauthPrincipalOf(principal).userId, params.listing_id!),
}));
export const { OPTIONS, GET, POST, PUT } = otherMethods(["PATCH", "DELETE"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
