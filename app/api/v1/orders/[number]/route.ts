import { storeIdOf } from "@/lib/auth/principal";
import { getOrderEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getOrderPart } from "@/lib/seller/orders";

export const GET = route(getOrderEndpoint, async ({ db, principal, params }) => ({ data: await getOrderPart(db, storeIdOf(principal), params.number!) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
