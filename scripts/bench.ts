/**
 * npm run bench [-- --products 100000] [--duration 10] [--connections 8] [--runs 3] [--reseed]
 *                  [--only seller|checkout|events|<scenario name prefix>] [--db URL] [--ports 3000,3001]
 *
 * Builds (once) a benchmark database of the given size, starts the built app on it, drives the
 * public API and the seller API with autocannon over varied requests per scenario, and guest
 * checkouts through the storefront's forms, and the delivery of store events to a local webhook
 * receiver (events/s), prints p50/p95/p99 latency and requests/s (the median
 * of `--runs` runs, with the load average around each), the API/SQL ratio of each public
 * scenario, then EXPLAIN ANALYZE of the main queries. Loopback only.
 * Needs `npm run build`.
 *
 * Most scenarios go round a few dozen URLs, as a cache sees repeated traffic; the "(cold)" ones
 * ask a distinct query with every request (the long tail: lib/catalog/relevance/long-tail.ts),
 * as shoppers and agents do, so no per-process cache answers them.
 *
 * --products 1000000: seeding takes about 7 minutes and the first VACUUM ANALYZE a few more; a
 *   search's counts statement then takes about half a second, so expect a long run.
 * --runs N: each scenario N times (runs interleaved); every figure is the median of the runs.
 * --db URL (or BENCH_DB): use that database as it is instead of mkt_bench_<products>: migrated,
 *   seeded only if it has fewer products than asked (the seed replaces its catalog), never dropped.
 * --ports 3000,3001 (or BENCH_PORTS): drive app instances already running on these loopback ports
 *   (connections spread round-robin over them) instead of starting one; they must use the bench's
 *   database (docs/benchmarks.md). The bench cannot restart them, so the "search counts cache
 *   off" pass is skipped.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { productStatement } from "@/lib/catalog/product";
import { interpretStatement } from "@/lib/catalog/interpret";
import { parseQuery } from "@/lib/catalog/query";
import { longTailQueries } from "@/lib/catalog/relevance/long-tail";
import { prepareSearch } from "@/lib/catalog/search";
import { createApiKey } from "@/lib/auth/api-keys";
import { createDb, db, type Prisma, type PrismaClient } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { SearchQuery } from "@/lib/schemas/catalog";
import { createWebhookEndpoint, deleteWebhookEndpoint, emitStoreEvents } from "@/lib/seller/webhooks";
import { queryObject } from "@/lib/http/query";
import { Rng } from "@/lib/random";
import { freePort } from "../tests/setup/ports";

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    runs: { type: "string", default: "3" },
    reseed: { type: "boolean", default: false },
    only: { type: "string" },
    admin: { type: "string", default: process.env.BENCH_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
    db: { type: "string" },
    ports: { type: "string" },
  },
});
const products = Number(args.products);
const duration = Number(args.duration);
const connections = Number(args.connections);
const runs = Number(args.runs);
const existingDb = args.db ?? process.env.BENCH_DB;
const portList = args.ports ?? process.env.BENCH_PORTS;
const ports = portList ? portList.split(",").map((p) => Number(p.trim())) : null;
if (ports?.some((p) => !Number.isInteger(p) || p <= 0)) throw new Error(`--ports/BENCH_PORTS: not a list of ports: ${portList}`);
if (existingDb && args.reseed) throw new Error("--reseed drops the database: not with --db/BENCH_DB");
// `--only seller|checkout`, or the start of public scenario names (`--only "search: filtered"`).
const onlyPublic = args.only && !["seller", "checkout", "events"].includes(args.only) ? args.only : null;
const adminUrl = new URL(args.admin);
const benchUrl = new URL(existingDb ?? adminUrl);
if (!existingDb) benchUrl.pathname = `/mkt_bench_${products}`;
const dbName = decodeURIComponent(benchUrl.pathname.slice(1));
process.env.DATABASE_URL = benchUrl.toString();

// Above the app's statement_timeout (15 s), so a slow request (a 1M-product catalog, counts
// uncached) is measured, or fails as the app fails it, instead of being cut by the client.
const REQUEST_TIMEOUT_S = 20;

async function prepareDatabase(): Promise<{ client: PrismaClient; catalog: number }> {
  if (!existingDb) {
    const admin = createDb(adminUrl.toString(), { maintenance: true });
    const exists = await admin.$queryRaw<unknown[]>`SELECT 1 FROM pg_database WHERE datname = ${dbName}`;
    if (args.reseed && exists.length) await admin.$executeRawUnsafe(`DROP DATABASE "${dbName}" WITH (FORCE)`);
    if (args.reseed || !exists.length) await admin.$executeRawUnsafe(`CREATE DATABASE "${dbName}"`);
    await admin.$disconnect();
  }

  const client = createDb(benchUrl.toString(), { maintenance: true });
  await migrate(client, (line) => console.error(line));
  const countProducts = async () => (await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products`)[0]!.n;
  if ((await countProducts()) < products) {
    console.error(`seeding ${products} products into ${dbName} ...`);
    const seed = spawnSync("npx", ["tsx", "prisma/seed.ts", "--products", String(products)], {
      stdio: "inherit",
      env: process.env,
    });
    if (seed.status !== 0) throw new Error("seed failed");
  }
  // Fresh statistics and visibility maps (index-only scans) after the seed or earlier bench
  // writes; on a freshly seeded million products this takes a few minutes.
  console.error(`VACUUM ANALYZE ${dbName} ...`);
  await client.$executeRawUnsafe("VACUUM ANALYZE");
  return { client, catalog: await countProducts() };
}


const BENCH_AUTH_SECRET = "test-secret-for-session-cookies-0123456789abcdef";

async function startApp(port: number, countsTtlMs: string): Promise<ChildProcess> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("run `npm run build` first");
  const child = spawn("npm", ["run", "start", "--", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_REQUESTS: "off",
      NODE_ENV: "production",
      AUTH_SECRET: process.env.AUTH_SECRET ?? BENCH_AUTH_SECRET,
      SEARCH_COUNTS_TTL_MS: countsTtlMs,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/public/v1/categories`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("app did not start");
}

/**
 * Runs `fn` against the app: the instances on --ports as they are, or one started here with the
 * given counts cache TTL (and stopped after).
 */
