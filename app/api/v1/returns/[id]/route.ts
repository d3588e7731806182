import { storeIdOf } from "@/lib/auth/principal";
import { getReturnEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getStoreReturn } from "@/lib/seller/orders";

export const GET = route(getReturnEndpoint, async ({ db, principal, params }) => ({ data: await getStoreReturn(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
