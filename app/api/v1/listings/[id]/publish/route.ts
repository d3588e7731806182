import { publishListingEndpoint } from "@/lib/endpoints/seller/listings";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { publishListing } from "@/lib/seller/listings";

export const POST = route(publishListingEndpoint, async ({ db, principal, params }) => ({ data: await publishListing(db, principal.storeId, params.id!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