async function withApp<T>(countsTtlMs: string, fn: (bases: string[]) => Promise<T>): Promise<T> {
  if (ports) return fn(ports.map((port) => `http://127.0.0.1:${port}`));
  const port = await freePort();
  const app = await startApp(port, countsTtlMs);
  try {
    return await fn([`http://127.0.0.1:${port}`]);
  } finally {
    process.kill(-app.pid!, "SIGTERM");
  }
}

/** Latency percentiles and throughput of one timed pass. */
interface Stats {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  failed: number;
}

function statsOf(latencies: number[], seconds: number, failed: number): Stats {
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => round1(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN);
  return { p50: pct(50), p95: pct(95), p99: pct(99), rps: latencies.length / seconds, failed };
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A run's stats with the 1-minute load average when it started and when it ended. */
type Run = Stats & { load: string };

async function timed(fn: () => Promise<Stats>): Promise<Run> {
  const start = loadavg()[0]!;
  const stats = await fn();
  return { ...stats, load: `${start.toFixed(1)}→${loadavg()[0]!.toFixed(1)}` };
}

/** The runs of one scenario: the median of each figure, the failures of all runs, each run's load. */
function summary(of: Run[]): Run {
  const mid = (key: keyof Stats) => round1(median(of.map((r) => r[key])));
  return {
    p50: mid("p50"),
    p95: mid("p95"),
    p99: mid("p99"),
    rps: mid("rps"),
    failed: of.reduce((sum, r) => sum + r.failed, 0),
    load: of.map((r) => r.load).join(", "),
  };
}

/** One timed autocannon pass over `bases` (connections spread round-robin over them). */
async function drive(bases: string[], requests: autocannon.Request[], conns: number, seconds: number): Promise<Stats> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      // autocannon takes several URLs (connection i goes to url[i % n]); its types say one.
      { url: bases as unknown as string, connections: conns, duration: seconds, requests, timeout: REQUEST_TIMEOUT_S },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  return statsOf(latencies, seconds, result.non2xx + result.errors);
}

/** Warm-up: `amount` requests, untimed (connection pools, JIT, buffer cache). */
async function warmUp(bases: string[], requests: autocannon.Request[], amount: number) {
  await autocannon({ url: bases as unknown as string, connections, amount, requests, timeout: REQUEST_TIMEOUT_S });
}

interface Scenario {
  name: string;
  paths: string[];
  /**
   * Cold: every request takes the next path of `paths` (each a distinct query, never asked before
   * in this bench run), so no cache answers it; otherwise requests go round the paths.
   */
  cold?: boolean;
  /** The SQL statements one request to `path` runs (timed for the API/SQL ratio). */
  statements: (path: string) => Promise<Prisma.Sql[]>;
}

/**
 * A search's statements as searchProducts runs them: the query interpretation (when there is
 * text), the page and the counts. The look-ups of the category, brands and price buckets
 * (small, cached or once per process) are left out.
 */
async function searchSql(queryString: string): Promise<Prisma.Sql[]> {
  const params = SearchQuery.parse(queryObject(new URLSearchParams(queryString)));
  const words = params.q ? parseQuery(params.q).words : [];
  const { page, counts } = (await prepareSearch(db(), params)).statements;
  return [...(words.length ? [interpretStatement(words)] : []), page, counts];
}

/** Queries each cold scenario has to ask (a run asks a few hundred to a few thousand). */
const COLD_POOL = 12_000;

