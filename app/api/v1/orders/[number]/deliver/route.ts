import { storeIdOf } from "@/lib/auth/principal";
import { deliverOrderEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { deliverOrderPart } from "@/lib/seller/orders";

export const POST = route(deliverOrderEndpoint, async ({ db, principal, params }) => ({ data: await deliverOrderPart(db, storeIdOf(principal), params.number!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
