import { storeIdOf } from "@/lib/auth/principal";
import { cancelOrderEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { cancelOrderPart } from "@/lib/seller/orders";

export const POST = route(cancelOrderEndpoint, async ({ db, principal, params, body }) => ({ data: await cancelOrderPart(db, storeIdOf(principal), params.number!, body) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