/** Where each cold scenario has got to in its paths, and how many it asked past their end. */
const coldCursors = new Map<string, { next: number; repeated: number }>();

/** The next path of a cold scenario (its first again, counted as repeated, past the end). */
function nextCold(scenario: Scenario): string {
  const cursor = coldCursors.get(scenario.name) ?? { next: 0, repeated: 0 };
  coldCursors.set(scenario.name, cursor);
  const i = cursor.next++;
  if (i >= scenario.paths.length) cursor.repeated++;
  return scenario.paths[i % scenario.paths.length]!;
}

/**
 * The long tail (lib/catalog/relevance/long-tail.ts): distinct queries from the seeded titles,
 * 1-3 consecutive words, typos and filler, split among the cold scenarios so that none asks what
 * another asked (the counts cache would answer it).
 */
async function coldScenarios(client: PrismaClient, top: string[], all: string[], search: Scenario["statements"]): Promise<Scenario[]> {
  const titles = (
    await client.$queryRaw<{ title: string }[]>`
      SELECT p.title FROM products p JOIN product_search ps ON ps.product_id = p.id ORDER BY md5(p.id::text) LIMIT 100000`
  ).map((r) => r.title);
  const tail = longTailQueries(titles, { count: 3 * COLD_POOL, seed: "bench" });
  const share = Math.floor(tail.length / 3);
  const text = tail.slice(0, share);
  const filtered = tail.slice(share, 2 * share);
  const page = tail.slice(2 * share, 3 * share);
  const rng = new Rng("bench:cold");
  const sorts = ["relevance", "price_asc", "price_desc", "newest"] as const;
  const conditions = ["new", "used", "like_new,very_good", "refurbished"];
  const prices = [[0, 2500], [2500, 5000], [5000, 10000], [10000, 20000], [1999, 4999]];
  const s = "/api/public/v1/search";
  const q = (query: string) => `q=${encodeURIComponent(query)}`;
  // Text with one or two filters (a condition, a price range that may not fall on bucket bounds,
  // a top-level category), in any sort.
  const withFilters = (query: string) => {
    const parts = [q(query)];
    const picks = rng.sample(["condition", "price", "category"], rng.int(1, 2));
    if (picks.includes("condition")) parts.push(`condition=${rng.pick(conditions)}`);
    if (picks.includes("price")) {
      const [min, max] = rng.pick(prices);
      parts.push(`price_min_cents=${min}&price_max_cents=${max}`);
    }
    if (picks.includes("category")) parts.push(`category=${rng.pick(top)}`);
    parts.push(`sort=${rng.pick(sorts)}`);
    return `${s}?${parts.join("&")}`;
  };
  // Pages 20 to 500 of a browse (a category or the whole catalog) in any sort, no two alike.
  const deep = new Set<string>();
  for (let tries = 0; deep.size < COLD_POOL && tries < 20 * COLD_POOL; tries++) {
    const scope = rng.chance(0.2) ? "" : `category=${rng.pick(all)}&`;
    deep.add(`${s}?${scope}sort=${rng.pick(sorts)}&page=${rng.int(20, 500)}`);
  }
  return [
    { name: "search: text query (cold)", cold: true, paths: text.map((t) => `${s}?${q(t)}`), statements: search },
    { name: "search: text + filters (cold)", cold: true, paths: filtered.map(withFilters), statements: search },
    { name: "search: deep page (cold)", cold: true, paths: [...deep], statements: search },
    { name: "page: search (text, cold)", cold: true, paths: page.map((t) => `/search?${q(t)}`), statements: search },
  ];
}

