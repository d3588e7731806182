import { shownUrl } from "@/lib/config";
import { type CatalogClient, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import {
  CONDITION_LABELS,
  CONDITIONS,
  type ConditionValue,
  type FacetEntryData,
  type ProductCardData,
  type SearchParams,
} from "@/lib/schemas/catalog";
import { bitmapCounts, bucketsInRange, isBroad, settledPage, TEXT_MODE, textBreadth } from "./facet-counts";
import { interpretQuery, type TextQuery } from "./interpret";
import { loadPriceBuckets, type PriceBucket } from "./price-buckets";
import { searchCache } from "./search-cache";
import { textMatch, textSource } from "./text-match";
import { CURRENCY } from "@/lib/currency";

const sql = Prisma.sql;

/**
 * How the query was read, for the caller to say so (the API's X-Corrected-Query and
 * X-Query-Relaxed headers, the storefront's "Showing results for", the MCP tool's text).
 */
export interface QueryInterpretation {
  /** The query actually run when a word was corrected (key form), else null. */
  corrected: string | null;
  /** True when not every word had to match (a word matched nothing, or no product had them all). */
  relaxed: boolean;
}

export interface SearchResult {
  data: ProductCardData[];
  interpretation: QueryInterpretation;
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
export async function categoryScope(client: CatalogClient, slug: string): Promise<Scope> {
  const rows = await client.$queryRaw<{ path: string; depth: number }[]>`
    SELECT c.path::text AS path, nlevel(c.path) AS depth
    FROM categories c
    WHERE c.slug = ${slug}
      AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)`;
  const scope = rows[0];
  if (!scope) throw new AppError("parameter_invalid", `No active category has the slug '${slug}'.`, "category");
  return scope;
}

/** Ids of the brands with these slugs; unknown slugs simply match nothing. */
export async function brandIdsOf(client: CatalogClient, slugs: string[]): Promise<string[]> {
  const rows = await client.$queryRaw<{ id: string }[]>`SELECT id FROM brands WHERE slug = ANY(${slugs}::text[])`;
  return rows.map((r) => r.id);
}

// Every sort ends on product_id, so paging is stable. (Static text: no input reaches it.)
const ORDER_BY: Record<SearchParams["sort"], string> = {
  relevance: "{t}.score DESC, {t}.rating_count DESC, {t}.product_id",
  price_asc: "{t}.min_price ASC, {t}.product_id",
  price_desc: "{t}.min_price DESC, {t}.product_id",
  newest: "{t}.published_at DESC NULLS LAST, {t}.product_id",
};
const orderBy = (sort: SearchParams["sort"], table: string) => Prisma.raw(ORDER_BY[sort].replaceAll("{t}", table));

interface CardRow {
  id: string;
  slug: string;
  title: string;
  image_url: string | null;
  brand: { slug: string | null; name: string } | null;
  category_breadcrumb: Array<{ slug: string; name: string }> | null;
  min_price_cents: number;
  offer_count: number;
  rating_avg: number | null;
  rating_count: number;
}

/**
 * Restrictions the storefront applies that the public API does not offer (spec 4.1 has no such
 * parameter): `storeId` keeps the products with a purchasable offer from that store, and only
 * that store's offers count (offer filters, the card's price and offer count, facets): store pages.
 */
export interface SearchRestriction {
  storeId?: string;
  /** Every word as typed: no correction, completion or relaxing (the storefront's "search instead for"). */
  literal?: boolean;
}

/** One row per grouping set of the counts statement (see searchStatements). */
export interface CountRow {
  set: "all" | "brand" | "category" | "condition" | "price";
  key: string | null;
  label: string | null;
  /** Products passing every filter. */
  results: number;
  /** Products passing every filter but the brand filter. */
  any_brand: number;
  /** Products passing the text, category and brand filters (offer filters are in the masks). */
  brand_rows: number;
  /** Whether the text match was relaxed (the same on every row). */
  relaxed: boolean;
}

/**
 * What a search's statements depend on, looked up concurrently: scope, brands, the query's words,
 * the price buckets. Exported so that the benchmark runs exactly these statements.
 */
export async function prepareSearch(client: CatalogClient, params: SearchParams, restriction: SearchRestriction = {}) {
  const [scope, brandIds, [text, broadText], buckets] = await Promise.all([
    params.category ? categoryScope(client, params.category) : Promise.resolve<Scope | null>(null),
    params.brand?.length ? brandIdsOf(client, params.brand) : Promise.resolve(null),
    params.q ? readText(client, params, restriction) : Promise.resolve([null, false] as const),
    loadPriceBuckets(client),
  ]);
  return { text, buckets, statements: searchStatements(params, scope, brandIds, restriction, text, buckets, { broadText }) };
}

/** The query's reading, and whether it is broad (searchStatements' broadText; never on a store page). */
async function readText(client: CatalogClient, params: SearchParams, restriction: SearchRestriction) {
  const text = await interpretQuery(client, params.q!, { literal: restriction.literal });
  const match = textMatch(text);
  if (match === null || restriction.storeId !== undefined) return [text, false] as const;
  const offerFiltered = Boolean(params.condition?.length) || params.price_min_cents !== undefined || params.price_max_cents !== undefined;
  // Like the reading, the same until product_search changes.
  const read = async () => (await client.$queryRaw<Breadth[]>(textBreadth(match)))[0] ?? { matches: 0, full: false, chunks: 0 };
  const breadth = (await breadthCache()?.fetch(JSON.stringify([match.forms, match.relax]), read)) ?? (await read());
  // A query with a full match among the settled products does not relax in the whole catalog:
  // its statements need not provide for it.
  const reading = breadth.full && !params.category && match.relax ? { ...text, strict: true } : text;
  return [reading, isBroad(breadth, { offerFiltered })] as const;
}

type Breadth = { matches: number; full: boolean; chunks: number };
const breadthCache = searchCache<Breadth>(5_000);

/**
 * Full-text and faceted search over purchasable offers: the page of cards and, concurrently,
 * the total and the four disjunctive facets, from the same matching rows.
 */
export async function searchProducts(client: CatalogClient, params: SearchParams, restriction: SearchRestriction = {}): Promise<SearchResult> {
  const { statements, text, buckets } = await prepareSearch(client, params, restriction);
  const [cards, counts] = await Promise.all([
    client.$queryRaw<CardRow[]>(statements.page),
    cachedCounts(client, params, restriction, statements.counts),
  ]);

  const summary = summarizeCounts(counts, buckets);
  return {
    interpretation: {
      corrected: text?.corrected ?? null,
      relaxed: text !== null && (text.dropped.length > 0 || summary.relaxed),
    },
    data: cards.map((card) => ({
      id: card.id,
      slug: card.slug,
      title: card.title,
      url: shownUrl(`/p/${card.slug}`),
      image_url: card.image_url === null ? null : shownUrl(card.image_url),
      brand: card.brand,
      category_breadcrumb: card.category_breadcrumb ?? [],
      min_price_cents: card.min_price_cents,
      currency: CURRENCY,
      offer_count: card.offer_count,
      rating_avg: card.rating_avg,
      rating_count: card.rating_count,
    })),
    meta: {
      page: params.page,
      page_size: params.page_size,
      total: summary.total,
      page_count: Math.ceil(summary.total / params.page_size),
      facets: summary.facets,
    },
  };
}

/** The total and the four facets from the rows of a counts statement (exported for tests). */
export function summarizeCounts(counts: CountRow[], buckets: PriceBucket[]) {
  const bitCount = (set: "condition" | "price", bit: number) =>
    counts.reduce((sum, c) => (c.set === set && (Number(c.key) & bit) !== 0 ? sum + c.brand_rows : sum), 0);
  return {
    total: totalOf(counts),
    relaxed: counts.find((c) => c.set === "all")?.relaxed ?? false,
    facets: {
      category: categoryFacetOf(counts),
      brand: counts
        .filter((c) => c.set === "brand" && c.label !== null && c.any_brand > 0)
        .map((c) => ({ value: String(c.key), label: c.label!, count: c.any_brand }))
        .sort(byCount),
      condition: CONDITIONS.map((value, i) => ({
        value,
        label: CONDITION_LABELS[value],
        count: bitCount("condition", 1 << i),
      })).filter((entry) => entry.count > 0),
      price: buckets
        .map((bucket) => ({ value: bucket.value, label: bucket.label, count: bitCount("price", bucket.bit) }))
        .filter((entry) => entry.count > 0),
    },
  };
}

const byCount = (a: FacetEntryData, b: FacetEntryData) => b.count - a.count || a.label.localeCompare(b.label, "en");
const totalOf = (counts: CountRow[]) => counts.find((c) => c.set === "all")?.results ?? 0;

/**
 * One row per (set, key): the counts statement may return a set's key twice (the bitmap part
 * and the rows of products changed since the last compaction), to be added up.
 */
export function mergeCountRows(rows: CountRow[]): CountRow[] {
  const merged = new Map<string, CountRow>();
  for (const row of rows) {
    const id = `${row.set}\u0000${row.key ?? ""}`;
    const seen = merged.get(id);
    if (!seen) merged.set(id, { ...row });
    else {
      seen.results += row.results;
      seen.any_brand += row.any_brand;
      seen.brand_rows += row.brand_rows;
      seen.relaxed ||= row.relaxed;
      seen.label ??= row.label;
    }
  }
  return [...merged.values()];
}
const categoryFacetOf = (counts: CountRow[]): FacetEntryData[] =>
  counts
    .filter((c) => c.set === "category" && c.label !== null && c.results > 0)
    .map((c) => ({ value: String(c.key), label: c.label!, count: c.results }))
    .sort(byCount);

/**
 * The total and the category facet of a search, as searchProducts counts them, without its page
 * of cards: from the same per-process counts cache, so asking again within its TTL costs nothing.
 */
export async function searchCategoryFacet(
  client: CatalogClient,
  params: SearchParams,
  restriction: SearchRestriction = {},
): Promise<{ total: number; category: FacetEntryData[] }> {
  const { statements } = await prepareSearch(client, params, restriction);
  const counts = await cachedCounts(client, params, restriction, statements.counts);
  return { total: totalOf(counts), category: categoryFacetOf(counts) };
}

/**
 * Total and facet counts are the expensive part of a search (for text, a pass over every matching
 * product) and the same for every page and sort of one query, so they are kept per process until
 * product_search changes (./search-cache.ts); identical concurrent requests share one computation.
 */
const countsCache = searchCache<CountRow[]>(2_000);

const queryCounts = async (client: CatalogClient, statement: Prisma.Sql) =>
  mergeCountRows(await client.$queryRaw<CountRow[]>(statement));

async function cachedCounts(client: CatalogClient, params: SearchParams, restriction: SearchRestriction, statement: Prisma.Sql): Promise<CountRow[]> {
  const cache = countsCache();
  if (!cache) return queryCounts(client, statement);
  // Keyed by what the counts depend on: the filters, not page or sort.
  const key = JSON.stringify([
    params.q ?? null,
    restriction.literal ?? false,
    params.category ?? null,
    [...(params.brand ?? [])].sort(),
    [...(params.condition ?? [])].sort(),
    params.price_min_cents ?? null,
    params.price_max_cents ?? null,
    restriction.storeId ?? null,
  ]);
  return cache.fetch(key, () => queryCounts(client, statement));
}

/** Bit of a condition in condition masks: its position in spec 2.7 (= the database enum). */
const conditionBit = (condition: ConditionValue) => 1 << CONDITIONS.indexOf(condition);

/**
 * The two search statements (exported so the benchmark can EXPLAIN exactly what runs).
 *
 * `matching` yields one narrow row per product in the text and category scope, with the brand
 * filter as a flag and the offer filters evaluated over the product's purchasable offers:
 * `n`/`min_price` over offers passing every offer filter, `cmask` = conditions present among
 * offers in the price range, `pmask` = price buckets present among offers in the condition set.
 * Without offer filters these are precomputed columns of product_search.
 *
 * A browse or a broad text query (`broadText`), with no store and a price range on bucket
 * bounds, counts from the facet bitmaps (./facet-counts.ts; for text, the lexeme bitmaps) plus
 * `matching` over the products changed since their last compaction; anything else counts by a
 * pass over `matching`.
 */
export function searchStatements(
  params: SearchParams,
  scope: Scope | null,
  brandIds: string[] | null,
  restriction: SearchRestriction = {},
  text: TextQuery | null = null,
  buckets: PriceBucket[] | null = null,
  /**
   * boundedText false: every text match is ranked for the page (the definition bounded pages are
   * tested against); fewPrefixed, listDepth: see PageBound. broadText: the text query matches
   * many products (prepareSearch estimates it): its counts come from the lexeme bitmaps, not from
   * its matching rows, and its relevance page under offer filters from the title postings.
   */
  {
    boundedText = true,
    fewPrefixed,
    listDepth,
    broadText = false,
  }: { boundedText?: boolean; fewPrefixed?: number; listDepth?: number; broadText?: boolean } = {},
): { page: Prisma.Sql; counts: Prisma.Sql } {
  const q = text !== null;
  const conditions = params.condition?.length ? params.condition : null;
  const priceMin = params.price_min_cents ?? null;
  const priceMax = params.price_max_cents ?? null;
  const storeId = restriction.storeId ?? null;
  // On a store page only that store's offers count: filters, card price and offer count, facets.
  const offerFilter = conditions !== null || priceMin !== null || priceMax !== null || storeId !== null;
  const depth = scope?.depth ?? 0;
  const offset = (params.page - 1) * params.page_size;

  // `<@` is the subtree; the range around it (which every descendant falls in) lets the
  // B-tree index product_search_browse serve it.
  const inScope = scope
    ? sql`(ps.category_path <@ ${scope.path}::ltree
           AND ps.category_path >= ${scope.path}::ltree AND ps.category_path < ${`${scope.path}0`}::ltree)`
    : sql`true`;
  // A store page: products with a purchasable offer of that store (listings_store_id_* indexes).
  const storeOffers = (product: Prisma.Sql) => sql`
    SELECT l.product_id, l.condition AS cond, l.price_cents AS price
    FROM listings l JOIN stores s ON s.id = l.store_id JOIN products lp ON lp.id = l.product_id
    WHERE l.store_id = ${storeId}::uuid AND ${product}
      AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, lp.publicly_listed)`;
  const inStore = storeId === null ? [] : [sql`ps.product_id IN (SELECT o.product_id FROM (${storeOffers(sql`true`)}) o)`];
  const brandOk = brandIds === null ? sql`true` : sql`ps.brand_id = ANY(${brandIds}::uuid[])`;
  const offerColumns = offerFilter
    ? sql`o.min_price, o.n, o.cmask, o.pmask`
    : sql`ps.min_price_cents AS min_price, ps.offer_count AS n, ps.condition_mask AS cmask,
          ps.price_bucket_mask AS pmask`;
  // An offer x(cond, price) passes the condition filter, the price filter.
  const conditionOk = conditions === null ? sql`true` : sql`x.cond = ANY(${conditions}::listing_condition[])`;
  const priceOk = sql`(${priceMin === null ? sql`true` : sql`x.price >= ${priceMin}`}
                       AND ${priceMax === null ? sql`true` : sql`x.price < ${priceMax}`})`;
  const offerLateral = offerFilter
    ? sql`CROSS JOIN LATERAL (
            SELECT min(u.price) FILTER (WHERE u.ok_c AND u.ok_p) AS min_price,
                   count(*) FILTER (WHERE u.ok_c AND u.ok_p)::int AS n,
                   coalesce(bit_or(listing_condition_bit(u.cond)) FILTER (WHERE u.ok_p), 0) AS cmask,
                   coalesce(bit_or(catalog_price_bucket_bit(u.price)) FILTER (WHERE u.ok_c), 0) AS pmask
            FROM (SELECT x.cond, x.price,
                         ${conditionOk} AS ok_c, ${priceOk} AS ok_p
                  FROM ${storeId === null
                         ? sql`unnest(ps.offer_conditions, ps.offer_prices) AS x(cond, price)`
                         : sql`(${storeOffers(sql`l.product_id = ps.product_id`)}) x`}) u
          ) o`
    : Prisma.empty;

  // Only the columns the filters, facets and sorts read (the offer arrays only when needed).
  const names = [
    "product_id", "category_path", "brand_id", "published_at", "rating_count", "title_words",
    "min_price_cents", "offer_count", "condition_mask", "price_bucket_mask",
    ...(offerFilter ? ["offer_conditions", "offer_prices"] : []),
  ];
  const columns = (alias: string) => Prisma.raw(names.map((n) => `${alias}.${n}`).join(", "));

  // Text: the matching set with its score and whether it was relaxed (lib/catalog/text-match.ts);
  // the counts need the set only.
  // The page of a relevance search may come from the title postings when every filter is a test
  // of the product_search row: the brand, and the offer filters over the row's offer arrays
  // (some offer has a wanted condition and a price in range), not on a store page (its offers
  // are not in the row). Under offer filters only for a broad query: a narrow one's lists hold
  // few passing rows, so the bound fails and every match is ranked after all, and ranking them
  // costs little anyway.
  const offersPass = sql`EXISTS (
    SELECT 1 FROM unnest(ps.offer_conditions, ps.offer_prices) AS x(cond, price) WHERE ${conditionOk} AND ${priceOk})`;
  const boundedPage =
    boundedText && params.sort === "relevance" && storeId === null && (!offerFilter || broadText)
      ? {
          limit: offset + params.page_size,
          filter: offerFilter ? sql`${brandOk} AND ${offersPass}` : brandOk,
          fewPrefixed,
          listDepth,
          relaxedScope: offerFilter || brandIds !== null ? undefined : (scope?.path ?? null),
        }
      : undefined;

  // The page needs only products that pass every filter: the brand filter and cheap bounds
  // of the offer filters (some offer has a wanted condition; some price can fall in range)
  // drop the others before their offers are evaluated. The counts need every product in scope.
  const offerPrefilter = sql`true
    ${conditions === null ? Prisma.empty : sql`AND ps.condition_mask & ${conditions.reduce((m, c) => m | conditionBit(c), 0)} <> 0`}
    ${priceMin === null ? Prisma.empty : sql`AND ps.offer_prices[cardinality(ps.offer_prices)] >= ${priceMin}`}
    ${priceMax === null ? Prisma.empty : sql`AND ps.min_price_cents < ${priceMax}`}`;
  const pagePrefilter = sql`${brandOk} AND ${offerPrefilter}`;
  // Text counts come from the lexeme bitmaps too (a query with no word group matches nothing:
  // its scan is empty).
  const match = text === null || !broadText ? null : textMatch(text);
  const bitmapBuckets =
    buckets === null || (q && match === null) || storeId !== null ? undefined : bucketsInRange(buckets, priceMin, priceMax);
  const fromBitmaps = bitmapBuckets !== undefined;
  const pendingOnly = sql`ps.product_id IN (SELECT product_id FROM facet_pending)`;
  const bitmapText =
    match === null ? null : { ...match, pendingFull: sql`EXISTS (SELECT 1 FROM product_search ps WHERE ${pendingOnly} AND ${inScope} AND ps.search_vector @@ ${match.every})` };
  const bitmapInput = fromBitmaps
    ? { scope, brandIds, conditions, buckets: bitmapBuckets, bucketCount: buckets!.length, text: bitmapText }
    : null;
  // The counts' rows of a text query counted from the bitmaps: the pending products matching it,
  // as the counts statement's text_mode says (./facet-counts.ts).
  const pendingText = (m: NonNullable<typeof match>) => sql`(
    SELECT ${columns("ps")}, 0::float8 AS score, (${m.dropped} OR tm.relaxed) AS relaxed
    FROM product_search ps CROSS JOIN ${TEXT_MODE} tm
    WHERE ${pendingOnly} AND ${inScope} AND ps.search_vector @@ CASE WHEN tm.relaxed THEN ${m.some} ELSE ${m.every} END) ps`;
  // Only a relevance page is ranked: other sorts need the matching set alone.
  const source = (forPage: boolean) =>
    text
      ? !forPage && fromBitmaps && match !== null
        ? pendingText(match)
        : sql`${textSource(text, columns, names, inScope, forPage ? { scored: params.sort === "relevance", page: boundedPage } : { scored: false })} ps`
      : sql`product_search ps`;
  // A browse of a category or by brand, filtered by offers, picks its page from the
  // facet_member_pairs rows that pass (./facet-counts.ts settledPage: sort keys and offer prices
  // are there), not from every product of the scope or brands; only the products changed since
  // the last compaction are read here, from their rows.
  const settled =
    !q && bitmapInput !== null && (brandIds !== null || scope !== null) && (conditions !== null || bitmapBuckets !== null);
  const candidates = settled
    ? sql`(SELECT DISTINCT product_id FROM facet_pending) pc JOIN product_search ps ON ps.product_id = pc.product_id`
    : null;
  const matching = (forPage: boolean) => {
    // From the candidates, rows are reached by primary key only: the subtree test without its
    // index range, the brand test left to `brand_ok` (a pending product is checked all the same).
    const viaCandidates = forPage && candidates !== null;
    const filters = [
      ...(q ? [] : [viaCandidates && scope ? sql`ps.category_path <@ ${scope.path}::ltree` : inScope]),
      ...inStore,
      ...(forPage ? [viaCandidates ? offerPrefilter : pagePrefilter] : []),
      ...(!forPage && fromBitmaps ? [pendingOnly] : []),
    ];
    return sql`
    SELECT ps.product_id, ps.brand_id, ps.published_at, ps.rating_count,
           ${q ? sql`ps.score, ps.relaxed` : sql`0::float8 AS score, false AS relaxed`},
           CASE WHEN nlevel(ps.category_path) > ${depth} THEN subpath(ps.category_path, ${depth}, 1)::text END AS child,
           ${brandOk} AS brand_ok, ${offerColumns}
    FROM ${viaCandidates ? candidates : source(forPage)} ${offerLateral}
    ${filters.length ? sql`WHERE ${Prisma.join(filters, " AND ")}` : Prisma.empty}`;
  };

  const passing = sql`SELECT product_id, min_price, n, score, rating_count, published_at
                      FROM (${matching(true)}) r WHERE brand_ok AND n > 0`;
  // The page's products with their cards' offer figures. Settled: picked among the settled and
  // the pending products by the sort keys alone; the offers are read for the page's rows only.
  const pageRows = settled
    ? sql`
      SELECT k.product_id, o.min_price, o.n, k.score, k.rating_count, k.published_at
      FROM (SELECT u.product_id, u.score, u.rating_count, u.published_at, u.min_price
            FROM (SELECT product_id, score, rating_count, published_at, min_price
                  FROM (${settledPage(bitmapInput!, params.sort, (alias) => orderBy(params.sort, alias), offset + params.page_size)}) sp
                  UNION ALL
                  SELECT product_id, score, rating_count, published_at, min_price FROM (${passing}) pp) u
            ORDER BY ${orderBy(params.sort, "u")}
            LIMIT ${params.page_size} OFFSET ${offset}) k
      JOIN product_search ps ON ps.product_id = k.product_id ${offerLateral}`
    : sql`${passing} ORDER BY ${orderBy(params.sort, "r")} LIMIT ${params.page_size} OFFSET ${offset}`;

  const page = sql`
    SELECT p.id, p.slug, p.title,
           (SELECT i.url FROM product_images i WHERE i.product_id = p.id ORDER BY i.position, i.id LIMIT 1) AS image_url,
           CASE WHEN br.id IS NULL THEN NULL ELSE json_build_object('slug', br.slug, 'name', br.name) END AS brand,
           (SELECT json_agg(json_build_object('slug', a.slug, 'name', a.name) ORDER BY nlevel(a.path))
              FROM categories c JOIN categories a ON a.path @> c.path WHERE c.id = p.category_id) AS category_breadcrumb,
           m.min_price AS min_price_cents, m.n AS offer_count,
           p.rating_avg::float8 AS rating_avg, p.rating_count
    FROM (${pageRows}) m
    JOIN products p ON p.id = m.product_id
    LEFT JOIN brands br ON br.id = p.brand_id
    ORDER BY ${orderBy(params.sort, "m")}`;

  // One pass: totals per grouping set; names are joined onto the few aggregated rows.
  const scanCounts = sql`
    SELECT CASE WHEN a.g_brand = 0 THEN 'brand' WHEN a.g_child = 0 THEN 'category'
                WHEN a.g_cmask = 0 THEN 'condition' WHEN a.g_pmask = 0 THEN 'price' ELSE 'all' END AS set,
           CASE WHEN a.g_brand = 0 THEN br.slug WHEN a.g_child = 0 THEN a.child
                WHEN a.g_cmask = 0 THEN a.cmask::text WHEN a.g_pmask = 0 THEN a.pmask::text END AS key,
           CASE WHEN a.g_brand = 0 THEN br.name WHEN a.g_child = 0 THEN c.name END AS label,
           a.results, a.any_brand, a.brand_rows, a.relaxed
    FROM (
      SELECT GROUPING(g.brand_id) AS g_brand, GROUPING(g.child) AS g_child,
             GROUPING(g.cmask) AS g_cmask, GROUPING(g.pmask) AS g_pmask,
             g.brand_id, g.child, g.cmask, g.pmask,
             count(*) FILTER (WHERE g.brand_ok AND g.n > 0)::int AS results,
             count(*) FILTER (WHERE g.n > 0)::int AS any_brand,
             count(*) FILTER (WHERE g.brand_ok)::int AS brand_rows,
             coalesce(bool_or(g.relaxed), false) AS relaxed
      FROM (${matching(false)}) g
      GROUP BY GROUPING SETS ((), (g.brand_id), (g.child), (g.cmask), (g.pmask))
    ) a
    LEFT JOIN brands br ON a.g_brand = 0 AND br.id = a.brand_id
    LEFT JOIN categories c ON a.g_child = 0 AND c.slug = a.child AND c.active`;

  const counts = fromBitmaps
    ? sql`${bitmapCounts(bitmapInput!)}
          UNION ALL ${scanCounts}`
    : scanCounts;
  return { page, counts };
}
