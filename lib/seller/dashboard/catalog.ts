import type { DbClient } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { cleanSearchTerm, containsPattern } from "./text";

export interface ProductMatch {
  id: string;
  slug: string;
  title: string;
  gtin: string | null;
  brand: string | null;
  category: string;
}

const GTIN = /^[0-9]{8,14}$/;
export const PRODUCT_MATCHES_MAX = 20;

/**
 * Products a seller can attach a new listing to, found by GTIN (8 to 14 digits: exact match) or
 * by title (case-insensitive, anywhere): publicly listed products only, so that a product another
 * store has described but not yet published stays private.
 */
export async function findProductsToAttach(client: DbClient, term: unknown): Promise<ProductMatch[]> {
  const q = cleanSearchTerm(term);
  if (q === "") return [];
  const digits = q.replace(/[\s-]/g, "");
  const byGtin = GTIN.test(digits);
  const rows = await client.product.findMany({
    where: byGtin ? { gtin: digits, publiclyListed: true } : { id: { in: await titleMatches(client, q) } },
    select: { id: true, slug: true, title: true, gtin: true, brand: { select: { name: true } }, category: { select: { name: true } } },
  });
  return rows
    .map((r) => ({ id: r.id, slug: r.slug, title: r.title, gtin: r.gtin, brand: r.brand?.name ?? null, category: r.category.name }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

async function titleMatches(client: DbClient, q: string): Promise<string[]> {
  const pattern = containsPattern(q);
  const rows = await client.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM products
     WHERE publicly_listed AND title ILIKE ${pattern} ESCAPE '\\'
     ORDER BY rating_count DESC, title, id
     LIMIT ${PRODUCT_MATCHES_MAX}`;
  return rows.map((r) => r.id);
}

/** The product a listing form is about, when it may be attached to (publicly listed). */
export async function productToAttach(client: DbClient, id: unknown): Promise<ProductMatch | null> {
  if (!isUuid(id)) return null;
  const r = await client.product.findFirst({
    where: { id, publiclyListed: true },
    select: { id: true, slug: true, title: true, gtin: true, brand: { select: { name: true } }, category: { select: { name: true } } },
  });
  return r ? { id: r.id, slug: r.slug, title: r.title, gtin: r.gtin, brand: r.brand?.name ?? null, category: r.category.name } : null;
}

export interface CategoryOption {
  slug: string;
  /** The names from the top of the tree down: "Electronics › Audio › Headphones". */
  label: string;
}

/** Categories a new product can go in: active leaves under active ancestors, in tree order. */
export async function leafCategoryOptions(client: DbClient): Promise<CategoryOption[]> {
  const rows = await client.$queryRaw<{ slug: string; label: string }[]>`
    SELECT c.slug,
           (SELECT string_agg(a.name, ' › ' ORDER BY nlevel(a.path)) FROM categories a WHERE a.path @> c.path) AS label
      FROM categories c
     WHERE NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)
       AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id)
     ORDER BY label`;
  return rows;
}

export interface BrandOption {
  slug: string;
  name: string;
}

export async function brandOptions(client: DbClient): Promise<BrandOption[]> {
  return client.brand.findMany({ select: { slug: true, name: true }, orderBy: { name: "asc" } });
}

export interface TemplateOption {
  id: string;
  name: string;
}

/** The store's shipping templates for a listing form's select, by name. */
export async function shippingTemplateOptions(client: DbClient, storeId: string): Promise<TemplateOption[]> {
  return client.shippingTemplate.findMany({ where: { storeId }, select: { id: true, name: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
}