async function scenarios(client: PrismaClient): Promise<Scenario[]> {
  const words = [
    "headphones", "wireless", "skillet", "running shoes", "lego", "novel", "camera", "blender",
    "jacket", "drill", "yoga mat", "serum", "board game", "tent", "laptop", "knife",
    "coffee", "backpack", "watch", "lamp", "headphnes", "speakr", "cast iron", "puzzle",
  ];
  const cats = await client.$queryRaw<{ slug: string; depth: number }[]>`
    SELECT slug, nlevel(path) AS depth FROM categories WHERE active ORDER BY path`;
  const brands = await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM brands ORDER BY slug`;
  const slugs = await client.$queryRaw<{ slug: string }[]>`
    SELECT p.slug FROM products p JOIN product_search ps ON ps.product_id = p.id ORDER BY md5(p.id::text) LIMIT 500`;
  const top = cats.filter((c) => c.depth === 1).map((c) => c.slug);
  const all = cats.map((c) => c.slug);
  const pick = <T>(xs: T[], i: number) => xs[i % xs.length]!;
  const conditions = ["new", "used", "like_new,very_good", "refurbished"];
  const prices = [[0, 2500], [2500, 5000], [5000, 10000], [10000, 20000]];
  const s = "/api/public/v1/search";
  const search = async (path: string) => searchSql(path.slice(path.indexOf("?") + 1));
  const product = async (path: string) => [productStatement(path.slice(path.lastIndexOf("/") + 1))];
  return [
    { name: "search: text query", paths: words.map((w) => `${s}?q=${encodeURIComponent(w)}`), statements: search },
    { name: "search: category browse", paths: all.map((c) => `${s}?category=${c}`), statements: search },
    { name: "search: top-level category", paths: top.map((c) => `${s}?category=${c}&sort=price_asc`), statements: search },
    { name: "search: whole catalog", paths: ["relevance", "newest", "price_asc", "price_desc"].map((o) => `${s}?sort=${o}`), statements: search },
    {
      name: "search: filtered",
      paths: Array.from({ length: 60 }, (_, i) => {
        const [min, max] = pick(prices, i);
        return `${s}?category=${pick(top, i)}&brand=${pick(brands, i * 7).slug},${pick(brands, i * 11).slug}&condition=${pick(conditions, i)}&price_min_cents=${min}&price_max_cents=${max}`;
      }),
      statements: search,
    },
    {
      // Offer filters in a top-level category without a brand, in every sort (a large subtree:
      // the page is picked from facet_member_pairs_scope).
      name: "search: filtered, no brand",
      paths: Array.from({ length: 32 }, (_, i) => {
        const [min, max] = pick(prices, i >> 1);
        const sort = pick(["price_asc", "relevance", "price_desc", "newest"], i >> 3);
        return `${s}?category=${pick(top, i)}&condition=${pick(conditions, i * 3)}&price_min_cents=${min}&price_max_cents=${max}&sort=${sort}`;
      }),
      statements: search,
    },
    { name: "search: text + filters", paths: words.map((w, i) => `${s}?q=${encodeURIComponent(w)}&condition=${pick(conditions, i)}&sort=price_asc`), statements: search },
    { name: "search: deep page", paths: Array.from({ length: 40 }, (_, i) => `${s}?category=${pick(top, i)}&page=${20 + i * 5}&sort=newest`), statements: search },
    { name: "product", paths: slugs.map((r) => `/api/public/v1/products/${r.slug}`), statements: product },
    // Server-rendered storefront pages over the same library calls (HTML, no client JS run);
    // their SQL is their API counterpart's.
    { name: "page: search (text)", paths: words.map((w) => `/search?q=${encodeURIComponent(w)}`), statements: search },
    { name: "page: category", paths: all.map((c) => `/c/${c}`), statements: async (path) => searchSql(`category=${path.slice("/c/".length)}`) },
    { name: "page: product", paths: slugs.map((r) => `/p/${r.slug}`), statements: product },
    ...(await coldScenarios(client, top, all, search)),
  ];
}

/**
 * Every request comes from its own client address (a random 10.x first hop of X-Forwarded-For),
 * as from many visitors: the rate limiter still runs (and its cost is measured) without one
 * bucket limiting the load generator.
 */
function fromRandomClient(req: autocannon.Request): autocannon.Request {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return { ...req, headers: { ...req.headers, "x-forwarded-for": `10.${b()}.${b()}.${b()}` } };
}

/** One run of a scenario: its timed pass at `connections`, then a short one at 1 connection. */
async function run(bases: string[], scenario: Scenario): Promise<{ loaded: Run; serialP50: number }> {
  const requests = scenario.cold
    ? [{ method: "GET" as const, setupRequest: (req: autocannon.Request) => fromRandomClient({ ...req, path: nextCold(scenario) }) }]
    : scenario.paths.map((path) => ({ method: "GET" as const, path, setupRequest: fromRandomClient }));
  // Warm-up pass touches every URL twice (connection pools, JIT, buffer cache); a cold
  // scenario's warms up on queries of its own, asked once.
  await warmUp(bases, requests, scenario.cold ? 4 * connections : requests.length * 2);
  const loaded = await timed(() => drive(bases, requests, connections, duration));
  // One request at a time: the latency with no queueing, compared with the SQL's own time.
  const serial = await drive(bases, requests, 1, Math.min(duration, 3));
  return { loaded, serialP50: serial.p50 };
}

/**
 * Execution time of a statement as EXPLAIN ANALYZE reports it (TIMING OFF: the per-node clock
 * reads would inflate statements that touch many rows; the total is still measured). Each
 * statement is run once, after the first pass has warmed the buffers: pages and the counts cache
 * off pass run the same statements as the API pass, and on a million products a statement can
 * take half a second.
 */
const executionTimes = new Map<string, number>();

async function executionMs(client: PrismaClient, statement: Prisma.Sql): Promise<number> {
  const key = JSON.stringify([statement.text, statement.values]);
  if (!executionTimes.has(key)) {
    const [row] = await client.$queryRawUnsafe<{ "QUERY PLAN": Array<{ "Execution Time": number }> }[]>(
      `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statement.text}`,
      ...statement.values,
    );
    executionTimes.set(key, row!["QUERY PLAN"][0]!["Execution Time"]);
  }
  return executionTimes.get(key)!;
}

/** Queries of a cold scenario whose SQL is timed. */
const COLD_SQL_SAMPLE = 40;

/** Median over the scenario's URLs of the SQL time of one request (its statements summed). */
async function sqlMedianMs(client: PrismaClient, scenario: Scenario): Promise<number> {
  const perRequest: number[] = [];
  // A cold scenario's first queries (those of its first warm-up) stand for the rest.
  for (const path of scenario.cold ? scenario.paths.slice(0, COLD_SQL_SAMPLE) : scenario.paths) {
    let ms = 0;
    for (const statement of await scenario.statements(path)) ms += await executionMs(client, statement);
    perRequest.push(ms);
  }
  return median(perRequest);
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of the page and counts statements of each search shape, written to
 * test-results/bench-plans-<catalog size>.md (generated by every run, not kept in git): the
 * report names the file.
 */
async function explain(client: PrismaClient, catalog: number) {
  const lines: string[] = [`# EXPLAIN ANALYZE of the search statements, ${catalog} products (${new Date().toISOString()})`];
  const [top] = await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM categories WHERE nlevel(path) = 1 ORDER BY position LIMIT 1`;
  const brands = (await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM brands ORDER BY slug LIMIT 2`).map((b) => b.slug);
  const cases: Array<[string, string]> = [
    ["text query", "q=wireless+headphones"],
    ["text query, one word", "q=headphones"],
    ["category browse", `category=${top!.slug}`],
    ["filtered", `category=${top!.slug}&condition=new&price_min_cents=2500&price_max_cents=10000&sort=price_asc`],
    ["filtered with brands", `category=${top!.slug}&brand=${brands.join(",")}&condition=new&price_min_cents=2500&price_max_cents=5000`],
    ["whole catalog, deep page", "page=200&sort=newest"],
  ];
  for (const [label, qs] of cases) {
    const params = SearchQuery.parse(queryObject(new URLSearchParams(qs)));
    for (const [part, stmt] of Object.entries((await prepareSearch(db(), params)).statements)) {
      const plan = await client.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${stmt.text}`,
        ...stmt.values,
      );
      lines.push(`\n## search ${part}, ${label} (${qs})\n`, "```", ...plan.map((r) => r["QUERY PLAN"]), "```");
    }
  }
  const file = path.join("test-results", `bench-plans-${catalog}.md`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${lines.join("\n")}\n`);
  console.log(`\nEXPLAIN ANALYZE plans of the search statements: ${file}`);
}

/** Where the requests go, for the headings. */
const target = () =>
  ports ? `apps on ports ${ports.join(", ")}` : process.env.REDIS_URL ? "rate limits in Redis" : "rate limits in process";

/** The URLs a scenario went round, or the distinct queries a cold one asked (and any it asked again). */
function urlsOf(scenario: Scenario): string {
  if (!scenario.cold) return String(scenario.paths.length);
  const { next, repeated } = coldCursors.get(scenario.name) ?? { next: 0, repeated: 0 };
  return repeated ? `${next - repeated} + ${repeated} REPEATED (raise COLD_POOL)` : `${next}`;
}

async function measure(client: PrismaClient, catalog: number, label: string, countsTtlMs: string, only?: (s: Scenario) => boolean) {
  await withApp(countsTtlMs, async (bases) => {
    const list = (await scenarios(client)).filter(only ?? (() => true));
    const results = new Map(list.map((s) => [s.name, { loaded: [] as Run[], serialP50: [] as number[] }]));
    // Each run goes through every scenario in turn: a noisy minute on the machine then touches
    // one run of several scenarios, and the median of the runs leaves it out.
    for (let i = 1; i <= runs; i++) {
      for (const scenario of list) {
        const { loaded, serialP50 } = await run(bases, scenario);
        results.get(scenario.name)!.loaded.push(loaded);
        results.get(scenario.name)!.serialP50.push(serialP50);
        console.error(`${label}, run ${i}/${runs}, ${scenario.name}: p95 ${loaded.p95} ms, ${Math.round(loaded.rps)} req/s, load ${loaded.load}`);
      }
    }
    console.error(`${label}: timing each URL's SQL ...`);
    const sqlMs = new Map<string, number>();
    for (const scenario of list) sqlMs.set(scenario.name, await sqlMedianMs(client, scenario));
    console.log(
      `\n## Public API, ${catalog} products, ${connections} connections, ${duration}s per scenario, median of ${runs} runs, ${target()}: ${label}\n`,
    );
    console.log("| scenario | URLs (cold: distinct queries asked) | p50 ms | p95 ms | p99 ms | req/s | non-2xx | p50 ms at 1 conn | SQL ms | API/SQL | load avg (runs) |");
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    for (const scenario of list) {
      const { loaded, serialP50 } = results.get(scenario.name)!;
      const r = summary(loaded);
      const serial = round1(median(serialP50));
      const sql = sqlMs.get(scenario.name)!;
      console.log(
        `| ${scenario.name} | ${urlsOf(scenario)} | ${r.p50} | ${r.p95} | ${r.p99} | ${Math.round(r.rps)} | ${r.failed} | ${serial} | ${sql.toFixed(2)} | ${round1(serial / sql)} | ${r.load} |`,
      );
    }
  });
}

