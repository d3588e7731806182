import { Prisma, type DbClient } from "@/lib/db";
import { cleanSearchTerm, containsPattern } from "./text";

/** What the dashboard's listings table can show: the API's statuses, plus two groupings. */
export const LISTING_FILTERS = ["current", "draft", "active", "inactive", "archived", "all"] as const;
export type ListingFilter = (typeof LISTING_FILTERS)[number];
export const LISTING_FILTER_LABELS: Record<ListingFilter, string> = {
  current: "All but archived",
  draft: "Draft",
  active: "Active",
  inactive: "Inactive",
  archived: "Archived",
  all: "All, archived included",
};
export const LISTINGS_PAGE_SIZE = 25;

export interface ListingsTableQuery {
  filter: ListingFilter;
  /** SKU or product title, case-insensitive, anywhere in the text. */
  q: string;
  page: number;
}

export interface ListingsTableRow {
  id: string;
  title: string;
  product_slug: string;
  sku: string;
  condition: string;
  price_cents: number;
  list_price_cents: number;
  quantity: number;
  allow_backorder: boolean;
  status: "draft" | "active" | "inactive" | "archived";
  updated_at: Date;
}

export interface ListingsTable {
  rows: ListingsTableRow[];
  total: number;
  page: number;
  pageCount: number;
  query: ListingsTableQuery;
}

/** Reads the table's query string leniently: anything unexpected falls back to the default. */
export function listingsTableQuery(params: Record<string, string | string[] | undefined>): ListingsTableQuery {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const status = one(params.status);
  const page = one(params.page);
  return {
    filter: (LISTING_FILTERS as readonly string[]).includes(status ?? "") ? (status as ListingFilter) : "current",
    q: cleanSearchTerm(one(params.q)),
    page: page && /^[0-9]{1,6}$/.test(page) && Number(page) >= 1 ? Number(page) : 1,
  };
}

function statusCondition(filter: ListingFilter): Prisma.Sql {
  switch (filter) {
    case "current":
      return Prisma.sql`l.status <> 'archived'`;
    case "all":
      return Prisma.sql`TRUE`;
    default:
      return Prisma.sql`l.status = ${filter}::listing_status`;
  }
}

/**
 * One page (25 rows, by page number) of a store's listings, most recently changed first, with the
 * product's title: the dashboard's table. The seller API's list has no title search, so this query
 * lives here rather than beside it.
 */
export async function listingsTable(client: DbClient, storeId: string, query: ListingsTableQuery): Promise<ListingsTable> {
  const pattern = containsPattern(query.q);
  const where = Prisma.sql`l.store_id = ${storeId}::uuid AND ${statusCondition(query.filter)}
    AND (${query.q} = '' OR l.sku ILIKE ${pattern} ESCAPE '\\' OR p.title ILIKE ${pattern} ESCAPE '\\')`;
  const [{ total }] = await client.$queryRaw<[{ total: number }]>`
    SELECT count(*)::int AS total FROM listings l JOIN products p ON p.id = l.product_id WHERE ${where}`;
  const pageCount = Math.max(1, Math.ceil(total / LISTINGS_PAGE_SIZE));
  const page = Math.min(query.page, pageCount);
  const rows = await client.$queryRaw<ListingsTableRow[]>`
    SELECT l.id::text AS id, p.title, p.slug AS product_slug, l.sku, l.condition::text AS condition,
           l.price_cents, l.list_price_cents, l.quantity, l.allow_backorder, l.status::text AS status, l.updated_at
      FROM listings l JOIN products p ON p.id = l.product_id
     WHERE ${where}
     ORDER BY l.updated_at DESC, l.id DESC
     LIMIT ${LISTINGS_PAGE_SIZE} OFFSET ${(page - 1) * LISTINGS_PAGE_SIZE}`;
  return { rows, total, page, pageCount, query: { ...query, page } };
}
