import { Prisma } from "@/lib/db";
import { CONDITIONS, type ConditionValue } from "@/lib/schemas/catalog";
import type { PriceBucket } from "./price-buckets";

const sql = Prisma.sql;

/**
 * What a text query matches (./text-match.ts textMatch), as tsqueries over
 * product_search.search_vector and as its words for the lexeme bitmaps (below): `every` the full matches, `some` the relaxed ones (used
 * only when `relax` and no product in scope matches `every`); `forms` the words of each group
 * (group -1: excluded words). `dropped`: every match counts as relaxed (a word was dropped).
 */
export interface TextMatch {
  every: Prisma.Sql;
  some: Prisma.Sql;
  relax: boolean;
  dropped: boolean;
  forms: Array<{ group: number; word: string }>;
  /** Each word group's tsquery (the word or any of its alternatives), in the query's order. */
  groups: Prisma.Sql[];
}

/**
 * Facet counts of a browse or a text query (no store) from the facet bitmaps (migration
 * 20261126000000_facet_bitmaps) and, for text, the lexeme bitmaps (textBits): per 65,536
 * products, a few ANDs, ORs and popcounts, whatever the catalog's size or the number of matches.
 * Products changed since the last compaction are not read from the bitmaps (their bits are
 * masked out here) but from their product_search rows by the caller's own counting statement
 * (`pending`), so the two parts together count every product once, in one snapshot.
 *
 * Offer filters are exact because a product's offers are one bitmap per (condition, price bucket)
 * pair: "some offer has a wanted condition and a price in range" is the OR of the pairs in
 * C x R. That needs the price range to be a union of buckets: `bucketsInRange` says whether it is.
 */
export interface BitmapCountsInput {
  scope: { path: string; depth: number } | null;
  brandIds: string[] | null;
  conditions: ConditionValue[] | null;
  /** Indexes of the buckets the price filter keeps, or null without a price filter. */
  buckets: number[] | null;
  bucketCount: number;
  /** A text query: its matching set from the lexeme bitmaps (see textBits). */
  text?: BitmapText | null;
}

/**
 * A text query's part of the bitmap counts: its words (./text-match.ts TextMatch) and `pendingFull`,
 * a condition that holds when some pending product in scope is a full match (read from its row).
 */
export interface BitmapText extends TextMatch {
  pendingFull: Prisma.Sql;
}

/**
 * Name of the CTE of the counts statement that says whether the text match is relaxed (one row,
 * column `relaxed`): the rows of the pending products, counted beside the bitmaps, read it.
 */
export const TEXT_MODE = Prisma.raw("text_mode");

/**
 * A text query counts from the lexeme bitmaps when its matching set is broad: at least this many
 * products per chunk of the catalog (facet_chunk_bits() products). Below it, counting the
 * matching rows costs less than the bitmaps' fixed cost per chunk (the facets' ANDs and
 * popcounts). At 100,000 products, two chunks, the two cost the same near 3,000-4,000 matches,
 * or near 1,000 with offer filters (the rows' offers are read then). Both are exact; this only
 * picks the cheaper.
 */
const BROAD_MATCHES_PER_CHUNK = { plain: 2_000, offerFiltered: 500 };

/**
 * A text query's settled matches in the whole catalog, counted from the lexeme bitmaps
 * (textSets): the full matches or, when the query may relax and there are none, the relaxed
 * ones; pending products and the category scope are left out. One row: `matches`, `full`
 * (some settled product is a full match: the query does not relax in the whole catalog) and
 * `chunks` of the catalog. For isBroad, an estimate that only picks the cheaper of two exact ways.
 */
export function textBreadth(text: TextMatch): Prisma.Sql {
  return sql`
    WITH base_scope AS (SELECT chunk, bits FROM facet_bitmaps WHERE dim = 'a' AND key = ''), ${textSets(text)}
    SELECT (CASE WHEN ${text.relax} AND n.every = 0 THEN n.some ELSE n.every END)::int AS matches, n.every > 0 AS full,
           (SELECT count(*) FROM base_scope)::int AS chunks
    FROM (SELECT coalesce(sum(bit_count(t.every & s.bits)), 0) AS every, coalesce(sum(bit_count(t.some & s.bits)), 0) AS some
          FROM text_bits t JOIN base_scope s ON s.chunk = t.chunk) n`;
}