/**
 * Seller API scenarios on the same catalog. Each request takes a key of its own store in turn
 * (the per-key bucket allows 10/s, so the keys are many and the load spreads over stores):
 * an inventory batch of 100 adjustments (+1 or -1, never below zero: set_quantity where a listing
 * holds nothing), and a page of 100 of the `updated_since` feed from a random point in the past.
 */
async function sellerScenarios(client: PrismaClient) {
  const stores = await client.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM stores s WHERE s.status = 'active'
    AND (SELECT count(*) FROM listings l WHERE l.store_id = s.id AND l.status <> 'archived') >= 100 ORDER BY s.slug`;
  const keysPerStore = Math.ceil(400 / stores.length);
  const keys: Array<{ key: string; listings: string[] }> = [];
  for (const store of stores) {
    const listings = (
      await client.$queryRaw<{ id: string }[]>`
        SELECT id FROM listings WHERE store_id = ${store.id}::uuid AND status <> 'archived' ORDER BY md5(id::text) LIMIT 2000`
    ).map((r) => r.id);
    for (let i = 0; i < keysPerStore; i++) {
      const { key } = await createApiKey(client, { storeId: store.id, name: `bench ${i}`, scopes: ["listings:read", "listings:write"] });
      keys.push({ key, listings });
    }
  }
  let turn = 0;
  const nextKey = () => keys[turn++ % keys.length]!;
  const batch = (): autocannon.Request => {
    const { key, listings } = nextKey();
    const start = Math.floor(Math.random() * Math.max(1, listings.length - 100));
    const adjustments = listings.slice(start, start + 100).map((listing_id, i) => (i % 2 === 0 ? { listing_id, delta: 1 } : { listing_id, set_quantity: 5 + (i % 7) }));
    return {
      method: "POST",
      path: "/api/v1/inventory/batch",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ adjustments }),
    };
  };
  const feed = (): autocannon.Request => {
    const { key } = nextKey();
    const since = new Date(Date.UTC(2024, 0, 1) + Math.floor(Math.random() * 700) * 86_400_000).toISOString();
    return { method: "GET", path: `/api/v1/listings?updated_since=${encodeURIComponent(since)}&limit=100`, headers: { authorization: `Bearer ${key}` } };
  };
  return [
    { name: "seller: inventory batch (100 adjustments)", make: batch },
    { name: "seller: feed page (limit 100)", make: feed },
  ];
}

async function measureSeller(client: PrismaClient, catalog: number) {
  await withApp("30000", async (bases) => {
    const list = await sellerScenarios(client);
    const results = new Map(list.map((s) => [s.name, [] as Run[]]));
    for (let i = 1; i <= runs; i++) {
      for (const scenario of list) {
        const requests = [{ setupRequest: () => fromRandomClient(scenario.make()) }];
        await warmUp(bases, requests, 200);
        const r = await timed(() => drive(bases, requests, connections, duration));
        results.get(scenario.name)!.push(r);
        console.error(`seller, run ${i}/${runs}, ${scenario.name}: p95 ${r.p95} ms, load ${r.load}`);
      }
    }
    console.log(`\n## Seller API, ${catalog} products, ${connections} connections, ${duration}s per scenario, median of ${runs} runs, ${target()}\n`);
    console.log("| scenario | p50 ms | p95 ms | p99 ms | req/s | non-2xx | load avg (runs) |");
    console.log("|---|---|---|---|---|---|---|");
    for (const [name, of] of results) {
      const r = summary(of);
      console.log(`| ${name} | ${r.p50} | ${r.p95} | ${r.p99} | ${Math.round(r.rps)} | ${r.failed} | ${r.load} |`);
    }
  });
}

