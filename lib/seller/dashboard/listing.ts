import type { DbClient } from "@/lib/db";
import { UUID } from "@/lib/ids";

/**
 * A listing of the store with its product, for the dashboard's edit page; null for anything that
 * is not one of this store's listing ids (the page answers 404 either way).
 */
export async function listingForEdit(client: DbClient, storeId: string, listingId: string) {
  if (!UUID.test(listingId)) return null;
  const row = await client.listing.findFirst({
    where: { id: listingId.toLowerCase(), storeId },
    select: {
      id: true,
      sku: true,
      condition: true,
      priceCents: true,
      listPriceCents: true,
      quantity: true,
      allowBackorder: true,
      shippingTemplateId: true,
      status: true,
      createdAt: true,
      updatedAt: true,
      publishedAt: true,
      product: { select: { id: true, slug: true, title: true, publiclyListed: true } },
    },
  });
  return row;
}