/** Whether a text query of this textBreadth is broad (see BROAD_MATCHES_PER_CHUNK). */
export function isBroad({ matches, chunks }: { matches: number; chunks: number }, { offerFiltered }: { offerFiltered: boolean }) {
  return matches >= (offerFiltered ? BROAD_MATCHES_PER_CHUNK.offerFiltered : BROAD_MATCHES_PER_CHUNK.plain) * chunks;
}

/**
 * The text query's matching set per chunk of the scope, from the lexeme bitmaps (dim 'w',
 * migration 20261210000000_lexeme_bitmaps), exactly as the tsqueries `every` and `some` match a
 * settled product's document: plainto_tsquery of a word is the AND of its lexemes (a word of no
 * lexeme, a stop word, is left out of an OR or an AND as tsquery operators leave an empty
 * operand); a group is the OR of its forms, `every` the AND of the groups less each excluded
 * word, `some` their OR less the same. A chunk without a lexeme's row has none of it.
 * Then `text_mode`: relaxed when the query may relax and no product in scope (settled, from
 * `every`'s bits; pending, from its row) is a full match.
 */
function textBits(text: BitmapText): Prisma.Sql {
  return sql`
    ${textSets(text)}, ${TEXT_MODE} AS MATERIALIZED (
      SELECT ${text.relax} AND NOT (
               EXISTS (SELECT 1 FROM text_bits t JOIN base_scope s ON s.chunk = t.chunk WHERE bit_count(t.every & s.bits) > 0)
               OR ${text.pendingFull}) AS relaxed
    ), scope AS (
      SELECT s.chunk, s.bits & CASE WHEN m.relaxed THEN t.some ELSE t.every END AS bits
      FROM base_scope s JOIN text_bits t ON t.chunk = s.chunk CROSS JOIN ${TEXT_MODE} m
    )`;
}

/**
 * The CTEs of textBits up to `text_bits` (chunk, every, some) for the chunks of `base_scope`,
 * which the statement defines.
 */
function textSets(text: TextMatch): Prisma.Sql {
  return sql`
    text_forms AS MATERIALIZED (
      SELECT f.grp, f.form, tsvector_to_array(to_tsvector('catalog', f.word)) AS lexemes
      FROM unnest(${text.forms.map((f) => f.group)}::int[], ${text.forms.map((f) => f.word)}::text[])
           WITH ORDINALITY AS f(grp, word, form)
    ), form_bits AS (
      SELECT f.grp, f.form, fb.chunk, bit_and(fb.bits) AS bits
      FROM text_forms f CROSS JOIN LATERAL unnest(f.lexemes) AS l(lexeme)
      CROSS JOIN LATERAL (
        SELECT fb.chunk, fb.bits FROM facet_bitmaps fb
        WHERE fb.dim = 'w' AND fb.key = l.lexeme AND fb.chunk IN (SELECT chunk FROM base_scope)) fb
      GROUP BY f.grp, f.form, fb.chunk
      HAVING count(*) = max(cardinality(f.lexemes))
    ), group_bits AS (
      SELECT grp, chunk, bit_or(bits) AS bits FROM form_bits GROUP BY grp, chunk
    ), text_bits AS (
      SELECT s.chunk,
             CASE WHEN a.n > 0 AND a.n = (SELECT count(DISTINCT grp) FROM text_forms WHERE grp >= 0 AND cardinality(lexemes) > 0)
                  THEN a.every ELSE facet_zero_bits() END & ~coalesce(x.bits, facet_zero_bits()) AS every,
             coalesce(a.some, facet_zero_bits()) & ~coalesce(x.bits, facet_zero_bits()) AS some
      FROM base_scope s
      LEFT JOIN (SELECT chunk, count(*) AS n, bit_and(bits) AS every, bit_or(bits) AS some FROM group_bits WHERE grp >= 0 GROUP BY chunk) a
        ON a.chunk = s.chunk
      LEFT JOIN group_bits x ON x.grp = -1 AND x.chunk = s.chunk
    )`;
}

/** Word groups up to which a relaxed page may be bounded (relaxedClasses counts 2^k - 1 classes). */
export const MAX_RELAXED_GROUPS = 5;

/**
 * The highest ts_rank of a product for a query (weights at most 1, no normalisation): PostgreSQL's
 * calc_rank_or gives each query word at most (1 + pi^2/6) / (pi^2/6) = 1.608 and averages them;
 * calc_rank_and stays below 1.
 */
const TS_RANK_MAX = 1.61;

