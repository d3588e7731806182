import { storeIdOf } from "@/lib/auth/principal";
import { shipOrderEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { shipOrderPart } from "@/lib/seller/orders";

export const POST = route(shipOrderEndpoint, async ({ db, principal, params, body }) => ({ data: await shipOrderPart(db, storeIdOf(principal), params.number!, body) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
