import { AppError } from "@/lib/errors";
import { validateJson } from "@/lib/http/body";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { InventoryBatch } from "@/lib/schemas/seller/listings";
import { integerOf } from "@/lib/seller/dashboard/forms";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { applyInventoryBatch } from "@/lib/seller/inventory";
import { about, notFoundResponse, ownerChange, refused, returnPath, seeOther, sellerPath, storeOfPost, withParams } from "../../../../_lib/post";

/**
 * Sets the quantity as an inventory batch of one `set_quantity`, compare-and-set against the
 * quantity the form showed: stock sold through the API while the page was open is never
 * overwritten by a stale form (the person sees the refusal and the current quantity).
 */
export const POST = formRoute({ name: "seller.listings.quantity", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const listing = store ? await withDb((client) => listingForEdit(client, store.id, id)) : null;
  if (!store || !listing) return notFoundResponse();
  const back = returnPath(store, form.return_to, `/seller/${store.slug}/listings/${listing.id}`);
  try {
    await ownerChange({ store, user: user!, requestId }, "inventory.batch", null, (tx) => {
      const adjustment: Record<string, unknown> = { listing_id: listing.id, set_quantity: integerOf(form.quantity ?? "", "quantity") };
      if (form.expected_quantity) adjustment.expected_quantity = integerOf(form.expected_quantity, "expected_quantity");
      return applyInventoryBatch(tx, store.id, validateJson(InventoryBatch, { adjustments: [adjustment] }).adjustments);
    });
    return seeOther(withParams(back, { notice: "quantity" }));
  } catch (err) {
    const stale = err instanceof AppError && err.code === "stale_quantity";
    const message = stale ? "the quantity changed while the page was open (a sale, or a change through the API), so nothing was saved; it now shows the current quantity." : undefined;
    return refused(back, "row", about(err, listing.sku, message), {}, () => "quantity");
  }
});
