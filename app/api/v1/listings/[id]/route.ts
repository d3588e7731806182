import { storeIdOf } from "@/lib/auth/principal";
import { getListingEndpoint, updateListingEndpoint } from "@/lib/endpoints/seller/listings";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getListing, updateListing } from "@/lib/seller/listings";

export const GET = route(getListingEndpoint, async ({ db, principal, params }) => ({ data: await getListing(db, storeIdOf(principal), params.id!) }));
export const PATCH = route(updateListingEndpoint, async ({ db, principal, params, body }) => ({
  data: await updateListing(db, storeIdOf(principal), params.id!, body),
}));
export const { OPTIONS, POST, PUT, DELETE } = otherMethods(["GET", "PATCH"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
