import { validateJson } from "@/lib/http/body";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { UpdateListing } from "@/lib/schemas/seller/listings";
import { listingUpdateJson } from "@/lib/seller/dashboard/forms";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { updateListing } from "@/lib/seller/listings";
import { notFoundResponse, ownerChange, refused, seeOther, sellerPath, storeOfPost } from "../../../../_lib/post";

// Sends the fields the person changed as the seller API's update body (PATCH /listings/{id}).
export const POST = formRoute({ name: "seller.listings.update", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const listing = store ? await withDb((client) => listingForEdit(client, store.id, id)) : null;
  if (!store || !listing) return notFoundResponse();
  const page = `/seller/${store.slug}/listings/${listing.id}`;
  let converted: ReturnType<typeof listingUpdateJson> | undefined;
  try {
    await ownerChange({ store, user: user!, requestId }, "listings.update", { type: "listing", id: listing.id }, (tx) => {
      converted = listingUpdateJson(form);
      return updateListing(tx, store.id, listing.id, validateJson(UpdateListing, converted.json));
    });
    return seeOther(`${page}?notice=updated`);
  } catch (err) {
    return refused(page, "listing", err, form, converted?.field);
  }
});
