/**
 * Issue 14: the page of a one-word relevance search is read from search_title_postings
 * (lib/catalog/text-match.ts boundedPage) instead of ranking every match. Properties, after random
 * writes to titles, descriptions, brands, ratings and listings:
 * - search_title_postings holds exactly its definition: one row per searchable product and title
 *   lexeme, with that lexeme's ts_rank and the product's rating count;
 * - for random queries (words, half words, typos, exclusions) with random category and brand
 *   filters, pages and page sizes, and either way of reading titles that begin with the query,
 *   the page equals the one that ranks every match (products and order), and the bounded read is
 *   taken (not only its fallback) for at least a third of the full pages.
 * Each run is a transaction that is rolled back, on a small catalog of this file's own whose
 * titles, brands, categories and descriptions share a few words (and more titles begin with
 * "lamp" than a half word has completions), in a database of its own.
 *
 * TEXT_PAGE_RUNS (default 300) and TEXT_PAGE_SEED (default fixed) change the run.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma, PrismaClient } from "@/lib/db";
import { interpretStatement, readQuery, type WordRow } from "@/lib/catalog/interpret";
import { parseQuery } from "@/lib/catalog/query";
import { searchStatements } from "@/lib/catalog/search";
import { SearchQuery } from "@/lib/schemas/catalog";
import { lcg, ownDatabase } from "../helpers/own-database";

const RUNS = Number(process.env.TEXT_PAGE_RUNS ?? 300);
const SEED = Number(process.env.TEXT_PAGE_SEED ?? 20261127);

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// Few words, so that lists fill and ranks tie: a word may be a title, begin one, or occur only in
// a brand, category or description.
const WORDS = ["lamp", "lamps", "lampshade", "desk", "oak", "wireless", "headphones", "speaker", "speakers", "table", "walnut", "garden"];
const CATEGORIES = [
  { slug: "lighting", name: "Lamps and lighting", path: "lighting" },
  { slug: "desks", name: "Desk lamps", path: "lighting.desks" },
  { slug: "audio", name: "Wireless audio", path: "audio" },
];
const BRANDS = [
  { slug: "oakworks", name: "Oak Works" },
  { slug: "lampco", name: "Lamp Co" },
  { slug: "sonic", name: "Sonic" },
];
const PRODUCTS = 160;

let client: PrismaClient;
let drop: () => Promise<void>;
let productIds: string[] = [];
let listingIds: string[] = [];
let categoryIds: string[] = [];
let brandIds: string[] = [];

const phrase = (next: (n: number) => number, words: number) =>
  Array.from({ length: words }, () => WORDS[next(WORDS.length)]!).join(" ");

async function seedOwnCatalog(db: PrismaClient) {
  for (const c of CATEGORIES) {
    const parent = c.path.includes(".") ? c.path.slice(0, c.path.lastIndexOf(".")) : null;
    await db.$executeRaw`
      INSERT INTO categories (slug, name, path, parent_id)
      VALUES (${c.slug}, ${c.name}, ${c.path}::ltree, (SELECT id FROM categories WHERE path = ${parent}::ltree))`;
  }
  for (const b of BRANDS) await db.$executeRaw`INSERT INTO brands (slug, name) VALUES (${b.slug}, ${b.name})`;
  await db.$executeRaw`INSERT INTO stores (slug, name) VALUES ('text-store', 'Text store')`;
  categoryIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM categories ORDER BY path`).map((r) => r.id);
  brandIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM brands ORDER BY slug`).map((r) => r.id);
  const next = lcg(11);
  for (let i = 0; i < PRODUCTS; i++) {
    const brand = next(4);
    await db.$executeRaw`
      INSERT INTO products (slug, title, description, category_id, brand_id, publicly_listed, published_at, rating_count)
      VALUES (${`t${i}`}, ${phrase(next, 1 + next(3))}, ${phrase(next, next(6))}, ${categoryIds[next(categoryIds.length)]}::uuid,
              ${brand === 3 ? null : brandIds[brand]}::uuid, true, now(), ${next(3)})`;
  }
  // More words beginning with "lamp" than a half word's completions (20): titles beginning with
  // the query whose first word is no form of it, the word only in their description.
  for (let i = 0; i < 26; i++) {
    await db.$executeRaw`
      INSERT INTO products (slug, title, description, category_id, brand_id, publicly_listed, published_at, rating_count)
      VALUES (${`u${i}`}, ${`lampx${String.fromCharCode(97 + i)} ${phrase(next, 1)}`}, ${`lamp ${phrase(next, next(3))}`},
              ${categoryIds[next(categoryIds.length)]}::uuid, ${brandIds[next(brandIds.length)]}::uuid, true, now(), ${next(3)})`;
  }
  productIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM products ORDER BY slug`).map((r) => r.id);
  for (const [i, productId] of productIds.entries()) {
    await db.$executeRaw`
      INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, status)
      VALUES ((SELECT id FROM stores), ${productId}::uuid, ${`text-${i}`}, 'new', ${1000 + i}, ${1000 + i}, 3,
              ${i % 9 === 8 ? "inactive" : "active"}::listing_status)`;
  }
  listingIds = (await db.$queryRaw<{ id: string }[]>`SELECT id::text FROM listings ORDER BY sku`).map((r) => r.id);
}

const at = <T,>(xs: T[], i: number) => xs[i % xs.length]!;

const write = fc.oneof(
  fc.record({ op: fc.constant("title" as const), product: fc.nat(), words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }) }),
  fc.record({ op: fc.constant("description" as const), product: fc.nat(), words: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }) }),
  fc.record({ op: fc.constant("brand" as const), product: fc.nat(), brand: fc.nat() }),
  fc.record({ op: fc.constant("rating" as const), product: fc.nat(), count: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ op: fc.constant("listing" as const), listing: fc.nat(), status: fc.constantFrom("active", "inactive") }),
);
type Write = typeof write extends fc.Arbitrary<infer T> ? T : never;

async function apply(tx: Tx, w: Write) {
  switch (w.op) {
    case "title":
      await tx.$executeRaw`UPDATE products SET title = ${w.words.join(" ")} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "description":
      await tx.$executeRaw`UPDATE products SET description = ${w.words.join(" ")} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "brand":
      await tx.$executeRaw`UPDATE products SET brand_id = ${w.brand % 4 === 3 ? null : at(brandIds, w.brand % 4)}::uuid
                           WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "rating":
      await tx.$executeRaw`UPDATE products SET rating_count = ${w.count} WHERE id = ${at(productIds, w.product)}::uuid`;
      break;
    case "listing":
      await tx.$executeRaw`UPDATE listings SET status = ${w.status}::listing_status WHERE id = ${at(listingIds, w.listing)}::uuid`;
      break;
  }
}

// A query: a word, a half word (its completions), a typo of a long word (its corrections), or a
// word and an excluded word.
const query = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.tuple(fc.constantFrom(...WORDS), fc.integer({ min: 2, max: 5 })).map(([w, n]) => w.slice(0, n)),
  fc.constantFrom("headphnes", "speakr", "walnutt", "lampshdae", "wirelss"),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([w, x]) => `${w} -${x}`),
);
const search = fc.record({
  q: query,
  category: fc.option(fc.constantFrom(...CATEGORIES.map((c) => c.slug)), { nil: undefined }),
  brand: fc.option(fc.subarray(BRANDS.map((b) => b.slug), { minLength: 1 }), { nil: undefined }),
  page: fc.integer({ min: 1, max: 3 }),
  page_size: fc.integer({ min: 1, max: 8 }),
  // All titles that begin with the query ranked, or read from the postings when there are more.
  fewPrefixed: fc.constantFrom(0, 2, 500),
});

type Search = typeof search extends fc.Arbitrary<infer T> ? T : never;

/** The page's product ids, bounded (as served) and by ranking every match. */
async function pages(tx: Tx, s: Search) {
  const params = SearchQuery.parse({
    q: s.q,
    page: String(s.page),
    page_size: String(s.page_size),
    ...(s.category ? { category: s.category } : {}),
    ...(s.brand ? { brand: s.brand.join(",") } : {}),
  });
  const parsed = parseQuery(params.q!);
  const rows = parsed.words.length ? await tx.$queryRaw<WordRow[]>(interpretStatement(parsed.words)) : [];
  const text = readQuery(parsed, rows);
  const [scope] = params.category
    ? await tx.$queryRaw<{ path: string; depth: number }[]>`
        SELECT path::text AS path, nlevel(path) AS depth FROM categories WHERE slug = ${params.category}`
    : [null];
  const brands = params.brand
    ? (await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM brands WHERE slug = ANY(${params.brand}::text[])`).map((r) => r.id)
    : null;
  const statement = (boundedText: boolean) => searchStatements(params, scope ?? null, brands, {}, text, null, { boundedText, fewPrefixed: s.fewPrefixed }).page;
  const ids = async (boundedText: boolean) => (await tx.$queryRaw<{ id: string }[]>(statement(boundedText))).map((r) => r.id);
  return { bounded: await ids(true), everything: await ids(false), tookBoundedRead: await tookBoundedRead(tx, statement(true)) };
}

interface PlanNode {
  "Node Type": string;
  "Parent Relationship"?: string;
  "One-Time Filter"?: string;
  "CTE Name"?: string;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

/**
 * Whether a page statement took the bounded read: the branch that ranks every match, behind
 * `NOT (the verdict)`, was never executed.
 */
async function tookBoundedRead(tx: Tx, statement: Prisma.Sql): Promise<boolean> {
  const [row] = await tx.$queryRawUnsafe<{ "QUERY PLAN": unknown }[]>(
    `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ${statement.text}`,
    ...statement.values,
  );
  const plan = row!["QUERY PLAN"];
  const root = (typeof plan === "string" ? JSON.parse(plan) : plan) as Array<{ Plan: PlanNode }>;
  const nodes: PlanNode[] = [];
  const walk = (n: PlanNode) => {
    nodes.push(n);
    n.Plans?.forEach(walk);
  };
  walk(root[0]!.Plan);
  const gates = nodes.filter(
    (n) => n["One-Time Filter"]?.startsWith("(NOT") && n.Plans?.some((c) => c["Parent Relationship"] === "InitPlan" && c["CTE Name"] === "verdict"),
  );
  expect(gates.length).toBeLessThanOrEqual(1);
  if (gates.length === 0) return false;
  return gates[0]!.Plans!.filter((c) => c["Parent Relationship"] !== "InitPlan").every((c) => c["Actual Loops"] === 0);
}

describe("a one-word search's page from the title postings", () => {
  beforeAll(async () => {
    ({ client, drop } = await ownDatabase("textpage"));
    await seedOwnCatalog(client);
  }, 180_000);
  afterAll(async () => drop?.());

  it("keeps search_title_postings equal to its definition and the page equal to ranking every match", async () => {
    let compared = 0;
    let fullPages = 0;
    let bounded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 6 }), fc.array(search, { minLength: 1, maxLength: 4 }), async (writes, searches) => {
        const ROLLBACK = new Error("rollback");
        await client
          .$transaction(
            async (tx) => {
              for (const w of writes) await apply(tx, w);
              const diff = await tx.$queryRaw<{ n: number }[]>`
                WITH expected AS (
                  SELECT t.lexeme, ps.product_id, ts_rank('{0.1, 0.2, 0.4, 1.0}'::float4[], ps.search_vector,
                         quote_literal(t.lexeme)::tsquery) AS impact, ps.rating_count
                  FROM product_search ps, unnest(ps.search_vector) t WHERE 'A' = ANY(t.weights)
                )
                SELECT count(*)::int AS n FROM (
                  (SELECT * FROM expected EXCEPT ALL SELECT lexeme, product_id, impact, rating_count FROM search_title_postings)
                  UNION ALL
                  (SELECT lexeme, product_id, impact, rating_count FROM search_title_postings EXCEPT ALL SELECT * FROM expected)) d`;
              expect(diff[0]!.n).toBe(0);
              for (const s of searches) {
                const page = await pages(tx, s);
                expect(page.bounded, JSON.stringify(s)).toEqual(page.everything);
                compared++;
                // A page with fewer rows than its size has no bounded read (too few rows); of the
                // full ones, most must take it.
                if (page.everything.length === s.page_size) {
                  fullPages++;
                  if (page.tookBoundedRead) bounded++;
                }
              }
              throw ROLLBACK;
            },
            { timeout: 60_000 },
          )
          .catch((err: unknown) => {
            if (err !== ROLLBACK) throw err;
          });
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(compared).toBeGreaterThan(RUNS);
    console.log(`text-page: ${compared} pages compared, ${fullPages} full, ${bounded} of them read bounded`);
    expect(bounded).toBeGreaterThan(fullPages / 3);
  }, 600_000);
});
