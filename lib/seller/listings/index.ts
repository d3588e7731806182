// The listing use cases of the seller API, one per file; each runs in the caller's transaction.
export { createListing } from "./create-listing";
export { getListing } from "./get-listing";
export { updateListing } from "./update-listing";
export { publishListing } from "./publish-listing";
export { setListingStatus } from "./set-listing-status";
export { listListings, type ListingPage } from "./list-listings";
