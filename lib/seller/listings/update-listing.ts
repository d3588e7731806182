import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { ListingData, UpdateListingInput } from "@/lib/schemas/seller/listings";
import { isStoreTemplate, isUniqueViolation, lockListing, readListing, skuTaken, templateNotFound } from "./listing-row";

/**
 * PATCH /listings/{id}: changes the fields given. An archived listing is read-only; the list
 * price never ends below the price; a quantity change is recorded as a stock adjustment with
 * reason `update`. The row is locked first, so a concurrent inventory batch waits for this
 * change (or this for it) and neither is lost. A request that changes nothing writes nothing.
 */
export async function updateListing(db: DbClient, storeId: string, id: string, input: UpdateListingInput): Promise<ListingData> {
  const current = await lockListing(db, storeId, id);
  if (current.status === "archived") {
    throw new AppError("listing_archived", "The listing is archived; an archived listing is read-only.");
  }

  const price = input.price_cents ?? current.price_cents;
  const listPrice = input.list_price_cents ?? current.list_price_cents;
  if (listPrice < price) {
    const param = input.list_price_cents !== undefined ? "list_price_cents" : "price_cents";
    throw new AppError(
      "parameter_invalid",
      `Invalid '${param}': list_price_cents (${listPrice}) may not be below price_cents (${price}).`,
      param,
    );
  }
  if (input.shipping_template_id === null && current.status !== "draft") {
    throw new AppError(
      "parameter_invalid",
      "Invalid 'shipping_template_id': a listing that was published keeps a shipping template; set another one instead.",
      "shipping_template_id",
    );
  }
  if (typeof input.shipping_template_id === "string" && !(await isStoreTemplate(db, storeId, input.shipping_template_id))) {
    throw templateNotFound(input.shipping_template_id);
  }

  // Only what differs is written: a request that changes nothing leaves the row (and the feed) alone.
  const sets: Prisma.Sql[] = [];
  if (input.sku !== undefined && input.sku !== current.sku) sets.push(Prisma.sql`sku = ${input.sku}`);
  if (input.condition !== undefined && input.condition !== current.condition) sets.push(Prisma.sql`condition = ${input.condition}::listing_condition`);
  if (price !== current.price_cents) sets.push(Prisma.sql`price_cents = ${price}`);
  if (listPrice !== current.list_price_cents) sets.push(Prisma.sql`list_price_cents = ${listPrice}`);
  if (input.quantity !== undefined && input.quantity !== current.quantity) sets.push(Prisma.sql`quantity = ${input.quantity}`);
  if (input.allow_backorder !== undefined && input.allow_backorder !== current.allow_backorder) {
    sets.push(Prisma.sql`allow_backorder = ${input.allow_backorder}`);
  }
  const template = input.shipping_template_id === undefined ? undefined : input.shipping_template_id?.toLowerCase() ?? null;
  if (template !== undefined && template !== current.shipping_template_id) sets.push(Prisma.sql`shipping_template_id = ${template}::uuid`);
  if (sets.length === 0) return readListing(db, storeId, id);
  if (input.sku !== undefined && input.sku !== current.sku) {
    const clash = await db.$queryRaw<unknown[]>`SELECT 1 FROM listings WHERE store_id = ${storeId}::uuid AND sku = ${input.sku}`;
    if (clash.length > 0) throw skuTaken(input.sku);
  }
  // A concurrent request may take the SKU between that check and this write: the unique index decides.
  try {
    await db.$executeRaw`UPDATE listings SET ${Prisma.join(sets, ", ")} WHERE id = ${current.id}::uuid`;
  } catch (err) {
    if (isUniqueViolation(err)) throw skuTaken(input.sku ?? current.sku);
    throw err;
  }
  if (input.quantity !== undefined && input.quantity !== current.quantity) {
    await db.$executeRaw`
      INSERT INTO stock_adjustments (listing_id, delta, quantity_after, reason)
      VALUES (${current.id}::uuid, ${input.quantity - current.quantity}, ${input.quantity}, 'update')`;
  }
  return readListing(db, storeId, id);
}
