import { absoluteUrl } from "@/lib/config";
import type { DbClient } from "@/lib/db";

/** The sitemap protocol's limit of URLs per file (sitemaps.org); above it, /sitemap.xml is an index. */
export const SITEMAP_MAX_URLS = 50_000;

export const XML_CONTENT_TYPE = "application/xml; charset=utf-8";

export interface SitemapEntry {
  /** Absolute URL. */
  loc: string;
  /** ISO-8601 timestamp of the last change, when known. */
  lastmod?: string;
}

/**
 * The sitemap at /sitemap.xml: every URL in one `urlset` while they fit in one file, otherwise
 * a `sitemapindex` of /sitemap/0.xml, /sitemap/1.xml, ... (each at most `perFile` URLs).
 */
export async function sitemapRoot(client: DbClient, perFile = SITEMAP_MAX_URLS): Promise<string> {
  const [fixed, productCount] = await Promise.all([fixedEntries(client), countPublicProducts(client)]);
  const total = fixed.length + productCount;
  if (total <= perFile) {
    // Bounded by the file limit, so a product added since the count cannot overflow the file.
    return renderUrlset([...fixed, ...(await productEntries(client, 0, perFile - fixed.length))]);
  }
  const files = Math.ceil(total / perFile);
  return renderSitemapIndex(Array.from({ length: files }, (_, i) => absoluteUrl(`/sitemap/${i}.xml`)));
}

/**
 * File `index` of the split sitemap: URLs [index * perFile, (index + 1) * perFile) of the fixed
 * pages followed by the products in id order. File 0 always exists; a file past the end is null.
 */
export async function sitemapFile(client: DbClient, index: number, perFile = SITEMAP_MAX_URLS): Promise<string | null> {
  if (!Number.isSafeInteger(index) || index < 0) return null;
  const start = index * perFile;
  const fixed = await fixedEntries(client);
  const fromFixed = fixed.slice(start, start + perFile);
  const productOffset = Math.max(0, start - fixed.length);
  const products = await productEntries(client, productOffset, perFile - fromFixed.length);
  if (index > 0 && fromFixed.length === 0 && products.length === 0) return null;
  return renderUrlset([...fromFixed, ...products]);
}

/** Parses the file name of a split sitemap ("3.xml" -> 3); anything else is null. */
export function parseSitemapFileName(name: string): number | null {
  const match = /^(0|[1-9]\d{0,5})\.xml$/.exec(name);
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** Home, help centre and articles, active category pages: a few hundred rows at most. */
async function fixedEntries(client: DbClient): Promise<SitemapEntry[]> {
  const [articles, categories] = await Promise.all([
    client.$queryRaw<{ slug: string; updated_at: Date }[]>`
      SELECT slug, updated_at FROM help_articles WHERE published ORDER BY position, slug`,
    // Active, under active ancestors: the same categories the tree and /c/{slug} serve.
    client.$queryRaw<{ slug: string }[]>`
      SELECT c.slug FROM categories c
      WHERE NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)
      ORDER BY c.path`,
  ]);
  const helpLastmod = articles.reduce<Date | null>((max, a) => (max && max > a.updated_at ? max : a.updated_at), null);
  return [
    { loc: absoluteUrl("/") },
    { loc: absoluteUrl("/help"), lastmod: helpLastmod?.toISOString() },
    ...articles.map((a) => ({ loc: absoluteUrl(`/help/${encodeURIComponent(a.slug)}`), lastmod: a.updated_at.toISOString() })),
    ...categories.map((c) => ({ loc: absoluteUrl(`/c/${encodeURIComponent(c.slug)}`) })),
  ];
}

/** Every publicly listed product has a page (with or without purchasable offers). */
async function countPublicProducts(client: DbClient): Promise<number> {
  const [row] = await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products WHERE publicly_listed`;
  return row?.n ?? 0;
}

/** Publicly listed products in primary-key order, so a file's slice is stable and index-ordered. */
async function productEntries(client: DbClient, offset: number, limit: number): Promise<SitemapEntry[]> {
  if (limit <= 0) return [];
  const rows = await client.$queryRaw<{ slug: string; updated_at: Date }[]>`
    SELECT slug, updated_at FROM products WHERE publicly_listed
    ORDER BY id OFFSET ${offset} LIMIT ${limit}`;
  return rows.map((p) => ({ loc: absoluteUrl(`/p/${encodeURIComponent(p.slug)}`), lastmod: p.updated_at.toISOString() }));
}

// ---------------------------------------------------------------------------------------------
// XML
// ---------------------------------------------------------------------------------------------

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

export function renderUrlset(entries: SitemapEntry[]): string {
  const parts = [XML_DECLARATION, `<urlset xmlns="${SITEMAP_NS}">\n`];
  for (const e of entries) {
    parts.push(
      e.lastmod
        ? `<url><loc>${escapeXml(e.loc)}</loc><lastmod>${e.lastmod}</lastmod></url>\n`
        : `<url><loc>${escapeXml(e.loc)}</loc></url>\n`,
    );
  }
  parts.push("</urlset>\n");
  return parts.join("");
}

export function renderSitemapIndex(locs: string[]): string {
  const items = locs.map((loc) => `<sitemap><loc>${escapeXml(loc)}</loc></sitemap>\n`).join("");
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${items}</sitemapindex>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

const XML_ESCAPES: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" };
