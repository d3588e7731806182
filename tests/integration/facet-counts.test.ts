/**
 * Issue 14: a browse's counts come from the facet bitmaps (lib/catalog/facet-counts.ts) plus the
 * rows of products changed since the last compaction. Property: after random writes to listings,
 * stores, products and categories (with or without a compaction among them), for random filter
 * sets, the total and the four facets equal a plain COUNT(DISTINCT product) over purchasable
 * offers, and a page (its products, order, prices and offer counts; any sort, page and page size)
 * equals the same definition sorted (a browse of a category or by brand, filtered by offers,
 * picks it from facet_member_pairs, by rating, date or price, with the pending products' rows).
 * Issue 35: with a text query too (word groups with alternatives, excluded words, the relaxed
 * fallback), counted from the lexeme bitmaps, the counts equal the same COUNT(DISTINCT) over the
 * products whose document matches (and whether the match was relaxed). Each
 * run is a transaction that is rolled back, on a small catalog of this file's own,
 * in a database of its own (embedded or on the PostgreSQL server, as the run is).
 *
 * FACET_PROPERTY_RUNS (default 300) and FACET_PROPERTY_SEED (default fixed) change the run; a
 * failure prints the seed and the shrunk case.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/db";
import { lcg, ownDatabase } from "../helpers/own-database";
import { mergeCountRows, searchProducts, searchStatements, summarizeCounts, type CountRow } from "@/lib/catalog/search";
import { textBreadth } from "@/lib/catalog/facet-counts";
import { textMatch } from "@/lib/catalog/text-match";
import { priceBuckets, type PriceBucket } from "@/lib/catalog/price-buckets";
import { CONDITIONS, SearchQuery, type SearchParams } from "@/lib/schemas/catalog";
import type { TextQuery } from "@/lib/catalog/interpret";

const RUNS = Number(process.env.FACET_PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.FACET_PROPERTY_SEED ?? 20261126);

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// A catalog of its own: 6 categories in two trees (products at inner nodes too), 4 brands,
// 2 stores, 60 products with 1-4 listings each.
const CATEGORIES = [
  { slug: "t1", path: "t1" },
  { slug: "t1a", path: "t1.t1a" },
  { slug: "t1b", path: "t1.t1b" },
  { slug: "t1ax", path: "t1.t1a.t1ax" },
  { slug: "t2", path: "t2" },
  { slug: "t2c", path: "t2.t2c" },
];
const BRANDS = ["b1", "b2", "b3", "b4"];
const PRICES = [0, 100, 2499, 2500, 4999, 5000, 9999, 10000, 19999, 20000, 49999, 50000, 120000];
const PRODUCTS = 60;
// Title words (none a stop word): common ones, rare ones, one of several lexemes, and one no
// title has at first.
const WORDS = ["red", "blue", "wool", "cotton", "lamp", "chair", "velvet", "wool-felt", "zebra"];
// Every passing product fits on the page compared (spec 4.1's largest page size).
const PAGE_SIZE = 60;

let client: PrismaClient;
let drop: () => Promise<void>;
let buckets: PriceBucket[];
let listingIds: string[] = [];
let productIds: string[] = [];
let storeIds: string[] = [];
let categoryIds: string[] = [];
let brandIds: string[] = [];

async function seedOwnCatalog(db: PrismaClient) {
  for (const c of CATEGORIES) {
    const parent = c.path.includes(".") ? c.path.slice(0, c.path.lastIndexOf(".")) : null;
    await db.$executeRaw`
      INSERT INTO categories (slug, name, path, parent_id)
      VALUES (${c.slug}, ${`Category ${c.slug}`}, ${c.path}::ltree, (SELECT id FROM categories WHERE path = ${parent}::ltree))`;
  }
  for (const b of BRANDS) await db.$executeRaw`INSERT INTO brands (slug, name) VALUES (${b}, ${`Brand ${b}`})`;
  for (const s of ["store-one", "store-two"]) await db.$executeRaw`INSERT INTO stores (slug, name) VALUES (${s}, ${s})`;
  categoryIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM categories ORDER BY path`).map((r) => r.id);
  brandIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM brands ORDER BY slug`).map((r) => r.id);
  storeIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM stores ORDER BY slug`).map((r) => r.id);
  const next = lcg(7);
  for (let i = 0; i < PRODUCTS; i++) {
    const brand = next(5);
    await db.$executeRaw`
      INSERT INTO products (slug, title, category_id, brand_id, publicly_listed, published_at)
      VALUES (${`p${i}`}, ${`Product ${i} ${WORDS[next(4)]} ${WORDS[next(WORDS.length - 1)]}`}, ${categoryIds[next(categoryIds.length)]}::uuid,
              ${brand === 4 ? null : brandIds[brand]}::uuid, ${i % 10 !== 9}, now())`;
  }
  productIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM products ORDER BY slug`).map((r) => r.id);
  for (const [i, productId] of productIds.entries()) {
    for (let k = 0, n = 1 + next(4); k < n; k++) {
      const price = PRICES[next(PRICES.length)]!;
      await db.$executeRaw`
        INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status)
        VALUES (${storeIds[next(2)]}::uuid, ${productId}::uuid, ${`sku-${i}-${k}`},
                ${CONDITIONS[next(CONDITIONS.length)]}::listing_condition, ${price}, ${price}, ${next(4)}, ${next(8) === 0},
                ${next(6) === 0 ? "inactive" : "active"}::listing_status)`;
    }
  }
  listingIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM listings ORDER BY sku`).map((r) => r.id);
  await db.$executeRawUnsafe("SELECT rebuild_facet_bitmaps()");
}

// ---- writes ----------------------------------------------------------------------------------

const at = <T,>(xs: T[], i: number) => xs[i % xs.length]!;
const write = fc.oneof(
  fc.record({ op: fc.constant("quantity" as const), listing: fc.nat(), quantity: fc.integer({ min: 0, max: 3 }), backorder: fc.boolean() }),
  fc.record({ op: fc.constant("price" as const), listing: fc.nat(), price: fc.constantFrom(...PRICES) }),
  fc.record({ op: fc.constant("condition" as const), listing: fc.nat(), condition: fc.constantFrom(...CONDITIONS) }),
  fc.record({ op: fc.constant("status" as const), listing: fc.nat(), status: fc.constantFrom("active", "inactive", "draft") }),
  fc.record({ op: fc.constant("add" as const), product: fc.nat(), store: fc.nat(), condition: fc.constantFrom(...CONDITIONS), price: fc.constantFrom(...PRICES) }),
  fc.record({ op: fc.constant("delete" as const), listing: fc.nat() }),
  fc.record({ op: fc.constant("store" as const), store: fc.nat(), status: fc.constantFrom("active", "suspended") }),
  fc.record({ op: fc.constant("move" as const), product: fc.nat(), category: fc.nat() }),
  fc.record({ op: fc.constant("brand" as const), product: fc.nat(), brand: fc.integer({ min: -1, max: BRANDS.length - 1 }) }),
  fc.record({ op: fc.constant("listed" as const), product: fc.nat(), listed: fc.boolean() }),
  // A new document: the lexeme bitmaps of a settled product must follow its title.
  fc.record({ op: fc.constant("retitle" as const), product: fc.nat(), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant("category" as const), category: fc.nat(), active: fc.boolean() }),
  // The sort keys facet_member_pairs keeps (a settled product's must be its row's; prices above).
  fc.record({ op: fc.constant("rating" as const), product: fc.nat(), count: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant("published" as const), product: fc.nat(), day: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }) }),
  // A compaction, sometimes of only a few of the pending products (the rest stay pending).
  fc.record({ op: fc.constant("compact" as const), max: fc.oneof(fc.constant(10_000), fc.integer({ min: 1, max: 5 })) }),
);
type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;

async function apply(tx: Tx, w: Write) {
  switch (w.op) {
    case "quantity":
      await tx.$executeRaw`UPDATE listings SET quantity = ${w.quantity}, allow_backorder = ${w.backorder} WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
    case "price":
      await tx.$executeRaw`UPDATE listings SET price_cents = ${w.price}, list_price_cents = ${w.price} WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
    case "condition":
      await tx.$executeRaw`UPDATE listings SET condition = ${w.condition}::listing_condition WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
    case "status":
      await tx.$executeRaw`UPDATE listings SET status = ${w.status}::listing_status WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
    case "add":
      await tx.$executeRaw`
        INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, status)
        VALUES (${at(storeIds, w.store)}::uuid, ${at(productIds, w.product)}::uuid, ${`new-${randomBytes(6).toString("hex")}`},
                ${w.condition}::listing_condition, ${w.price}, ${w.price}, 2, 'active')`;
      break;
    case "delete":
      await tx.$executeRaw`DELETE FROM listings WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
    case "store":
      await tx.$executeRaw`UPDATE stores SET status = ${w.status}::store_status WHERE id = ${at(storeIds, w.store)}::uuid`;
      break;
    case "move":
      await tx.$executeRaw`UPDATE products SET category_id = ${at(categoryIds, w.category)}::uuid WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "brand":
      await tx.$executeRaw`UPDATE products SET brand_id = ${w.brand < 0 ? null : brandIds[w.brand]}::uuid WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "listed":
      await tx.$executeRaw`UPDATE products SET publicly_listed = ${w.listed} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "retitle":
      await tx.$executeRaw`UPDATE products SET title = ${`Item ${w.words.join(" ")}`} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "category":
      await tx.$executeRaw`UPDATE categories SET active = ${w.active} WHERE id = ${at(categoryIds, w.category)}::uuid`;
      break;
    case "rating":
      await tx.$executeRaw`UPDATE products SET rating_count = ${w.count} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "published":
      await tx.$executeRaw`
        UPDATE products SET published_at = ${w.day === null ? null : `2026-11-0${w.day}T00:00:00Z`}::timestamptz
        WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "compact":
      await tx.$queryRaw`SELECT compact_facet_bitmaps(${w.max}::int)`;
      break;
  }
}

// ---- filters ---------------------------------------------------------------------------------

const BOUNDS = [0, 2500, 5000, 10000, 20000, 50000];
const filterSet = fc.record({
  category: fc.option(fc.constantFrom(...CATEGORIES), { nil: null }),
  brands: fc.option(fc.uniqueArray(fc.constantFrom(...BRANDS, "no-such-brand"), { minLength: 1, maxLength: 3 }), { nil: null }),
  conditions: fc.option(fc.uniqueArray(fc.constantFrom(...CONDITIONS), { minLength: 1, maxLength: 4 }), { nil: null }),
  // Mostly bucket bounds (the bitmaps answer), sometimes any price (the scan answers).
  min: fc.option(fc.oneof({ arbitrary: fc.constantFrom(...BOUNDS), weight: 6 }, { arbitrary: fc.constantFrom(1, 4999, 30000), weight: 1 }), { nil: null }),
  max: fc.option(fc.oneof({ arbitrary: fc.constantFrom(...BOUNDS.slice(1)), weight: 6 }, { arbitrary: fc.constantFrom(100, 7777), weight: 1 }), { nil: null }),
  sort: fc.constantFrom("relevance", "newest", "price_asc", "price_desc") as fc.Arbitrary<SearchParams["sort"]>,
  // The largest page holds every passing product; the small ones cut the order short.
  pageSize: fc.constantFrom<number>(PAGE_SIZE, 7, 2),
  page: fc.integer({ min: 1, max: 3 }),
  // A text query read as interpretQuery would: word groups (a word and its alternatives), words
  // excluded, whether a word was dropped, literal (no relaxed fallback).
  text: fc.option(
    fc.record({
      groups: fc.array(fc.uniqueArray(fc.constantFrom(...WORDS, "brand", "product", "red-wool"), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }),
      excluded: fc.array(fc.constantFrom(...WORDS), { maxLength: 1 }),
      dropped: fc.boolean(),
      strict: fc.boolean(),
    }),
    { nil: null, freq: 2 },
  ),
});
type FilterSet = typeof filterSet extends fc.Arbitrary<infer F> ? F : never;

interface Expected {
  page: Array<{ id: string; min_price_cents: number; offer_count: number }>;
  total: number;
  category: Record<string, number>;
  brand: Record<string, number>;
  condition: Record<string, number>;
  price: Record<string, number>;
  /** With a text query: whether its match was relaxed. */
  relaxed?: boolean;
}

