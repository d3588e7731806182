import { storeIdOf } from "@/lib/auth/principal";
import { listReturnsEndpoint } from "@/lib/endpoints/seller/orders";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listStoreReturns } from "@/lib/seller/orders";

export const GET = route(listReturnsEndpoint, async ({ db, principal, query }) => listStoreReturns(db, storeIdOf(principal), query));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
