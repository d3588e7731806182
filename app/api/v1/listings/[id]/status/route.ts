import { storeIdOf } from "@/lib/auth/principal";
import { setListingStatusEndpoint } from "@/lib/endpoints/seller/listings";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { setListingStatus } from "@/lib/seller/listings";

export const POST = route(setListingStatusEndpoint, async ({ db, principal, params, body }) => ({
  data: await setListingStatus(db, storeIdOf(principal), params.id!, body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