const textQueryOf = (t: NonNullable<FilterSet["text"]>): TextQuery => ({
  groups: t.groups.map(([word, ...alternatives]) => ({ word: word!, known: true, alternatives })),
  excluded: t.excluded,
  dropped: t.dropped ? ["qqq"] : [],
  key: t.groups.map((g) => g[0]).join(" "),
  corrected: null,
  strict: t.strict,
});

/**
 * Products whose document matches the text by definition: every group has one of its words,
 * no excluded word is there; when none in scope does and the query may relax (several groups,
 * not literal), those with any group's word. Null without text.
 */
async function textMatches(tx: Tx, f: FilterSet): Promise<{ ids: string[]; relaxed: boolean; full: number } | null> {
  if (!f.text) return null;
  const has = (word: string) => `ps.search_vector @@ plainto_tsquery('catalog', '${word}')`;
  const groups = f.text.groups.map((g) => `(${g.map(has).join(" OR ")})`);
  const none = f.text.excluded.map((w) => `NOT ${has(w)}`);
  const ids = async (test: string) =>
    (await tx.$queryRawUnsafe<{ id: string }[]>(
      `SELECT ps.product_id::text AS id FROM product_search ps WHERE ($1::ltree IS NULL OR ps.category_path <@ $1::ltree) AND ${test}`,
      f.category?.path ?? null,
    )).map((r) => r.id);
  const full = await ids([...groups, ...none].join(" AND "));
  if (full.length > 0 || groups.length === 1 || f.text.strict) return { ids: full, relaxed: f.text.dropped && full.length > 0, full: full.length };
  const some = await ids([`(${groups.join(" OR ")})`, ...none].join(" AND "));
  return { ids: some, relaxed: some.length > 0, full: 0 };
}

