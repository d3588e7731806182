import { storeIdOf } from "@/lib/auth/principal";
import { publishListingEndpoint } from "@/lib/endpoints/seller/listings";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { publishListing } from "@/lib/seller/listings";

export const POST = route(publishListingEndpoint, async ({ db, principal, params }) => ({ data: await publishListing(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