/**
 * For a relaxed page (./text-match.ts, withRelaxed): the products matching some word group, in
 * classes by the set of groups each contains, counted from the lexeme bitmaps for the settled
 * products and from their rows for the pending ones (`groups[i]`: group i's tsquery). A product
 * of class S covers C(S) = the sum over S of idf_i over the sum of all idf_i, idf_i =
 * ln(1 + n / d_i) over the n matches, d_i of them containing group i; its relaxed score is
 * 10 C(S) + base, base = title score + typed bonus (at most `typedBonus`) + ts_rank (0 to
 * TS_RANK_MAX) - title length (0 to 1). Without a title score, base lies in (-1, typedBonus +
 * TS_RANK_MAX].
 *
 * theta: the highest C with at least `limit` matches covering C or more. Those `limit` matches
 * (each on the page's list: no brand or offer filter, and every product_search row has an
 * offer) score above 10 theta - 1, so the page's last row does too; a product without a title score
 * covering less than theta - (typedBonus + TS_RANK_MAX + 1) / 10 scores below that, and is left
 * out. The classes kept are an up-set (a superset of a kept class covers as much), so a product
 * is kept exactly when it contains every group of one of the least kept classes: `rx_query` is
 * the OR of those classes' ANDs (with `exclusions`), read from the text index; the caller adds
 * the titles that score. NULL when fewer than `limit` products match: every match is ranked.
 *
 * CTEs: rx_df (n, d0, d1, ... as the ranking's df) and rx_query (q).
 */
export function relaxedClasses(args: {
  text: TextMatch;
  scopePath: string | null;
  inScope: Prisma.Sql;
  limit: number;
  typedBonus: number;
  exclusions: Prisma.Sql;
}): Prisma.Sql {
  const { text, scopePath, inScope, limit, typedBonus, exclusions } = args;
  const k = text.groups.length;
  const scopeRow = scopePath === null ? sql`fb.dim = 'a' AND fb.key = ''` : sql`fb.dim = 'c' AND fb.key = ${scopePath}`;
  const bit = (i: number) => Prisma.raw(String(1 << i));
  const idf = (i: number) => Prisma.raw(`ln(1 + df.n / greatest(df.d${i}, 1))`);
  const spread = (typedBonus + TS_RANK_MAX + 1) / 10;
  return sql`
    rx_pending AS (
      SELECT m.ordinal / facet_chunk_bits() AS chunk, facet_bits_of(array_agg(m.ordinal % facet_chunk_bits())) AS bits
      FROM (SELECT DISTINCT product_id FROM facet_pending) p JOIN facet_members m ON m.product_id = p.product_id
      GROUP BY 1
    ), base_scope AS (
      SELECT fb.chunk, CASE WHEN p.bits IS NULL THEN fb.bits ELSE fb.bits & ~p.bits END AS bits
      FROM facet_bitmaps fb LEFT JOIN rx_pending p ON p.chunk = fb.chunk
      WHERE ${scopeRow}
    ), ${textSets(text)}, rx_groups AS (
      SELECT g.i, g.q FROM (VALUES ${Prisma.join(text.groups.map((g, i) => sql`(${i}::int, ${g})`))}) AS g(i, q)
    ), rx_masks AS (
      -- A group of no lexeme matches nothing: no product is in a class holding it.
      SELECT m.mask FROM generate_series(1, ${(1 << k) - 1}) AS m(mask)
      WHERE m.mask & (SELECT coalesce(bit_or(1 << g.i), 0) FROM rx_groups g WHERE numnode(g.q) = 0) = 0
    ), rx_within AS MATERIALIZED (
      -- Per chunk, the settled products in scope without an excluded word.
      SELECT s.chunk, s.bits & ~coalesce(x.bits, facet_zero_bits()) AS bits
      FROM base_scope s LEFT JOIN group_bits x ON x.grp = -1 AND x.chunk = s.chunk
    ), rx_supersets AS (
      -- N(T): those holding every group of T (at least), T grown one group at a time; a chunk
      -- without a group's row holds none of it.
      WITH RECURSIVE t(mask, top, chunk, bits) AS (
        SELECT 1 << g.grp, g.grp, g.chunk, w.bits & g.bits FROM rx_within w JOIN group_bits g ON g.chunk = w.chunk AND g.grp >= 0
        UNION ALL
        SELECT t.mask | (1 << g.grp), g.grp, t.chunk, t.bits & g.bits FROM t JOIN group_bits g ON g.chunk = t.chunk AND g.grp > t.top
      )
      SELECT mask, sum(bit_count(bits)) AS n FROM t GROUP BY mask
    ), rx_settled AS (
      -- Exactly the groups of S: the sum over T containing S of (-1)^|T - S| N(T).
      SELECT m.mask, sum(CASE WHEN bit_count((t.mask # m.mask)::bit(32)) % 2 = 0 THEN t.n ELSE -t.n END) AS n
      FROM rx_masks m JOIN rx_supersets t ON t.mask & m.mask = m.mask
      GROUP BY m.mask
    ), rx_pending_rows AS (
      SELECT (${Prisma.join(text.groups.map((g, i) => sql`CASE WHEN ps.search_vector @@ ${g} THEN ${bit(i)} ELSE 0 END`), " + ")}) AS mask
      FROM product_search ps
      WHERE ps.product_id IN (SELECT product_id FROM facet_pending) AND ${inScope} AND ps.search_vector @@ ${text.some}
    ), rx_class AS (
      SELECT m.mask, coalesce(s.n, 0) + (SELECT count(*) FROM rx_pending_rows r WHERE r.mask = m.mask) AS n
      FROM rx_masks m LEFT JOIN rx_settled s ON s.mask = m.mask
    ), rx_df AS (
      SELECT coalesce(sum(n), 0)::float8 AS n,
             ${Prisma.join(text.groups.map((_, i) => sql`coalesce(sum(n) FILTER (WHERE mask & ${bit(i)} <> 0), 0)::float8 AS ${Prisma.raw(`d${i}`)}`))}
      FROM rx_class
    ), rx_cover AS (
      SELECT c.mask, c.n,
             (${Prisma.join(text.groups.map((_, i) => sql`CASE WHEN c.mask & ${bit(i)} <> 0 THEN ${idf(i)} ELSE 0 END`), " + ")})
             / (${Prisma.join(text.groups.map((_, i) => idf(i)), " + ")}) AS cover
      FROM rx_class c CROSS JOIN rx_df df
      WHERE df.n > 0
    ), rx_theta AS (
      SELECT max(t.cover) AS theta FROM (SELECT cover, sum(n) OVER (ORDER BY cover DESC) AS cum FROM rx_cover) t WHERE t.cum >= ${limit}
    ), rx_kept AS (
      SELECT c.mask FROM rx_cover c WHERE c.cover >= (SELECT theta FROM rx_theta) - ${spread + 0.001}
    ), rx_query AS (
      SELECT (
        SELECT string_agg('(' || (SELECT string_agg('(' || g.q::text || ')', ' & ') FROM rx_groups g WHERE m.mask & (1 << g.i) <> 0) || ')', ' | ')
        FROM rx_kept m WHERE NOT EXISTS (SELECT 1 FROM rx_kept l WHERE l.mask <> m.mask AND l.mask & m.mask = l.mask)
      )::tsquery ${exclusions} AS q
    )`;
}