/** The counts by definition: COUNT(DISTINCT product) over purchasable offers, one query per facet. */
async function reference(tx: Tx, f: FilterSet): Promise<Expected> {
  const scope = f.category?.path ?? null;
  const depth = f.category ? f.category.path.split(".").length : 0;
  const offers = `
    SELECT p.id AS product_id, p.rating_count, p.published_at, c.path, b.slug AS brand, l.condition::text AS condition, l.price_cents AS price
    FROM products p JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id
    JOIN listings l ON l.product_id = p.id JOIN stores s ON s.id = l.store_id
    WHERE offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)`;
  // Every statement declares all five parameters, whichever it uses.
  const text = await textMatches(tx, f);
  const filters =
    "(SELECT $1::ltree AS scope, $2::text[] AS brands, $3::text[] AS conditions, $4::int AS min, $5::int AS max, $6::uuid[] AS text) f";
  const inScope = "(f.scope IS NULL OR o.path <@ f.scope) AND (f.text IS NULL OR o.product_id = ANY(f.text))";
  const brandOk = "(f.brands IS NULL OR o.brand = ANY(f.brands))";
  const conditionOk = "(f.conditions IS NULL OR o.condition = ANY(f.conditions))";
  const priceOk = "((f.min IS NULL OR o.price >= f.min) AND (f.max IS NULL OR o.price < f.max))";
  const args = [scope, f.brands, f.conditions, f.min, f.max, text?.ids ?? null];
  const grouped = async (key: string, where: string[], join = "") => {
    const rows = await tx.$queryRawUnsafe<{ k: string; n: number }[]>(
      `SELECT ${key} AS k, count(DISTINCT o.product_id)::int AS n FROM ${filters}, (${offers}) o ${join}
       WHERE ${where.join(" AND ")} GROUP BY 1`,
      ...args,
    );
    return Object.fromEntries(rows.filter((r) => r.k !== null && r.n > 0).map((r) => [r.k, r.n]));
  };
  const [total] = await tx.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(DISTINCT o.product_id)::int AS n FROM ${filters}, (${offers}) o WHERE ${[inScope, brandOk, conditionOk, priceOk].join(" AND ")}`,
    ...args,
  );
  // The page as a browse sorts it (relevance without text: most rated first; every sort then by
  // id), with each card's cheapest passing offer and the number of passing offers. (A text
  // query's page is text-page.test.ts's: here only its counts are compared.)
  const order = {
    relevance: "max(o.rating_count) DESC",
    newest: "max(o.published_at) DESC NULLS LAST",
    price_asc: "min(o.price) ASC",
    price_desc: "min(o.price) DESC",
  }[f.sort];
  const page = text ? [] : await tx.$queryRawUnsafe<{ id: string; min_price_cents: number; offer_count: number }[]>(
    `SELECT o.product_id::text AS id, min(o.price)::int AS min_price_cents, count(*)::int AS offer_count
     FROM ${filters}, (${offers}) o WHERE ${[inScope, brandOk, conditionOk, priceOk].join(" AND ")}
     GROUP BY o.product_id ORDER BY ${order}, o.product_id LIMIT ${f.pageSize} OFFSET ${(f.page - 1) * f.pageSize}`,
    ...args,
  );
  return {
    page,
    total: total!.n,
    category: await grouped("cat.slug", [inScope, brandOk, conditionOk, priceOk, `nlevel(o.path) > ${depth}`],
      `JOIN categories cat ON cat.path = subpath(o.path, 0, ${depth + 1}) AND cat.active`),
    brand: await grouped("o.brand", [inScope, conditionOk, priceOk]),
    condition: await grouped("o.condition", [inScope, brandOk, priceOk]),
    price: await grouped(`(SELECT b.value FROM (VALUES ${buckets.map((b) => `(${b.min}, ${b.max ?? "NULL"}, '${b.value}')`).join(", ")}) b(lo, hi, value)
                           WHERE o.price >= b.lo AND (b.hi IS NULL OR o.price < b.hi))`, [inScope, brandOk, conditionOk]),
    ...(text ? { relaxed: text.relaxed } : {}),
  };
}

async function fast(tx: Tx, f: FilterSet) {
  const params: SearchParams = {
    sort: f.sort,
    page: f.page,
    page_size: f.pageSize,
    ...(f.category ? { category: f.category.slug } : {}),
    ...(f.brands ? { brand: f.brands } : {}),
    ...(f.conditions ? { condition: f.conditions } : {}),
    ...(f.min !== null ? { price_min_cents: f.min } : {}),
    ...(f.max !== null ? { price_max_cents: f.max } : {}),
  } as SearchParams;
  const scope = f.category ? { path: f.category.path, depth: f.category.path.split(".").length } : null;
  const ids = f.brands
    ? (await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM brands WHERE slug = ANY(${f.brands}::text[])`).map((r) => r.id)
    : null;
  const text = f.text ? textQueryOf(f.text) : null;
  const { counts, page } = searchStatements(params, scope, ids, {}, text, buckets, { broadText: true });
  const summary = summarizeCounts(mergeCountRows(await tx.$queryRaw<CountRow[]>(counts)), buckets);
  const cards = text ? [] : await tx.$queryRaw<{ id: string; min_price_cents: number; offer_count: number }[]>(page);
  const asRecord = (entries: Array<{ value: string; count: number }>) => Object.fromEntries(entries.map((e) => [e.value, e.count]));
  return {
    usedBitmaps: counts.text.includes("facet_bitmaps"),
    usedLexemes: counts.text.includes("text_forms"),
    usedSettled: page.text.includes("p.product_id NOT IN (SELECT fp.product_id FROM facet_pending fp)"),
    counts: {
      page: cards.map((c) => ({ id: String(c.id), min_price_cents: c.min_price_cents, offer_count: c.offer_count })),
      total: summary.total,
      category: asRecord(summary.facets.category),
      brand: asRecord(summary.facets.brand),
      condition: asRecord(summary.facets.condition),
      price: asRecord(summary.facets.price),
      ...(text ? { relaxed: summary.relaxed } : {}),
    } satisfies Expected,
  };
}