/**
 * Checkout through the storefront's forms, as guests: `connections` buyers at once, each in a
 * loop: a fresh cart of 3 random in-stock offers (3 x /cart/add), the /checkout page (its one-time
 * token, total and lines), then "Place order" (/checkout/place), timed alone. Then the oversell
 * check: a listing with a few units raced by twice as many buyers at once must give exactly that
 * many orders and end at quantity 0.
 */
class Guest {
  private cookies = new Map<string, string>();
  private readonly ip = `10.${rand255()}.${rand255()}.${rand255() + 1}`;
  constructor(private readonly base: string) {}

  async request(method: "GET" | "POST", path: string, form?: Record<string, string>) {
    const headers: Record<string, string> = { "x-forwarded-for": this.ip };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    if (form) Object.assign(headers, { "content-type": "application/x-www-form-urlencoded", origin: this.base, "sec-fetch-site": "same-origin" });
    const res = await fetch(this.base + path, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return { status: res.status, location: res.headers.get("location") ?? "", text: await res.text() };
  }

  /** Fills a cart and opens /checkout: the fields "Place order" posts. */
  async prepare(listingIds: string[]): Promise<Record<string, string>> {
    for (const id of listingIds) await this.request("POST", "/cart/add", { listing_id: id, quantity: "1" });
    const page = await this.request("GET", "/checkout");
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)?.[1] ?? "";
    return {
      checkout_token: hidden("checkout_token"),
      expected_total_cents: hidden("expected_total_cents"),
      cart_lines: hidden("cart_lines"),
      email: `bench-${Math.random().toString(36).slice(2)}@example.com`,
      full_name: "Bench Buyer",
      line1: "1 Bench Street",
      city: "Springfield",
      state: "IL",
      postal_code: "62701",
      card_number: "4242 4242 4242 4242",
    };
  }
}

