import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateListing } from "@/lib/schemas/seller/listings";
import { listingCreateJson } from "@/lib/seller/dashboard/forms";
import { createListing } from "@/lib/seller/listings";
import { notFoundResponse, refused, seeOther, storeOfPost, withParams } from "../../../_lib/post";

// The form becomes the seller API's create body, validated by its schema, made by its function.
export const POST = formRoute({ name: "seller.listings.create", session: "required" }, async ({ request, form, user }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  const back = withParams(`/seller/${store.slug}/listings/new`, { product: form.product_id || undefined });
  let converted: ReturnType<typeof listingCreateJson> | undefined;
  try {
    converted = listingCreateJson(form);
    const body = validateJson(CreateListing, converted.json);
    const listing = await db().$transaction((tx) => createListing(tx, store.id, body));
    return seeOther(`/seller/${store.slug}/listings/${listing.id}?notice=created`);
  } catch (err) {
    return refused(back, "listing", err, form, converted?.field);
  }
});
