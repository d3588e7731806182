import { storeIdOf } from "@/lib/auth/principal";
import { createListingEndpoint, listListingsEndpoint } from "@/lib/endpoints/seller/listings";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createListing, listListings } from "@/lib/seller/listings";

export const GET = route(listListingsEndpoint, async ({ db, principal, query }) => listListings(db, storeIdOf(principal), query));
export const POST = route(createListingEndpoint, async ({ db, principal, body }) => ({
  status: 201,
  data: await createListing(db, storeIdOf(principal), body),
}));
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods(["GET", "POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
