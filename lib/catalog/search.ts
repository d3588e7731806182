import { absoluteUrl } from "@/lib/config";
import { db, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import {
  CONDITION_LABELS,
  CONDITIONS,
  type FacetEntryData,
  type ProductCardData,
  type SearchParams,
} from "@/lib/schemas/catalog";
import { loadPriceBuckets, type PriceBucket } from "./price-buckets";

const sql = Prisma.sql;

export interface SearchResult {
  data: ProductCardData[];
  meta: {
    page: number;
    page_size: number;
    total: number;
    page_count: number;
    facets: { category: FacetEntryData[]; brand: FacetEntryData[]; condition: FacetEntryData[]; price: FacetEntryData[] };
  };
}

export interface Scope {
  path: string;
  depth: number;
}

/** An active category (with every ancestor active) by slug, or a 400 naming `category`. */
export async function categoryScope(slug: string): Promise<Scope> {
  const rows = await db().$queryRaw<{ path: string; depth: number }[]>`
    SELECT c.path::text AS path, nlevel(c.path) AS depth
    FROM categories c
    WHERE c.slug = ${slug}
      AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)`;
  const scope = rows[0];
  if (!scope) throw new AppError("parameter_invalid", `No active category has the slug '${slug}'.`, "category");
  return scope;
}

const ORDER_BY: Record<SearchParams["sort"], Prisma.Sql> = {
  relevance: sql`score DESC, rating_count DESC, product_id`,
  price_asc: sql`min_price ASC, product_id`,
  price_desc: sql`min_price DESC, product_id`,
  newest: sql`published_at DESC NULLS LAST, product_id`,
};

interface SearchRow {
  total: number;
  page: Array<{
    id: string;
    slug: string;
    title: string;
    image_url: string | null;
    brand: { slug: string | null; name: string } | null;
    category_breadcrumb: Array<{ slug: string; name: string }>;
    min_price_cents: number;
    offer_count: number;
    rating_avg: number | null;
    rating_count: number;
  }>;
  category_facet: FacetEntryData[];
  brand_facet: FacetEntryData[];
  condition_counts: number[];
  price_counts: number[];
}

/**
 * Full-text and faceted search over purchasable offers. One statement: the text and category
 * scope is materialised once (`base`), offer-level filters are evaluated per product over its
 * purchasable offers (`f`), then results, total and the four disjunctive facets read from it.
 */
export async function searchProducts(params: SearchParams): Promise<SearchResult> {
  const [scope, buckets] = await Promise.all([
    params.category ? categoryScope(params.category) : Promise.resolve<Scope | null>(null),
    loadPriceBuckets(),
  ]);
  const rows = await db().$queryRaw<SearchRow[]>(searchStatement(params, scope, buckets));
  const row = rows[0]!;
  return {
    data: row.page.map((card) => ({
      id: card.id,
      slug: card.slug,
      title: card.title,
      url: absoluteUrl(`/p/${card.slug}`),
      image_url: card.image_url === null ? null : absoluteUrl(card.image_url),
      brand: card.brand,
      category_breadcrumb: card.category_breadcrumb ?? [],
      min_price_cents: card.min_price_cents,
      currency: "USD",
      offer_count: card.offer_count,
      rating_avg: card.rating_avg,
      rating_count: card.rating_count,
    })),
    meta: {
      page: params.page,
      page_size: params.page_size,
      total: row.total,
      page_count: Math.ceil(row.total / params.page_size),
      facets: {
        category: row.category_facet,
        brand: row.brand_facet,
        condition: CONDITIONS.map((value, i) => ({
          value,
          label: CONDITION_LABELS[value],
          count: row.condition_counts[i] ?? 0,
        })).filter((entry) => entry.count > 0),
        price: bucketFacet(buckets, row.price_counts),
      },
    },
  };
}

/** The search statement itself (exported so the benchmark can EXPLAIN exactly what runs). */
export function searchStatement(params: SearchParams, scope: Scope | null, buckets: PriceBucket[]): Prisma.Sql {
  const q = params.q;
  const conditions = params.condition?.length ? params.condition : null;
  const priceMin = params.price_min_cents ?? null;
  const priceMax = params.price_max_cents ?? null;
  const offerFilter = conditions !== null || priceMin !== null || priceMax !== null;

  const textJoin = q
    ? sql`JOIN products p ON p.id = ps.product_id
          AND (p.search_vector @@ websearch_to_tsquery('english', ${q}) OR ${q} <% p.title)`
    : Prisma.empty;
  const score = q
    ? sql`ts_rank(p.search_vector, websearch_to_tsquery('english', ${q})) + word_similarity(${q}, p.title)`
    : sql`0`;
  const scopeWhere = scope ? sql`WHERE ps.category_path <@ ${scope.path}::ltree` : Prisma.empty;
  const brandOk = params.brand?.length
    ? sql`b.brand_id IN (SELECT id FROM brands WHERE slug = ANY(${params.brand}::text[]))`
    : sql`true`;

  // Per product: lowest price and number of offers passing every offer filter, the conditions
  // present among offers in the price range, the price buckets present among offers in the
  // condition set. Without offer filters these are the precomputed columns.
  const offerColumns = offerFilter
    ? sql`o.min_price, o.n, o.cmask, o.pmask
          FROM base b, LATERAL (
            SELECT min(u.price) FILTER (WHERE u.ok_c AND u.ok_p) AS min_price,
                   count(*) FILTER (WHERE u.ok_c AND u.ok_p)::int AS n,
                   coalesce(bit_or(listing_condition_bit(u.cond)) FILTER (WHERE u.ok_p), 0) AS cmask,
                   coalesce(bit_or(catalog_price_bucket_bit(u.price)) FILTER (WHERE u.ok_c), 0) AS pmask
            FROM (SELECT x.cond, x.price,
                         ${conditions === null ? sql`true` : sql`x.cond = ANY(${conditions}::listing_condition[])`} AS ok_c,
                         (${priceMin === null ? sql`true` : sql`x.price >= ${priceMin}`}
                          AND ${priceMax === null ? sql`true` : sql`x.price < ${priceMax}`}) AS ok_p
                  FROM unnest(b.offer_conditions, b.offer_prices) AS x(cond, price)) u
          ) o`
    : sql`b.min_price_cents AS min_price, b.offer_count AS n, b.condition_mask AS cmask,
          b.price_bucket_mask AS pmask
          FROM base b`;

  const depth = scope?.depth ?? 0;
  const limit = params.page_size;
  const offset = (params.page - 1) * params.page_size;
  const conditionCounts = sql`ARRAY[${Prisma.join(
    CONDITIONS.map((_, i) => sql`count(*) FILTER (WHERE cmask & ${1 << i} <> 0)::int`),
  )}]`;
  const priceCounts = sql`ARRAY[${Prisma.join(
    buckets.map((bucket) => sql`count(*) FILTER (WHERE pmask & ${bucket.bit} <> 0)::int`),
  )}]`;

  return sql`
    WITH base AS MATERIALIZED (
      SELECT ps.product_id, ps.category_path, ps.brand_id, ps.published_at, ps.rating_count,
             ps.min_price_cents, ps.offer_count, ps.condition_mask, ps.price_bucket_mask,
             ps.offer_conditions, ps.offer_prices, ${score} AS score
      FROM product_search ps
      ${textJoin}
      ${scopeWhere}
    ), f AS (
      SELECT b.product_id, b.category_path, b.brand_id, b.published_at, b.rating_count, b.score,
             ${brandOk} AS brand_ok, ${offerColumns}
    ), r AS (
      SELECT * FROM f WHERE brand_ok AND n > 0
    ), page AS (
      SELECT product_id, min_price, n, row_number() OVER (ORDER BY ${ORDER_BY[params.sort]}) AS ord
      FROM r ORDER BY ${ORDER_BY[params.sort]} LIMIT ${limit} OFFSET ${offset}
    )
    SELECT
      (SELECT count(*) FROM r)::int AS total,
      (SELECT coalesce(json_agg(json_build_object(
          'id', p.id, 'slug', p.slug, 'title', p.title,
          'image_url', (SELECT i.url FROM product_images i WHERE i.product_id = p.id ORDER BY i.position, i.id LIMIT 1),
          'brand', CASE WHEN br.id IS NULL THEN NULL ELSE json_build_object('slug', br.slug, 'name', br.name) END,
          'category_breadcrumb', (SELECT json_agg(json_build_object('slug', a.slug, 'name', a.name) ORDER BY nlevel(a.path))
                                  FROM categories c JOIN categories a ON a.path @> c.path WHERE c.id = p.category_id),
          'min_price_cents', pg.min_price, 'offer_count', pg.n,
          'rating_avg', p.rating_avg::float8, 'rating_count', p.rating_count
        ) ORDER BY pg.ord), '[]'::json)
       FROM page pg JOIN products p ON p.id = pg.product_id LEFT JOIN brands br ON br.id = p.brand_id
      ) AS page,
      (SELECT coalesce(json_agg(json_build_object('value', c.slug, 'label', c.name, 'count', g.n)
                                ORDER BY g.n DESC, c.name), '[]'::json)
       FROM (SELECT subpath(category_path, 0, ${depth + 1}) AS path, count(*)::int AS n
             FROM r WHERE nlevel(category_path) > ${depth} GROUP BY 1) g
       JOIN categories c ON c.path = g.path AND c.active
      ) AS category_facet,
      (SELECT coalesce(json_agg(json_build_object('value', br.slug, 'label', br.name, 'count', g.n)
                                ORDER BY g.n DESC, br.name), '[]'::json)
       FROM (SELECT brand_id, count(*)::int AS n FROM f WHERE n > 0 AND brand_id IS NOT NULL GROUP BY 1) g
       JOIN brands br ON br.id = g.brand_id
      ) AS brand_facet,
      (SELECT ${conditionCounts} FROM f WHERE brand_ok) AS condition_counts,
      (SELECT ${priceCounts} FROM f WHERE brand_ok) AS price_counts`;
}

function bucketFacet(buckets: PriceBucket[], counts: number[]): FacetEntryData[] {
  return buckets
    .map((bucket, i) => ({ value: bucket.value, label: bucket.label, count: counts[i] ?? 0 }))
    .filter((entry) => entry.count > 0);
}
