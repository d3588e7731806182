import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { SetListingStatus } from "@/lib/schemas/seller/listings";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { publishListing, setListingStatus } from "@/lib/seller/listings";
import { about, notFoundResponse, refused, returnPath, seeOther, sellerPath, storeOfPost, withParams } from "../../../../_lib/post";

// Publish (POST /listings/{id}/publish) or set the status (POST /listings/{id}/status).
export const POST = formRoute({ name: "seller.listings.status", session: "required" }, async ({ request, form, user }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const listing = store ? await listingForEdit(db(), store.id, id) : null;
  if (!store || !listing) return notFoundResponse();
  const back = returnPath(store, form.return_to, `/seller/${store.slug}/listings/${listing.id}`);
  try {
    const move = form.move ?? "";
    if (move === "publish") {
      await db().$transaction((tx) => publishListing(tx, store.id, listing.id));
    } else {
      const body = validateJson(SetListingStatus, { status: move });
      await db().$transaction((tx) => setListingStatus(tx, store.id, listing.id, body));
    }
    return seeOther(withParams(back, { notice: move === "publish" ? "published" : move }));
  } catch (err) {
    return refused(back, "row", about(err, listing.sku), {}, (param) => (param === "status" ? "move" : param));
  }
});
