import { storeIdOf } from "@/lib/auth/principal";
import { returnMoveEndpoints } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { moveStoreReturn } from "@/lib/seller/orders";

export const POST = route(returnMoveEndpoints.refund, async ({ db, principal, params }) => ({ data: await moveStoreReturn(db, storeIdOf(principal), params.id!, "refund") }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