/**
 * facet_member_pairs rows of settled products (not pending) that differ from their definition,
 * read from listings: one row per (condition, price bucket) pair of the product's purchasable
 * offers, with its brand, category path, sort keys and the pair's lowest price.
 */
async function pairRowsOffDefinition(tx: Tx): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    WITH expected AS (
      SELECT p.brand_id, ((array_position(enum_range(NULL::listing_condition), l.condition) - 1) * 6
                          + width_bucket(l.price_cents, ARRAY[0, 2500, 5000, 10000, 20000, 50000]) - 1)::smallint AS pair,
             c.path AS category_path, p.id AS product_id, p.rating_count, p.published_at, min(l.price_cents) AS min_price
      FROM products p JOIN categories c ON c.id = p.category_id
      JOIN listings l ON l.product_id = p.id JOIN stores s ON s.id = l.store_id
      WHERE offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)
        AND p.id NOT IN (SELECT product_id FROM facet_pending)
      GROUP BY 1, 2, 3, 4, 5, 6
    ), actual AS (
      SELECT brand_id, pair, category_path, product_id, rating_count, published_at, min_price FROM facet_member_pairs
      WHERE product_id NOT IN (SELECT product_id FROM facet_pending)
    )
    SELECT ((SELECT count(*) FROM (SELECT * FROM expected EXCEPT ALL SELECT * FROM actual) a)
          + (SELECT count(*) FROM (SELECT * FROM actual EXCEPT ALL SELECT * FROM expected) b))::int AS n`;
  return row!.n;
}

const aligned = (f: FilterSet) => (f.min === null || BOUNDS.includes(f.min)) && (f.max === null || BOUNDS.includes(f.max));

describe("facet counts from the bitmaps equal COUNT(DISTINCT) after random writes", () => {
  beforeAll(async () => {
    ({ client, drop } = await ownDatabase("facets"));
    await seedOwnCatalog(client);
    const [row] = await client.$queryRaw<{ bounds: number[] }[]>`SELECT catalog_price_bucket_bounds() AS bounds`;
    buckets = priceBuckets(row!.bounds);
  }, 180_000);
  afterAll(async () => drop?.());

  it("holds for the seeded state, from the bitmaps alone", async () => {
    await client.$transaction(async (tx) => {
      const [pending] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM facet_pending`;
      expect(pending!.n).toBe(0);
      const f: FilterSet = { category: null, brands: null, conditions: null, min: null, max: null, sort: "relevance", pageSize: PAGE_SIZE, page: 1, text: null };
      const got = await fast(tx, f);
      expect(got.usedBitmaps).toBe(true);
      expect(got.counts).toEqual(await reference(tx, f));
      expect(got.counts.total).toBeGreaterThan(20);
    });
  });

  it("a text query's breadth is its settled matches in the whole catalog (relaxed when it relaxes) and whether one is full", async () => {
    const noFilters = { category: null, brands: null, conditions: null, min: null, max: null, sort: "relevance", pageSize: PAGE_SIZE, page: 1 } as const;
    let relaxedSeen = 0;
    await client.$transaction(async (tx) => {
      await fc.assert(
        fc.asyncProperty(filterSet.map((f) => f.text).filter((t) => t !== null), async (text) => {
          const match = textMatch(textQueryOf(text));
          if (match === null) return;
          const [breadth] = await tx.$queryRaw<{ matches: number; full: boolean; chunks: number }[]>(textBreadth(match));
          const expected = (await textMatches(tx, { ...noFilters, text }))!;
          if (expected.relaxed && !text.dropped) relaxedSeen++;
          expect(breadth).toEqual({ matches: expected.ids.length, full: expected.full > 0, chunks: 1 });
        }),
        { numRuns: 150, seed: SEED },
      );
    }, { timeout: 120_000 });
    expect(relaxedSeen).toBeGreaterThan(5);
  });

  it("sorts by price among products with offers in several passing pairs", async () => {
    // A: new 6,000 and used 9,000; B: new 8,000; C: used 7,000; D: new 6,500 and new 9,800 (one
    // bucket, two conditions). By lowest passing price: A, D, C, B; neither A's dearer pair nor
    // D's dearer offer in the same pair may move them.
    const ROLLBACK = new Error("rollback");
    await expect(
      client.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO brands (slug, name) VALUES ('bp', 'Brand bp')`;
        for (const [slug, offers] of [["pa", [["new", 6000], ["used", 9000]]], ["pb", [["new", 8000]]], ["pc", [["used", 7000]]], ["pd", [["new", 6500], ["new", 9800]]]] as const) {
          await tx.$executeRaw`
            INSERT INTO products (slug, title, category_id, brand_id, publicly_listed, published_at)
            VALUES (${slug}, ${slug}, ${categoryIds[0]}::uuid, (SELECT id FROM brands WHERE slug = 'bp'), true, now())`;
          for (const [i, [condition, price]] of offers.entries()) {
            await tx.$executeRaw`
              INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, status)
              VALUES (${storeIds[0]}::uuid, (SELECT id FROM products WHERE slug = ${slug}), ${`${slug}-${i}`},
                      ${condition}::listing_condition, ${price}, ${price}, 2, 'active')`;
          }
        }
        await tx.$queryRaw`SELECT compact_facet_bitmaps(10000)`;
        expect(await pairRowsOffDefinition(tx)).toBe(0);
        for (const sort of ["price_desc", "price_asc"] as const) {
          for (const [pageSize, page] of [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [4, 1]]) {
            const f: FilterSet = { category: null, brands: ["bp"], conditions: ["new", "used"], min: 5000, max: 10000, sort, pageSize: pageSize!, page: page!, text: null };
            const got = await fast(tx, f);
            expect(got.usedSettled).toBe(true);
            expect(got.counts.page).toEqual((await reference(tx, f)).page);
          }
        }
        throw ROLLBACK;
      }),
    ).rejects.toBe(ROLLBACK);
  });

  it(`holds for ${RUNS} random write sequences and filter sets (seed ${SEED})`, async () => {
    const ROLLBACK = new Error("rollback");
    let bitmapRuns = 0;
    let settledRuns = 0;
    let brandlessRuns = 0;
    let priceRuns = 0;
    let textRuns = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 8 }), filterSet, async (writes, f) => {
        fc.pre(f.min === null || f.max === null || f.min < f.max);
        await expect(
          client.$transaction(
            async (tx) => {
              for (const w of writes) await apply(tx, w);
              expect(await pairRowsOffDefinition(tx)).toBe(0);
              const got = await fast(tx, f);
              expect(got.usedBitmaps).toBe(aligned(f));
              if (got.usedBitmaps) bitmapRuns++;
              // A browse of a category or by brand, filtered by offers that meet the bitmaps, picks
              // its page from facet_member_pairs (every sort: the pairs carry sort keys and prices).
              expect(got.usedLexemes).toBe(aligned(f) && f.text !== null);
              if (got.usedLexemes) textRuns++;
              const viaPairs =
                f.text === null && aligned(f) && (f.brands !== null || f.category !== null) && (f.conditions !== null || f.min !== null || f.max !== null);
              expect(got.usedSettled).toBe(viaPairs);
              if (got.usedSettled) settledRuns++;
              if (got.usedSettled && f.brands === null) brandlessRuns++;
              if (got.usedSettled && f.sort.startsWith("price")) priceRuns++;
              expect(got.counts).toEqual(await reference(tx, f));
              throw ROLLBACK;
            },
            { timeout: 60_000, maxWait: 60_000 },
          ),
        ).rejects.toBe(ROLLBACK);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Most runs must have exercised the bitmaps, not the scan.
    expect(bitmapRuns).toBeGreaterThan(RUNS / 2);
    expect(settledRuns).toBeGreaterThan(RUNS / 10);
    expect(brandlessRuns).toBeGreaterThan(RUNS / 20);
    expect(priceRuns).toBeGreaterThan(RUNS / 20);
    expect(textRuns).toBeGreaterThan(RUNS / 10);
  }, 600_000);

  it("a settled product's new rating or publication date moves it on a page sorted by them at once", async () => {
    await client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      const f: FilterSet = { category: null, brands: ["b1", "b2"], conditions: [...CONDITIONS], min: null, max: null, sort: "relevance", pageSize: 2, page: 1, text: null };
      const before = await fast(tx, f);
      expect(before.usedSettled).toBe(true);
      expect(before.counts.total).toBeGreaterThan(2);
      // The product last in the sort order jumps to the top once it is rated, then once it is the newest.
      const all = await fast(tx, { ...f, pageSize: PAGE_SIZE });
      const last = all.counts.page.at(-1)!.id;
      await tx.$executeRaw`UPDATE products SET rating_count = 1000 WHERE id = ${last}::uuid`;
      const rated = await fast(tx, f);
      expect(rated.counts.page[0]!.id).toBe(last);
      expect(rated.counts).toEqual(await reference(tx, f));
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      expect((await fast(tx, f)).counts).toEqual(await reference(tx, f));

      const newest: FilterSet = { ...f, sort: "newest" };
      const first = (await fast(tx, newest)).counts.page[0]!.id;
      const other = all.counts.page.find((p) => p.id !== first)!.id;
      await tx.$executeRaw`UPDATE products SET published_at = '2030-01-01T00:00:00Z' WHERE id = ${other}::uuid`;
      const republished = await fast(tx, newest);
      expect(republished.counts.page[0]!.id).toBe(other);
      expect(republished.counts).toEqual(await reference(tx, newest));
      throw new Error("rollback");
    }).catch((err: Error) => expect(err.message).toBe("rollback"));
  });

  it("a text query's counts follow titles through compactions, and a pending full match is not relaxed", async () => {
    await client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      const zebraRed: FilterSet = {
        category: null, brands: null, conditions: null, min: null, max: null, sort: "relevance", pageSize: PAGE_SIZE, page: 1,
        text: { groups: [["zebra"], ["red"]], excluded: [], dropped: false, strict: false },
      };
      const zebra: FilterSet = { ...zebraRed, text: { ...zebraRed.text!, groups: [["zebra"]] } };
      const [searchable] = await tx.$queryRaw<{ id: string }[]>`SELECT product_id::text AS id FROM product_search ORDER BY product_id LIMIT 1`;
      const id = searchable!.id;
      // No title has "zebra": the query relaxes to "red" alone.
      const relaxed = await fast(tx, zebraRed);
      expect(relaxed.counts).toEqual(await reference(tx, zebraRed));
      expect(relaxed.counts).toMatchObject({ relaxed: true });
      // The only full match is pending: not relaxed.
      await tx.$executeRaw`UPDATE products SET title = 'Item zebra red' WHERE id = ${id}::uuid`;
      const pending = await fast(tx, zebraRed);
      expect(pending.usedLexemes).toBe(true);
      expect(pending.counts).toEqual(await reference(tx, zebraRed));
      expect(pending.counts).toMatchObject({ relaxed: false });
      // Retitled twice, compacted after each: the first new title's words leave the bitmaps.
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      expect((await fast(tx, zebra)).counts.total).toBeGreaterThan(0);
      await tx.$executeRaw`UPDATE products SET title = 'Item red' WHERE id = ${id}::uuid`;
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      await tx.$executeRaw`UPDATE products SET title = 'Item oak' WHERE id = ${id}::uuid`;
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      for (const f of [zebra, zebraRed, { ...zebra, text: { ...zebra.text!, groups: [["red"]] } }]) {
        expect((await fast(tx, f)).counts).toEqual(await reference(tx, f));
      }
      expect((await fast(tx, zebra)).counts.total).toBe(0);
      throw new Error("rollback");
    }).catch((err: Error) => expect(err.message).toBe("rollback"));
  });

  it("words no product has together relax the search, in the whole catalog and in a category without a full match", async () => {
    await client.$transaction(async (tx) => {
      const [p0, p1, p2] = (await tx.$queryRaw<{ id: string }[]>`SELECT product_id::text AS id FROM product_search ORDER BY product_id LIMIT 3`).map((r) => r.id);
      const retitle = async (id: string, title: string, path: string) => {
        await tx.$executeRaw`UPDATE products SET title = ${title}, category_id = (SELECT id FROM categories WHERE path = ${path}::ltree) WHERE id = ${id}::uuid`;
      };
      await retitle(p0!, "Item quartz", "t1");
      await retitle(p1!, "Item onyx", "t1");
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      // Each query is worded anew: the search's per-process caches are not emptied by writes
      // that are not committed.
      const search = async (q: string, category?: string) =>
        searchProducts(tx, SearchQuery.parse({ q, page_size: "60", ...(category ? { category } : {}) }));
      const apart = await search("quartz onyx");
      expect(apart.interpretation.relaxed).toBe(true);
      expect(apart.data.map((c) => c.id).sort()).toEqual([p0, p1].sort());
      // A settled full match in t2: the whole catalog has it, t1 still relaxes.
      await retitle(p2!, "Item quartz onyx", "t2");
      await tx.$queryRaw`SELECT compact_facet_bitmaps()`;
      const together = await search("onyx quartz");
      expect(together.interpretation.relaxed).toBe(false);
      expect(together.data.map((c) => c.id)).toEqual([p2]);
      const inT1 = await search("onyx quartz", "t1");
      expect(inT1.interpretation.relaxed).toBe(true);
      expect(inT1.data.map((c) => c.id).sort()).toEqual([p0, p1].sort());
      expect(inT1.meta.total).toBe(2);
      throw new Error("rollback");
    }).catch((err: Error) => expect(err.message).toBe("rollback"));
  });

  it("compaction folds pending products into the bitmaps and empties facet_pending", async () => {
    await client.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE listings SET price_cents = price_cents + 2500 WHERE sku LIKE 'sku-1%'`;
      const [before] = await tx.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT product_id)::int AS n FROM facet_pending`;
      expect(before!.n).toBeGreaterThan(0);
      // In turns of at most max_products products: 2 now, the rest next.
      const [first] = await tx.$queryRaw<{ n: number }[]>`SELECT compact_facet_bitmaps(2) AS n`;
      expect(first!.n).toBe(2);
      const [between] = await tx.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT product_id)::int AS n FROM facet_pending`;
      expect(between!.n).toBe(before!.n - 2);
      const [done] = await tx.$queryRaw<{ n: number }[]>`SELECT compact_facet_bitmaps() AS n`;
      expect(done!.n).toBe(before!.n - 2);
      const [after] = await tx.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM facet_pending`;
      expect(after!.n).toBe(0);
      for (const f of [
        { category: null, brands: null, conditions: null, min: 2500, max: 10000, sort: "relevance", pageSize: PAGE_SIZE, page: 1, text: null },
        { category: CATEGORIES[0]!, brands: ["b1", "b2"], conditions: ["new", "used"], min: null, max: 20000, sort: "newest", pageSize: 7, page: 1, text: null },
      ] satisfies FilterSet[]) {
        expect((await fast(tx, f)).counts).toEqual(await reference(tx, f));
      }
      throw new Error("rollback");
    }).catch((err: Error) => expect(err.message).toBe("rollback"));
  });
});