/**
 * The buckets exactly covered by [min, max) (max exclusive), or undefined when a bound is not a
 * bucket bound (then the bitmaps cannot answer and the caller counts by scanning).
 */
export function bucketsInRange(buckets: PriceBucket[], min: number | null, max: number | null): number[] | null | undefined {
  if (min === null && max === null) return null;
  const bounds = buckets.map((b) => b.min);
  if (min !== null && !bounds.includes(min)) return undefined;
  if (max !== null && !bounds.includes(max)) return undefined;
  return buckets.flatMap((b, i) => (b.min >= (min ?? 0) && (b.max ?? Infinity) <= (max ?? Infinity) ? [i] : []));
}

const pairKeys = (conditions: number[], buckets: number[], bucketCount: number) =>
  conditions.flatMap((c) => buckets.map((b) => String(c * bucketCount + b)));

/** Condition positions and bucket indexes the filters keep (all of them where there is no filter). */
function wanted({ conditions, buckets, bucketCount }: BitmapCountsInput) {
  return {
    conditions: (conditions ?? CONDITIONS).map((c) => CONDITIONS.indexOf(c)),
    buckets: buckets ?? Array.from({ length: bucketCount }, (_, i) => i),
  };
}

/**
 * facet_member_pairs rows (alias p) of the settled state that pass the filters: the brands (if
 * any), a wanted (condition, price bucket) pair, the subtree. Read by the index
 * facet_member_pairs_browse (brand, pair, path) or, without brands, facet_member_pairs_scope
 * (pair, path) (migrations 20261128000000_facet_member_pairs, 20261129000100_facet_member_pairs_prices);
 * a product is there once per passing pair.
 */
