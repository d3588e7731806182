import type { DbClient } from "@/lib/db";
import type { ListingData } from "@/lib/schemas/seller/listings";
import { assertPublishable, invalidTransition, lockListing, readListing } from "./listing-row";

/**
 * POST /listings/{id}/publish: draft -> active, the only way out of draft. Needs a price, a
 * product and a shipping template of the store (`listing_incomplete` names the first missing).
 * `published_at` is set now and kept for good; a product the store described through the API,
 * never published before, becomes publicly listed with it (the search index follows by trigger).
 */
export async function publishListing(db: DbClient, storeId: string, id: string): Promise<ListingData> {
  const listing = await lockListing(db, storeId, id);
  if (listing.status !== "draft") throw invalidTransition(listing.status, "published");
  await assertPublishable(db, storeId, listing);
  await db.$executeRaw`
    UPDATE listings SET status = 'active', published_at = coalesce(published_at, now()) WHERE id = ${listing.id}::uuid`;
  await db.$executeRaw`
    UPDATE products SET publicly_listed = true, published_at = now(), updated_at = now()
    WHERE id = ${listing.product_id}::uuid AND created_by_store_id IS NOT NULL AND published_at IS NULL AND NOT publicly_listed`;
  return readListing(db, storeId, id);
}
