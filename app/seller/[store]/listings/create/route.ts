import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateListing } from "@/lib/schemas/seller/listings";
import { listingCreateJson } from "@/lib/seller/dashboard/forms";
import { createListing } from "@/lib/seller/listings";
import { notFoundResponse, ownerChange, refused, seeOther, storeOfPost, withParams } from "../../../_lib/post";

// The form becomes the seller API's create body, validated by its schema, made by its function.
export const POST = formRoute({ name: "seller.listings.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  const back = withParams(`/seller/${store.slug}/listings/new`, { product: form.product_id || undefined });
  let converted: ReturnType<typeof listingCreateJson> | undefined;
  try {
    const listing = await ownerChange(
      { store, user: user!, requestId },
      "listings.create",
      { type: "listing", id: null },
      (tx) => {
        converted = listingCreateJson(form);
        return createListing(tx, store.id, validateJson(CreateListing, converted.json));
      },
      (created) => ({ type: "listing", id: created.id }),
    );
    return seeOther(`/seller/${store.slug}/listings/${listing.id}?notice=created`);
  } catch (err) {
    return refused(back, "listing", err, form, converted?.field);
  }
});
