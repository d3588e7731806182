/**
 * The relevance benchmark (npm run bench:relevance, scripts/bench-relevance.ts): queries made
 * from the searchable catalog (queries.ts), answered by our search (searchProducts, exactly as
 * the API calls it) and by MiniSearch over the same products, scored per query class.
 */
import MiniSearch from "minisearch";
import { searchProducts } from "@/lib/catalog/search";
import { db, type PrismaClient } from "@/lib/db";
import { SearchQuery } from "@/lib/schemas/catalog";
import { aggregate, MRR_DEPTH, scoreAnswer, type Answer, type QueryScore } from "./metrics";
import { generateQueries, QUERY_CLASSES, type BenchProduct, type BenchQuery, type QueryClass } from "./queries";
import type { RelevanceReport } from "./report";

export const DEFAULT_PER_CLASS = 300;
export const DEFAULT_SEED = "1";

/** The searchable products (product_search), in id order, with what both engines index. */
export async function loadProducts(client: PrismaClient = db()): Promise<BenchProduct[]> {
  const rows = await client.$queryRaw<
    {
      id: string;
      title: string;
      description: string | null;
      brand_id: string | null;
      brand: string | null;
      category_id: string;
      categories: string[];
      attributes: Record<string, unknown> | null;
    }[]
  >`
    SELECT p.id::text AS id, p.title, p.description, p.brand_id::text AS brand_id, b.name AS brand,
           p.category_id::text AS category_id,
           ARRAY(SELECT a.name FROM categories a WHERE a.path @> c.path ORDER BY nlevel(a.path)) AS categories,
           p.attributes
    FROM product_search ps
    JOIN products p ON p.id = ps.product_id
    JOIN categories c ON c.id = p.category_id
    LEFT JOIN brands b ON b.id = p.brand_id
    ORDER BY p.id`;
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    description: r.description ?? "",
    brandId: r.brand_id,
    brand: r.brand,
    categoryId: r.category_id,
    categories: r.categories,
    attributes: r.attributes ?? {},
  }));
}

/** Our search, called as GET /api/public/v1/search?q=...&page_size=10 would call it. */
export async function searchOurs(q: string): Promise<Answer> {
  const params = SearchQuery.parse({ q, page: "1", page_size: String(MRR_DEPTH), sort: "relevance" });
  const result = await searchProducts(db(), params);
  return { ids: result.data.map((card) => card.id), zero: result.meta.total === 0 };
}

/** The reference: MiniSearch over the same products, fuzzy, prefix and OR matching. */
export function miniSearchOver(products: BenchProduct[]): (q: string) => Answer {
  const index = new MiniSearch<{ id: string; title: string; brand: string; categories: string; attributes: string; description: string }>({
    fields: ["title", "brand", "categories", "attributes", "description"],
    // The default tokenizer, then what NFKC folds (full-width forms) and lower case.
    processTerm: (term) => term.normalize("NFKC").toLowerCase(),
    searchOptions: { boost: { title: 3, brand: 1.5 }, fuzzy: 0.2, prefix: true, combineWith: "OR" },
  });
  index.addAll(
    products.map((p) => ({
      id: p.id,
      title: p.title,
      brand: p.brand ?? "",
      categories: p.categories.join(" "),
      attributes: Object.values(p.attributes)
        .filter((v): v is string => typeof v === "string")
        .join(" "),
      description: p.description,
    })),
  );
  return (q) => {
    const ids = index
      .search(q)
      .slice(0, MRR_DEPTH)
      .map((r) => String(r.id));
    return { ids, zero: ids.length === 0 };
  };
}

export interface RelevanceOptions {
  perClass?: number;
  seed?: string;
  /** Only these classes (default: all). */
  classes?: readonly QueryClass[];
  /** Where products are read from (our search always runs on `db()`). */
  client?: PrismaClient;
  /** Our searches in flight at once. */
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

async function mapConcurrent<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>, onDone?: () => void): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
      onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** One query's outcome in both engines (for looking into a class's misses). */
export interface QueryOutcome extends BenchQuery {
  ours: QueryScore;
  minisearch: QueryScore;
}

export async function runRelevanceBenchmark(
  options: RelevanceOptions = {},
): Promise<{ report: RelevanceReport; outcomes: QueryOutcome[] }> {
  const started = performance.now();
  const perClass = options.perClass ?? DEFAULT_PER_CLASS;
  const seed = options.seed ?? DEFAULT_SEED;
  const products = await loadProducts(options.client);
  const queries = generateQueries(products, { perClass, seed, classes: options.classes });
  const peer = miniSearchOver(products);

  let done = 0;
  const ours = await mapConcurrent(queries, options.concurrency ?? 4, (query) => searchOurs(query.q), () =>
    options.onProgress?.(++done, queries.length),
  );
  const outcomes: QueryOutcome[] = queries.map((query, i) => ({
    ...query,
    ours: scoreAnswer(query.intended, ours[i]!),
    minisearch: scoreAnswer(query.intended, peer(query.q)),
  }));
  const classes = QUERY_CLASSES.filter(({ name }) => !options.classes || options.classes.includes(name)).map(
    ({ name, targeted }) => {
      const of = outcomes.filter((o) => o.class === name);
      return { class: name, targeted, ours: aggregate(of.map((o) => o.ours)), minisearch: aggregate(of.map((o) => o.minisearch)) };
    },
  );
  const report = { products: products.length, seed, perClass, elapsedMs: performance.now() - started, classes };
  return { report, outcomes };
}
