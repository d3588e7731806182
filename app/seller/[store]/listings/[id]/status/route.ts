import { validateJson } from "@/lib/http/body";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { SetListingStatus } from "@/lib/schemas/seller/listings";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { publishListing, setListingStatus } from "@/lib/seller/listings";
import { about, notFoundResponse, ownerChange, refused, returnPath, seeOther, sellerPath, storeOfPost, withParams } from "../../../../_lib/post";

// Publish (POST /listings/{id}/publish) or set the status (POST /listings/{id}/status).
export const POST = formRoute({ name: "seller.listings.status", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const listing = store ? await withDb((client) => listingForEdit(client, store.id, id)) : null;
  if (!store || !listing) return notFoundResponse();
  const back = returnPath(store, form.return_to, `/seller/${store.slug}/listings/${listing.id}`);
  try {
    const move = form.move ?? "";
    const poster = { store, user: user!, requestId };
    const target = { type: "listing", id: listing.id };
    if (move === "publish") await ownerChange(poster, "listings.publish", target, (tx) => publishListing(tx, store.id, listing.id));
    else await ownerChange(poster, "listings.status", target, (tx) => setListingStatus(tx, store.id, listing.id, validateJson(SetListingStatus, { status: move })));
    return seeOther(withParams(back, { notice: move === "publish" ? "published" : move }));
  } catch (err) {
    return refused(back, "row", about(err, listing.sku), {}, (param) => (param === "status" ? "move" : param));
  }
});
