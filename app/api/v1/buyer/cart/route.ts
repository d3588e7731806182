import { oauthPrincipalOf } from "@/lib/auth/principal";
import { getBuyerCart } from "@/lib/buyer";
import { getCartEndpoint } from "@/lib/endpoints/buyer/cart";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(getCartEndpoint, async ({ db, principal }) => ({ data: await getBuyerCart(db, oauthPrincipalOf(principal).userId) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
