import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { IdPath, itemEnvelope, listEnvelope } from "@/lib/schemas/seller/common";
import { CreateListing, ListListingsQuery, Listing, SetListingStatus, UpdateListing } from "@/lib/schemas/seller/listings";

// Scopes as in spec 4.8: reads need listings:read, every change listings:write.
const read = apiKeyAccess(["listings:read"]);
const write = apiKeyAccess(["listings:write"]);
const tags = ["Listings"];

export const listListingsEndpoint = defineEndpoint({
  name: "seller.listings.list",
  method: "GET",
  path: "/listings",
  operationId: "listListings",
  summary: "List listings, or sync changes with updated_since",
  description:
    "Without `updated_since`: the store's listings newest first, archived ones left out unless `status=archived`. " +
    "With `updated_since` (ISO-8601 or Unix seconds): the sync feed, every listing updated at or after that instant, " +
    "archived ones included, in the order the changes committed (ties by id). Page with `next_cursor` until it is null; " +
    "a listing changed while you page comes again later, and a change is handed out only once no older transaction " +
    "that could still commit one before it is open, so a client that pages to the end misses nothing. To sync again " +
    "later, repeat the request of your last page (same `updated_since`, same `cursor`).",
  tags,
  access: read,
  query: ListListingsQuery,
  success: { status: 200, description: "A page of listings.", schema: listEnvelope(Listing) },
  errors: [],
});

export const createListingEndpoint = defineEndpoint({
  name: "seller.listings.create",
  method: "POST",
  path: "/listings",
  operationId: "createListing",
  summary: "Create a listing",
  description:
    "A new `draft` listing on an existing product (`product_id` or `gtin`) or on a product described in `product` " +
    "(which becomes publicly listed when one of its listings is first published).",
  tags,
  access: write,
  body: CreateListing,
  idempotent: true,
  success: { status: 201, description: "The listing, created as a draft.", schema: itemEnvelope(Listing) },
  errors: ["product_not_found", "category_not_found", "brand_not_found", "gtin_taken", "sku_taken", "shipping_template_not_found"],
});

export const getListingEndpoint = defineEndpoint({
  name: "seller.listings.get",
  method: "GET",
  path: "/listings/{id}",
  operationId: "getListing",
  summary: "Retrieve a listing",
  tags,
  access: read,
  params: IdPath,
  success: { status: 200, description: "The listing.", schema: itemEnvelope(Listing) },
  errors: ["listing_not_found"],
});

export const updateListingEndpoint = defineEndpoint({
  name: "seller.listings.update",
  method: "PATCH",
  path: "/listings/{id}",
  operationId: "updateListing",
  summary: "Update a listing",
  description: "Changes the fields given. A quantity change is recorded as a stock adjustment with reason `update`. An archived listing is read-only.",
  tags,
  access: write,
  params: IdPath,
  body: UpdateListing,
  idempotent: true,
  success: { status: 200, description: "The listing after the change.", schema: itemEnvelope(Listing) },
  errors: ["listing_not_found", "listing_archived", "sku_taken", "shipping_template_not_found"],
});

export const publishListingEndpoint = defineEndpoint({
  name: "seller.listings.publish",
  method: "POST",
  path: "/listings/{id}/publish",
  operationId: "publishListing",
  summary: "Publish a draft listing",
  description:
    "draft -> active, the only way out of draft. Needs a price, a product and a shipping template of the store " +
    "(`listing_incomplete` names the first missing). `published_at` is set at the first publish and kept.",
  tags,
  access: write,
  params: IdPath,
  idempotent: true,
  success: { status: 200, description: "The listing, now active.", schema: itemEnvelope(Listing) },
  errors: ["listing_not_found", "listing_incomplete", "invalid_transition"],
});

export const setListingStatusEndpoint = defineEndpoint({
  name: "seller.listings.status",
  method: "POST",
  path: "/listings/{id}/status",
  operationId: "setListingStatus",
  summary: "Set a listing's status",
  description:
    "`active` <-> `inactive`; any state -> `archived`, which is final. Any other move (a draft set active, a state " +
    "set to itself, anything out of archived) is a 409 `invalid_transition` naming the current state.",
  tags,
  access: write,
  params: IdPath,
  body: SetListingStatus,
  idempotent: true,
  success: { status: 200, description: "The listing in its new state.", schema: itemEnvelope(Listing) },
  errors: ["listing_not_found", "listing_incomplete", "invalid_transition"],
});

export const LISTING_ENDPOINTS: Endpoint[] = [
  listListingsEndpoint,
  createListingEndpoint,
  getListingEndpoint,
  updateListingEndpoint,
  publishListingEndpoint,
  setListingStatusEndpoint,
] as Endpoint[];