const rand255 = () => Math.floor(Math.random() * 254);

async function measureCheckout(client: PrismaClient, catalog: number) {
  const pool = (
    await client.$queryRaw<{ id: string }[]>`
      SELECT l.id::text AS id FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
      WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND l.quantity >= 20 AND NOT l.allow_backorder
      ORDER BY md5(l.id::text) LIMIT 2000`
  ).map((r) => r.id);
  await withApp("30000", async (bases) => {
    // Each guest keeps to one instance (its cart and checkout token); guests take them in turn.
    let turn = 0;
    const guest = () => new Guest(bases[turn++ % bases.length]!);
    const pick = () => Array.from({ length: 3 }, () => pool[Math.floor(Math.random() * pool.length)]!).filter((id, i, all) => all.indexOf(id) === i);
    const pass = async (seconds: number): Promise<Stats> => {
      const latencies: number[] = [];
      let failed = 0;
      const until = Date.now() + seconds * 1000;
      const buyer = async () => {
        while (Date.now() < until) {
          const g = guest();
          const fields = await g.prepare(pick());
          const started = performance.now();
          const placed = await g.request("POST", "/checkout/place", fields);
          const ms = performance.now() - started;
          if (placed.status === 303 && placed.location.startsWith("/checkout/confirmation/")) latencies.push(ms);
          else failed++;
        }
      };
      await Promise.all(Array.from({ length: connections }, buyer));
      return statsOf(latencies, seconds, failed);
    };
    await pass(2); // warm-up
    const of: Run[] = [];
    for (let i = 1; i <= runs; i++) {
      of.push(await timed(() => pass(duration)));
      console.error(`checkout, run ${i}/${runs}: p95 ${of.at(-1)!.p95} ms, load ${of.at(-1)!.load}`);
    }
    const r = summary(of);

    // Oversell: `units` units, twice as many buyers, all placing at once.
    const units = 5;
    const [race] = await client.$queryRaw<{ id: string }[]>`
      UPDATE listings SET quantity = ${units} WHERE id = ${pool[0]}::uuid RETURNING id::text AS id`;
    const racers = Array.from({ length: units * 2 + connections }, guest);
    const forms = await Promise.all(racers.map((g) => g.prepare([race!.id])));
    const before = await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM order_lines WHERE listing_id = ${race!.id}::uuid`;
    const results = await Promise.all(racers.map((g, i) => g.request("POST", "/checkout/place", forms[i]!)));
    const [after] = await client.$queryRaw<{ n: number; quantity: number }[]>`
      SELECT (SELECT count(*)::int FROM order_lines WHERE listing_id = ${race!.id}::uuid) AS n,
             (SELECT quantity FROM listings WHERE id = ${race!.id}::uuid) AS quantity`;
    const placedInRace = results.filter((r) => r.location.startsWith("/checkout/confirmation/")).length;
    const oversold = after!.n - before[0]!.n !== units || placedInRace !== units || after!.quantity !== 0;

    console.log(`\n## Checkout (storefront, guests), ${catalog} products, ${connections} buyers at once, ${duration}s, median of ${runs} runs, ${target()}\n`);
    console.log("| scenario | p50 ms | p95 ms | p99 ms | orders/s | failed | load avg (runs) |");
    console.log("|---|---|---|---|---|---|---|");
    console.log(`| checkout: place order (3-line cart) | ${r.p50} | ${r.p95} | ${r.p99} | ${r.rps} | ${r.failed} | ${r.load} |`);
    console.log(
      `\nOversell check: ${racers.length} buyers at once for a listing with ${units} units: ${placedInRace} orders placed, ` +
        `${results.length - placedInRace} refused, quantity now ${after!.quantity}: ${oversold ? "OVERSOLD (bug)" : "no oversell"}.`,
    );
    if (oversold) process.exitCode = 1;
  });
}