function pairFilters(input: BitmapCountsInput): Prisma.Sql {
  const { scope, brandIds, bucketCount } = input;
  const keep = wanted(input);
  const filters = [
    ...(brandIds === null ? [] : [sql`p.brand_id = ANY(${brandIds}::uuid[])`]),
    sql`p.pair = ANY(${pairKeys(keep.conditions, keep.buckets, bucketCount).map(Number)}::smallint[])`,
  ];
  // The range beside `<@` lets the index serve the subtree.
  if (scope) {
    filters.push(sql`p.category_path <@ ${scope.path}::ltree
                     AND p.category_path >= ${scope.path}::ltree AND p.category_path < ${`${scope.path}0`}::ltree`);
  }
  return Prisma.join(filters, " AND ");
}

/**
 * The first `limit` settled products (not pending) passing the filters, in the order `orderBy`
 * gives over the columns product_id, score (0: a browse has no text), rating_count,
 * published_at and min_price, all read from facet_member_pairs. Exact for them: a settled
 * product's pair rows are its row's facet state, sort keys and offer prices, its pairs answer
 * the offer filters exactly, and its card price under them is the lowest of its passing pairs'
 * prices. The pending products are the caller's, from their rows.
 *
 * A product has one row per wanted pair it has, at most `pairs` rows. Sorted by rating, date or
 * ascending price, each product's first row in row order carries its key (the sort keys are the
 * same on all its rows; the lowest price is its price), so the first `limit * pairs` rows hold
 * the first `limit` products: a bounded sort of the passing rows, then one row per product.
 * Sorted by descending price, a product's key is the lowest of its rows, so every passing row is
 * grouped first.
 */
export function settledPage(
  input: BitmapCountsInput,
  sort: "relevance" | "newest" | "price_asc" | "price_desc",
  orderBy: (alias: string) => Prisma.Sql,
  limit: number,
): Prisma.Sql {
  const keep = wanted(input);
  const pairs = keep.conditions.length * keep.buckets.length;
  const rows = sql`
    SELECT p.product_id, 0::float8 AS score, p.rating_count, p.published_at, p.min_price
    FROM facet_member_pairs p
    WHERE ${pairFilters(input)} AND p.product_id NOT IN (SELECT fp.product_id FROM facet_pending fp)`;
  const firstRows =
    sort === "price_desc" ? rows : sql`SELECT s.* FROM (${rows}) s ORDER BY ${orderBy("s")} LIMIT ${limit * pairs}`;
  return sql`
    SELECT g.* FROM (
      SELECT t.product_id, t.score, t.rating_count, t.published_at, min(t.min_price) AS min_price
      FROM (${firstRows}) t
      GROUP BY t.product_id, t.score, t.rating_count, t.published_at) g
    ORDER BY ${orderBy("g")}
    LIMIT ${limit}`;
}

