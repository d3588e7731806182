import type { DbClient } from "@/lib/db";
import type { ListingData, SetListingStatusInput } from "@/lib/schemas/seller/listings";
import { assertPublishable, invalidTransition, lockListing, readListing } from "./listing-row";

/**
 * POST /listings/{id}/status: active <-> inactive, and any state -> archived (terminal). Every
 * other move (a draft set active, a state set to itself, anything out of archived) is a 409
 * `invalid_transition` naming the current state. Re-activating checks what publishing checks.
 */
export async function setListingStatus(db: DbClient, storeId: string, id: string, input: SetListingStatusInput): Promise<ListingData> {
  const listing = await lockListing(db, storeId, id);
  const from = listing.status;
  const to = input.status;
  const allowed =
    from !== "archived" && ((to === "archived") || (from === "active" && to === "inactive") || (from === "inactive" && to === "active"));
  if (!allowed) throw invalidTransition(from, `set ${to}`);
  if (to === "active") await assertPublishable(db, storeId, listing);
  await db.$executeRaw`UPDATE listings SET status = ${to}::listing_status WHERE id = ${listing.id}::uuid`;
  return readListing(db, storeId, id);
}