/**
 * Store events delivered to a webhook receiver on loopback https (self-signed; the app trusts it
 * through NODE_EXTRA_CA_CERTS and reaches it with WEBHOOKS_ALLOW_LOOPBACK=on, so this scenario
 * starts its own app, never --ports). Each run writes `EVENTS` `listing.sold_out` events in one
 * transaction (the outbox call every change makes), then times from its commit to the receiver
 * holding every one of them: events per second, end to end through the job queue.
 */
const EVENTS = 2_000;

async function measureEvents(client: PrismaClient, catalog: number) {
  if (ports) throw new Error("--only events starts its own app (it must trust the bench's receiver): not with --ports");
  const dir = mkdtempSync(path.join(tmpdir(), "bench-receiver-"));
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
    { stdio: "ignore" },
  );
  const received = new Set<string>();
  let lastAt = 0;
  const receiver = https.createServer({ key: readFileSync(path.join(dir, "key.pem")), cert: readFileSync(path.join(dir, "cert.pem")) }, (req, res) => {
    req.resume();
    req.on("end", () => {
      received.add(String(req.headers["webhook-id"]));
      lastAt = performance.now();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, { WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: path.join(dir, "cert.pem") });
  process.env.AUTH_SECRET ??= BENCH_AUTH_SECRET; // the app's, so that it opens the endpoint's sealed secret
  const [store] = await client.$queryRaw<{ id: string }[]>`
    SELECT s.id FROM stores s WHERE s.status = 'active' ORDER BY (SELECT count(*) FROM listings l WHERE l.store_id = s.id) DESC LIMIT 1`;
  const listings = (await client.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM listings WHERE store_id = ${store!.id}::uuid LIMIT ${EVENTS}`).map((r) => r.id);
  const url = `https://127.0.0.1:${(receiver.address() as { port: number }).port}/events`;
  const endpoint = await client.$transaction((tx) => createWebhookEndpoint(tx, store!.id, { url, events: ["listing.sold_out"] }));
  try {
    await withApp("30000", async () => {
      const of: number[] = [];
      const loads: string[] = [];
      for (let i = 1; i <= runs; i++) {
        received.clear();
        await client.$transaction((tx) => emitStoreEvents(tx, "listing.sold_out", listings.map((id) => ({ storeId: store!.id, id }))), { timeout: 300_000 });
        const committed = performance.now();
        const deadline = Date.now() + 600_000;
        while (received.size < listings.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        const seconds = (lastAt - committed) / 1000;
        of.push(received.size / seconds);
        loads.push(loadavg()[0]!.toFixed(1));
        console.error(`events, run ${i}/${runs}: ${received.size} in ${seconds.toFixed(1)} s, load ${loads.at(-1)}`);
      }
      console.log(`\n## Webhook delivery, ${catalog} products, ${listings.length} events per run, median of ${runs} runs, ${target()}\n`);
      console.log("| scenario | events/s | load avg (runs) |");
      console.log("|---|---|---|");
      console.log(`| events: commit to receiver (listing.sold_out, one endpoint) | ${Math.round(median(of))} | ${loads.join(", ")} |`);
    });
  } finally {
    await client.$transaction((tx) => deleteWebhookEndpoint(tx, store!.id, endpoint.id));
    await client.$executeRaw`DELETE FROM webhook_events WHERE store_id = ${store!.id}::uuid AND type = 'listing.sold_out'`;
    receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { client, catalog } = await prepareDatabase();
  try {
    if (args.only === "seller") {
      await measureSeller(client, catalog);
      return;
    }
    if (args.only === "checkout") {
      await measureCheckout(client, catalog);
      return;
    }
    if (args.only === "events") {
      await measureEvents(client, catalog);
      return;
    }
    const picked = (s: Scenario) => onlyPublic === null || s.name.startsWith(onlyPublic);
    if (ports) {
      await measure(client, catalog, "as running", "", picked);
      console.log("\nSearch counts cache off: skipped (--ports: the bench cannot restart apps it did not start).");
    } else {
      await measure(client, catalog, "as deployed (search counts cached 30 s per process)", "30000", picked);
      // Cold scenarios ask distinct queries: with the cache off they would measure the same again.
      await measure(client, catalog, "search counts cache off (every request computes its counts)", "0", (s) =>
        s.name.startsWith("search") && !s.cold && picked(s),
      );
    }
    if (onlyPublic !== null) return;
    await measureSeller(client, catalog);
    await measureCheckout(client, catalog);
    if (!ports) await measureEvents(client, catalog);
    await explain(client, catalog);
  } finally {
    await client.$disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