/** The bitmap part of the counts statement: rows shaped as search.ts's CountRow. */
export function bitmapCounts(input: BitmapCountsInput): Prisma.Sql {
  const { scope, brandIds, conditions, buckets, bucketCount } = input;
  const text = input.text ?? null;
  const { conditions: allConditions, buckets: allBuckets } = wanted({ ...input, conditions: null, buckets: null });
  const { conditions: wantedConditions, buckets: wantedBuckets } = wanted(input);
  const offerFilter = conditions !== null || buckets !== null;

  // Scope rows: a category node's bitmap (its subtree), or every searchable product's.
  const scopeRow = scope ? sql`fb.dim = 'c' AND fb.key = ${scope.path}` : sql`fb.dim = 'a' AND fb.key = ''`;
  // Children of the scope: the category facet.
  const childRow = scope
    ? sql`left(fb.key, ${scope.path.length + 1}) = ${`${scope.path}.`} AND nlevel(fb.key::ltree) = ${scope.depth + 1}`
    : sql`nlevel(fb.key::ltree) = 1`;
  // OR of the pair rows with these keys, per chunk of the scope.
  const pairsUnion = (keys: string[]) => sql`
    SELECT fb.chunk, bit_or(fb.bits) AS bits FROM facet_bitmaps fb
    WHERE fb.dim = 'p' AND fb.key = ANY(${keys}::text[]) AND fb.chunk IN (SELECT chunk FROM scope) GROUP BY fb.chunk`;
  // Condition i over the price range, price bucket k over the condition set (disjunctive facets).
  const facetGroups = (set: "condition" | "price") => {
    const pairs = set === "condition" ? pairKeys(allConditions, wantedBuckets, bucketCount) : pairKeys(wantedConditions, allBuckets, bucketCount);
    const group = set === "condition" ? sql`fb.key::int / ${bucketCount}` : sql`fb.key::int % ${bucketCount}`;
    return sql`
      SELECT ${set} AS set, (1 << g.i)::text AS key, NULL::text AS label, 0 AS results, 0 AS any_brand,
             sum(bit_count(s.sb & g.bits))::int AS brand_rows, false AS relaxed
      FROM (SELECT fb.chunk, ${group} AS i, bit_or(fb.bits) AS bits FROM facet_bitmaps fb
            WHERE fb.dim = 'p' AND fb.key = ANY(${pairs}::text[]) AND fb.chunk IN (SELECT chunk FROM scope)
            GROUP BY 1, 2) g
      JOIN s ON s.chunk = g.chunk
      GROUP BY g.i`;
  };

  return sql`
    WITH pending AS (
      SELECT m.ordinal / facet_chunk_bits() AS chunk, facet_bits_of(array_agg(m.ordinal % facet_chunk_bits())) AS bits
      FROM (SELECT DISTINCT product_id FROM facet_pending) p JOIN facet_members m ON m.product_id = p.product_id
      GROUP BY 1
    ), ${text ? sql`base_scope` : sql`scope`} AS (
      SELECT fb.chunk, CASE WHEN pending.bits IS NULL THEN fb.bits ELSE fb.bits & ~pending.bits END AS bits
      FROM facet_bitmaps fb LEFT JOIN pending ON pending.chunk = fb.chunk
      WHERE ${scopeRow}
    ), ${text ? sql`${textBits(text)},` : Prisma.empty} brand_filter AS (
      ${brandIds === null
        ? sql`SELECT NULL::int AS chunk, NULL::varbit AS bits WHERE false`
        : sql`SELECT fb.chunk, bit_or(fb.bits) AS bits FROM facet_bitmaps fb
              WHERE fb.dim = 'b' AND fb.key = ANY(${brandIds}::text[]) AND fb.chunk IN (SELECT chunk FROM scope)
              GROUP BY fb.chunk`}
    ), offer_filter AS (
      ${offerFilter ? pairsUnion(pairKeys(wantedConditions, wantedBuckets, bucketCount)) : sql`SELECT NULL::int AS chunk, NULL::varbit AS bits WHERE false`}
    ), s AS (
      SELECT x.chunk, x.sb, x.so, x.sb & x.so AS sbo
      FROM (SELECT scope.chunk,
                   ${brandIds === null ? sql`scope.bits` : sql`scope.bits & coalesce(brand_filter.bits, facet_zero_bits())`} AS sb,
                   ${offerFilter ? sql`scope.bits & coalesce(offer_filter.bits, facet_zero_bits())` : sql`scope.bits`} AS so
            FROM scope
            LEFT JOIN brand_filter ON brand_filter.chunk = scope.chunk
            LEFT JOIN offer_filter ON offer_filter.chunk = scope.chunk) x
    )
    SELECT 'all' AS set, NULL::text AS key, NULL::text AS label,
           coalesce(sum(bit_count(s.sbo)), 0)::int AS results, coalesce(sum(bit_count(s.so)), 0)::int AS any_brand,
           coalesce(sum(bit_count(s.sb)), 0)::int AS brand_rows,
           ${text
             ? sql`(${text.dropped} OR (SELECT relaxed FROM ${TEXT_MODE})) AND EXISTS (SELECT 1 FROM scope WHERE bit_count(scope.bits) > 0)`
             : sql`false`} AS relaxed
    FROM s
    UNION ALL
    SELECT 'brand', br.slug, br.name, 0, x.n, 0, false
    FROM (SELECT fb.key, sum(bit_count(fb.bits & s.so))::int AS n
          FROM facet_bitmaps fb JOIN s ON s.chunk = fb.chunk WHERE fb.dim = 'b' GROUP BY fb.key) x
    JOIN brands br ON br.id = x.key::uuid
    UNION ALL
    SELECT 'category', c.slug, c.name, x.n, 0, 0, false
    FROM (SELECT fb.key, sum(bit_count(fb.bits & s.sbo))::int AS n
          FROM facet_bitmaps fb JOIN s ON s.chunk = fb.chunk WHERE fb.dim = 'c' AND ${childRow} GROUP BY fb.key) x
    JOIN categories c ON c.path = x.key::ltree AND c.active
    UNION ALL ${facetGroups("condition")}
    UNION ALL ${facetGroups("price")}`;
}
