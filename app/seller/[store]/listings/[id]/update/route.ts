import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { UpdateListing } from "@/lib/schemas/seller/listings";
import { listingUpdateJson } from "@/lib/seller/dashboard/forms";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { updateListing } from "@/lib/seller/listings";
import { notFoundResponse, refused, seeOther, sellerPath, storeOfPost } from "../../../../_lib/post";

// Sends the fields the person changed as the seller API's update body (PATCH /listings/{id}).
export const POST = formRoute({ name: "seller.listings.update", session: "required" }, async ({ request, form, user }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const listing = store ? await listingForEdit(db(), store.id, id) : null;
  if (!store || !listing) return notFoundResponse();
  const page = `/seller/${store.slug}/listings/${listing.id}`;
  let converted: ReturnType<typeof listingUpdateJson> | undefined;
  try {
    converted = listingUpdateJson(form);
    const body = validateJson(UpdateListing, converted.json);
    await db().$transaction((tx) => updateListing(tx, store.id, listing.id, body));
    return seeOther(`${page}?notice=updated`);
  } catch (err) {
    return refused(page, "listing", err, form, converted?.field);
  }
});
