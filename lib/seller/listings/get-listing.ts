import type { ListingData } from "@/lib/schemas/seller/listings";
import { type Db, readListing } from "./listing-row";

/** GET /listings/{id}: the store's listing; any other id (another store's included) is a 404. */
export function getListing(db: Db, storeId: string, id: string): Promise<ListingData> {
  return readListing(db, storeId, id);
}
