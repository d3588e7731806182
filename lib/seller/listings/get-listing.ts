import type { DbClient } from "@/lib/db";
import type { ListingData } from "@/lib/schemas/seller/listings";
import { readListing } from "./listing-row";

/** GET /listings/{id}: the store's listing; any other id (another store's included) is a 404. */
export function getListing(db: DbClient, storeId: string, id: string): Promise<ListingData> {
  return readListing(db, storeId, id);
}
