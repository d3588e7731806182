import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { MAX_PICTURE_BYTES } from "@/lib/media/process-upload";
import { deletePicture, savePicture, type SavedPicture } from "@/lib/media/save-picture";
import { pictureStore } from "@/lib/media/store";
import { CreateListing } from "@/lib/schemas/seller/listings";
import { listingCreateJson } from "@/lib/seller/dashboard/forms";
import { createListing } from "@/lib/seller/listings";
import { notFoundResponse, ownerChange, refused, seeOther, storeOfPost, withParams } from "../../../_lib/post";

// The form becomes the seller API's create body, validated by its schema, made by its function.
// A new product's picture (multipart `picture`) is checked and stored first, and removed again
// when the listing is refused; a refused picture stores nothing.
export const POST = formRoute(
  // The body may hold one picture (the picture's own limit is checked by processUpload) and the fields.
  { name: "seller.listings.create", session: "required", files: { maxBytes: MAX_PICTURE_BYTES + MAX_BODY_BYTES } },
  async ({ request, form, files, user, requestId }) => {
    const store = await storeOfPost(request, user);
    if (!store) return notFoundResponse();
    const back = withParams(`/seller/${store.slug}/listings/new`, { product: form.product_id || undefined });
    let converted: ReturnType<typeof listingCreateJson> | undefined;
    let picture: SavedPicture | undefined;
    try {
      const file = form.product_id ? undefined : files.picture;
      if (file) picture = await savePicture(pictureStore(), Buffer.from(await file.arrayBuffer()), "picture");
      const listing = await ownerChange(
        { store, user: user!, requestId },
        "listings.create",
        { type: "listing", id: null },
        (tx) => {
          converted = listingCreateJson(form);
          return createListing(tx, store.id, validateJson(CreateListing, converted.json), { picture });
        },
        (created) => ({ type: "listing", id: created.id }),
      );
      return seeOther(`/seller/${store.slug}/listings/${listing.id}?notice=created`);
    } catch (err) {
      if (picture) await deletePicture(pictureStore(), picture.id);
      return refused(back, "listing", err, form, converted?.field);
    }
  },
);
