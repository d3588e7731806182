import { LRUCache } from "lru-cache";
import { shownUrl } from "@/lib/config";
import { type CatalogClient, Prisma } from "@/lib/db";
import { onCatalogChange } from "@/lib/db/changes";
import { AppError } from "@/lib/errors";
import { CONDITION_LABELS, type ConditionValue, type ProductRecordData } from "@/lib/schemas/catalog";
import { buyBoxWinner } from "./buy-box";
import { CURRENCY } from "@/lib/currency";

interface OfferRow {
  listing_id: string;
  price_cents: number;
  list_price_cents: number;
  currency: string;
  condition: ConditionValue;
  store_name: string;
  store_slug: string;
  in_stock: boolean;
  shipping_cents: number;
  created_at: string;
}

interface ProductRow {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  gtin: string | null;
  mpn: string | null;
  attributes: Record<string, unknown>;
  rating_avg: number | null;
  rating_count: number;
  brand: { slug: string | null; name: string } | null;
  category_breadcrumb: Array<{ slug: string; name: string }> | null;
  images: Array<{ url: string; alt: string | null; width: number | null; height: number | null }>;
  offers: OfferRow[];
}

/**
 * A publicly listed product with its currently purchasable offers, cheapest first, and the
 * buy-box winner. Anything not publicly listed is "not found", whatever the reason.
 *
 * Records are read far more often than sellers change them, so each process keeps the ones it
 * found and forgets one as soon as the database reports its product changed (lib/db/changes.ts);
 * the TTL is the backstop for a listener that is reconnecting. A "not found" is never kept, so a
 * product that becomes listed shows at once. PRODUCT_CACHE_TTL_MS=0 turns the cache off.
 */
export async function getProduct(client: CatalogClient, slug: string): Promise<ProductRecordData> {
  const cache = productRecords();
  const kept = cache?.records.get(slug);
  if (kept) return kept;
  const changesBefore = cache?.changes;
  const record = await readProduct(client, slug);
  // A change heard during the read may have committed after its snapshot: keep nothing then.
  if (cache && cache.changes === changesBefore) cache.records.set(slug, deepFreeze(record));
  return record;
}

const productTtlMs = Number(process.env.PRODUCT_CACHE_TTL_MS ?? 60_000);

interface ProductRecords {
  records: LRUCache<string, ProductRecordData>;
  /** Product changes heard so far. */
  changes: number;
}

// One per process, on globalThis: the API routes, the pages and the MCP tools are separate bundles.
const holder = globalThis as unknown as { __productRecords?: ProductRecords };

function productRecords(): ProductRecords | null {
  if (!(productTtlMs > 0)) return null;
  if (holder.__productRecords) return holder.__productRecords;
  const cache: ProductRecords = { records: new LRUCache({ max: 5_000, ttl: productTtlMs }), changes: 0 };
  onCatalogChange((change) => {
    if (change.kind !== "products") return;
    cache.changes++;
    if (change.ids === "all") return cache.records.clear();
    const ids = new Set(change.ids);
    const stale: string[] = [];
    cache.records.forEach((record, slug) => {
      if (ids.has(record.id)) stale.push(slug);
    });
    for (const slug of stale) cache.records.delete(slug);
  });
  holder.__productRecords = cache;
  return cache;
}

/** One kept record is handed to many requests: none of them may change it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

async function readProduct(client: CatalogClient, slug: string): Promise<ProductRecordData> {
  if (!PRODUCT_SLUG.test(slug)) throw notFound(slug);
  const [product] = await client.$queryRaw<ProductRow[]>(productStatement(slug));
  if (!product) throw notFound(slug);

  const offers = product.offers;
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    description: product.description,
    url: shownUrl(`/p/${product.slug}`),
    brand: product.brand,
    category_breadcrumb: product.category_breadcrumb ?? [],
    gtin: product.gtin,
    mpn: product.mpn,
    attributes: product.attributes,
    images: product.images.map((image) => ({ ...image, url: shownUrl(image.url) })),
    rating_avg: product.rating_avg,
    rating_count: product.rating_count,
    currency: CURRENCY,
    min_price_cents: offers[0]?.price_cents ?? null,
    offers: offers.map((o) => ({
      listing_id: o.listing_id,
      price_cents: o.price_cents,
      list_price_cents: o.list_price_cents,
      currency: o.currency,
      condition: o.condition,
      condition_label: CONDITION_LABELS[o.condition],
      store_name: o.store_name,
      store_slug: o.store_slug,
      in_stock: o.in_stock,
      on_sale: o.list_price_cents > o.price_cents,
    })),
    buy_box_listing_id: buyBoxWinner(
      offers.map((o) => ({
        listingId: o.listing_id,
        priceCents: o.price_cents,
        shippingCents: o.shipping_cents,
        condition: o.condition,
        inStock: o.in_stock,
        createdAt: new Date(o.created_at),
      })),
    ),
  };
}

/** getProduct's statement (exported so the benchmark can time it). */
export function productStatement(slug: string): Prisma.Sql {
  // One statement: the product, its breadcrumb and images, and its purchasable offers
  // (offer_is_purchasable, the one SQL definition), cheapest first. An offer's shipping is its
  // template's US standard rate, else its `*` standard rate (decisions.md), else 0.
  return Prisma.sql`
    SELECT p.id, p.slug, p.title, p.description, p.gtin, p.mpn, p.attributes,
           p.rating_avg::float8 AS rating_avg, p.rating_count,
           CASE WHEN br.id IS NULL THEN NULL ELSE json_build_object('slug', br.slug, 'name', br.name) END AS brand,
           (SELECT json_agg(json_build_object('slug', a.slug, 'name', a.name) ORDER BY nlevel(a.path))
              FROM categories c JOIN categories a ON a.path @> c.path WHERE c.id = p.category_id) AS category_breadcrumb,
           (SELECT coalesce(json_agg(json_build_object('url', i.url, 'alt', i.alt, 'width', i.width, 'height', i.height)
                                     ORDER BY i.position, i.id), '[]'::json)
              FROM product_images i WHERE i.product_id = p.id) AS images,
           (SELECT coalesce(json_agg(json_build_object(
                     'listing_id', l.id, 'price_cents', l.price_cents, 'list_price_cents', l.list_price_cents,
                     'currency', l.currency, 'condition', l.condition, 'store_name', s.name, 'store_slug', s.slug,
                     'in_stock', l.quantity > 0, 'created_at', l.created_at,
                     'shipping_cents', coalesce((SELECT r.price_cents FROM shipping_rates r
                                                 WHERE r.template_id = l.shipping_template_id
                                                   AND r.service = 'standard' AND r.region IN ('US', '*')
                                                 ORDER BY r.region = 'US' DESC LIMIT 1), 0))
                   ORDER BY l.price_cents, l.created_at, l.id), '[]'::json)
              FROM listings l JOIN stores s ON s.id = l.store_id
              WHERE l.product_id = p.id
                AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)) AS offers
    FROM products p LEFT JOIN brands br ON br.id = p.brand_id
    WHERE p.slug = ${slug} AND p.publicly_listed`;
}

// Anything that cannot be a slug (a NUL byte, 10 KB of text) is simply not found.
const PRODUCT_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

function notFound(slug: string) {
  const shown = slug.length > 80 ? `${slug.slice(0, 80)}…` : slug;
  return new AppError("product_not_found", `No publicly listed product has the slug '${shown}'.`);
}
