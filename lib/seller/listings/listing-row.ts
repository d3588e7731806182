import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { ListingData, ListingStatusValue } from "@/lib/schemas/seller/listings";
import { CURRENCY } from "@/lib/currency";

/** RFC 3339 UTC with milliseconds, made by the database so both modes answer alike. */
const iso = (column: string) => Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The columns of a listing's wire object (`l` = listings, `p` = its product). */
export const LISTING_COLUMNS = Prisma.sql`
  l.id::text AS id, l.product_id::text AS product_id, p.slug AS product_slug, l.sku, l.condition::text AS condition,
  l.price_cents, l.list_price_cents, l.currency::text AS currency, l.quantity, l.allow_backorder,
  l.shipping_template_id::text AS shipping_template_id, l.status::text AS status,
  ${iso("l.created_at")} AS created_at, ${iso("l.updated_at")} AS updated_at, ${iso("l.published_at")} AS published_at`;

export type ListingRow = Omit<ListingData, "object">;

/** The wire object, fields in the contract's order. */
export function toListing(row: ListingRow): ListingData {
  return {
    id: row.id,
    object: "listing",
    product_id: row.product_id,
    product_slug: row.product_slug,
    sku: row.sku,
    condition: row.condition,
    price_cents: Number(row.price_cents),
    list_price_cents: Number(row.list_price_cents),
    currency: CURRENCY,
    quantity: Number(row.quantity),
    allow_backorder: row.allow_backorder,
    shipping_template_id: row.shipping_template_id,
    status: row.status,
    created_at: row.created_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
  };
}

export function listingNotFound(id: string, param?: string): AppError {
  return new AppError("listing_not_found", `No listing of this store has the id '${id.slice(0, 100)}'.`, param);
}

/** The store's listing as it is now (no lock); 404 for anything else, another store's included. */
export async function readListing(db: DbClient, storeId: string, id: string): Promise<ListingData> {
  if (!isUuid(id)) throw listingNotFound(id);
  const [row] = await db.$queryRaw<ListingRow[]>`
    SELECT ${LISTING_COLUMNS} FROM listings l JOIN products p ON p.id = l.product_id
    WHERE l.id = ${id}::uuid AND l.store_id = ${storeId}::uuid`;
  if (!row) throw listingNotFound(id);
  return toListing(row);
}

export interface LockedListing {
  id: string;
  status: ListingStatusValue;
  sku: string;
  condition: string;
  allow_backorder: boolean;
  price_cents: number;
  list_price_cents: number;
  quantity: number;
  shipping_template_id: string | null;
  product_id: string;
  published_at: Date | null;
}

/**
 * The store's listing, locked until the caller's transaction ends (SELECT ... FOR UPDATE), so a
 * read-check-write of one request never interleaves with another's on the same row.
 */
export async function lockListing(db: DbClient, storeId: string, id: string): Promise<LockedListing> {
  if (!isUuid(id)) throw listingNotFound(id);
  const [row] = await db.$queryRaw<LockedListing[]>`
    SELECT id::text AS id, status::text AS status, sku, condition::text AS condition, allow_backorder, price_cents, list_price_cents, quantity,
           shipping_template_id::text AS shipping_template_id, product_id::text AS product_id, published_at
    FROM listings WHERE id = ${id}::uuid AND store_id = ${storeId}::uuid FOR UPDATE`;
  if (!row) throw listingNotFound(id);
  return { ...row, price_cents: Number(row.price_cents), list_price_cents: Number(row.list_price_cents), quantity: Number(row.quantity) };
}

/** True when `templateId` is a shipping template of the store. */
export async function isStoreTemplate(db: DbClient, storeId: string, templateId: string): Promise<boolean> {
  if (!isUuid(templateId)) return false;
  const rows = await db.$queryRaw<unknown[]>`
    SELECT 1 FROM shipping_templates WHERE id = ${templateId}::uuid AND store_id = ${storeId}::uuid`;
  return rows.length > 0;
}

export function templateNotFound(templateId: string): AppError {
  return new AppError(
    "shipping_template_not_found",
    `No shipping template of this store has the id '${templateId.slice(0, 100)}'.`,
    "shipping_template_id",
  );
}

export function skuTaken(sku: string): AppError {
  return new AppError("sku_taken", `Another listing of this store already has the SKU '${sku}'.`, "sku");
}

/** A unique-constraint violation, however the driver reports it (Prisma P2002, SQLSTATE 23505). */
export function isUniqueViolation(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { code?: unknown; meta?: Record<string, unknown>; message?: unknown; cause?: unknown };
  if (e.code === "P2002" || e.code === "23505") return true;
  const meta = e.meta ?? {};
  if (meta.code === "23505") return true;
  const driver = meta.driverAdapterError as { cause?: { kind?: string; originalCode?: string } } | undefined;
  if (driver?.cause?.kind === "UniqueConstraintViolation" || driver?.cause?.originalCode === "23505") return true;
  return typeof e.message === "string" && /23505|unique constraint/i.test(e.message);
}

/** The message of an `invalid_transition`: names the current state and what it allows. */
export function invalidTransition(current: ListingStatusValue, attempted: string): AppError {
  const allowed: Record<ListingStatusValue, string> = {
    draft: "a draft becomes active only through POST /listings/{id}/publish, or is archived",
    active: "an active listing may be set inactive or archived",
    inactive: "an inactive listing may be set active or archived",
    archived: "an archived listing is final",
  };
  return new AppError("invalid_transition", `The listing is ${current}; it cannot be ${attempted}: ${allowed[current]}.`);
}

/**
 * What publishing (or re-activating) needs, in the contract's order: a price, a product and a
 * shipping template of the same store. Throws `listing_incomplete` naming the first missing one.
 */
export async function assertPublishable(db: DbClient, storeId: string, listing: LockedListing): Promise<void> {
  if (!(listing.price_cents > 0)) {
    throw new AppError("listing_incomplete", "The listing needs a price before it can be published.", "price_cents");
  }
  if (!listing.product_id) {
    throw new AppError("listing_incomplete", "The listing needs a product before it can be published.", "product_id");
  }
  if (!listing.shipping_template_id || !(await isStoreTemplate(db, storeId, listing.shipping_template_id))) {
    throw new AppError("listing_incomplete", "The listing needs a shipping template of this store before it can be published.", "shipping_template_id");
  }
}
