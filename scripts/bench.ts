/**
 * npm run bench [-- --products 100000] [--duration 10] [--connections 8] [--reseed] [--only seller|checkout]
 *
 * Builds (once) a benchmark database of the given size, starts the built app on it, drives the
 * public API and the seller API with autocannon over varied requests per scenario, and guest
 * checkouts through the storefront's forms, prints p50/p95/p99 latency and requests/s, then
 * EXPLAIN ANALYZE of the main queries. Loopback only.
 * Needs `npm run build`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { interpretQuery } from "@/lib/catalog/interpret";
import { brandIdsOf, categoryScope, searchStatements } from "@/lib/catalog/search";
import { createApiKey } from "@/lib/auth/api-keys";
import { createDb, type PrismaClient } from "@/lib/db";
import { migrate } from "@/lib/db/migrate";
import { SearchQuery } from "@/lib/schemas/catalog";
import { queryObject } from "@/lib/http/query";

const { values: args } = parseArgs({
  options: {
    products: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "8" },
    reseed: { type: "boolean", default: false },
    only: { type: "string" },
    admin: { type: "string", default: process.env.BENCH_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" },
  },
});
const products = Number(args.products);
const duration = Number(args.duration);
const connections = Number(args.connections);
const dbName = `mkt_bench_${products}`;
const adminUrl = new URL(args.admin);
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${dbName}`;
process.env.DATABASE_URL = benchUrl.toString();

async function prepareDatabase(): Promise<PrismaClient> {
  const admin = createDb(adminUrl.toString(), { maintenance: true });
  const exists = await admin.$queryRaw<unknown[]>`SELECT 1 FROM pg_database WHERE datname = ${dbName}`;
  if (args.reseed && exists.length) await admin.$executeRawUnsafe(`DROP DATABASE "${dbName}" WITH (FORCE)`);
  if (args.reseed || !exists.length) await admin.$executeRawUnsafe(`CREATE DATABASE "${dbName}"`);
  await admin.$disconnect();

  const client = createDb(benchUrl.toString(), { maintenance: true });
  await migrate(client, (line) => console.error(line));
  const [count] = await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM products`;
  if ((count?.n ?? 0) < products) {
    console.error(`seeding ${products} products into ${dbName} ...`);
    const seed = spawnSync("npx", ["tsx", "prisma/seed.ts", "--products", String(products)], {
      stdio: "inherit",
      env: process.env,
    });
    if (seed.status !== 0) throw new Error("seed failed");
  }
  await client.$executeRawUnsafe("VACUUM ANALYZE");
  return client;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startApp(port: number, countsTtlMs: string): Promise<ChildProcess> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("run `npm run build` first");
  const child = spawn("npm", ["run", "start", "--", "-p", String(port), "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_REQUESTS: "off",
      NODE_ENV: "production",
      AUTH_SECRET: process.env.AUTH_SECRET ?? "test-secret-for-session-cookies-0123456789abcdef",
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

interface Scenario {
  name: string;
  paths: string[];
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
  return [
    { name: "search: text query", paths: words.map((w) => `${s}?q=${encodeURIComponent(w)}`) },
    { name: "search: category browse", paths: all.map((c) => `${s}?category=${c}`) },
    { name: "search: top-level category", paths: top.map((c) => `${s}?category=${c}&sort=price_asc`) },
    { name: "search: whole catalog", paths: ["relevance", "newest", "price_asc", "price_desc"].map((o) => `${s}?sort=${o}`) },
    {
      name: "search: filtered",
      paths: Array.from({ length: 60 }, (_, i) => {
        const [min, max] = pick(prices, i);
        return `${s}?category=${pick(top, i)}&brand=${pick(brands, i * 7).slug},${pick(brands, i * 11).slug}&condition=${pick(conditions, i)}&price_min_cents=${min}&price_max_cents=${max}`;
      }),
    },
    { name: "search: text + filters", paths: words.map((w, i) => `${s}?q=${encodeURIComponent(w)}&condition=${pick(conditions, i)}&sort=price_asc`) },
    { name: "search: deep page", paths: Array.from({ length: 40 }, (_, i) => `${s}?category=${pick(top, i)}&page=${20 + i * 5}&sort=newest`) },
    { name: "product", paths: slugs.map((r) => `/api/public/v1/products/${r.slug}`) },
    // Server-rendered storefront pages over the same library calls (HTML, no client JS run).
    { name: "page: search (text)", paths: words.map((w) => `/search?q=${encodeURIComponent(w)}`) },
    { name: "page: category", paths: all.map((c) => `/c/${c}`) },
    { name: "page: product", paths: slugs.map((r) => `/p/${r.slug}`) },
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

async function run(base: string, scenario: Scenario) {
  const requests = scenario.paths.map((path) => ({ method: "GET" as const, path, setupRequest: fromRandomClient }));
  // Warm-up pass touches every URL twice (connection pools, JIT, buffer cache).
  await autocannon({ url: base, connections, amount: requests.length * 2, requests });
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: base, connections, duration, requests }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
  });
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]! * 10) / 10;
  return {
    scenario: scenario.name,
    urls: requests.length,
    p50_ms: pct(50),
    p95_ms: pct(95),
    p99_ms: pct(99),
    req_per_s: Math.round(latencies.length / duration),
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

async function explain(client: PrismaClient) {
  const [top] = await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM categories WHERE nlevel(path) = 1 ORDER BY position LIMIT 1`;
  const brands = (await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM brands ORDER BY slug LIMIT 2`).map((b) => b.slug);
  const cases: Array<[string, string]> = [
    ["text query", "q=wireless+headphones"],
    ["category browse", `category=${top!.slug}`],
    ["filtered", `category=${top!.slug}&condition=new&price_min_cents=2500&price_max_cents=10000&sort=price_asc`],
    ["filtered with brands", `category=${top!.slug}&brand=${brands.join(",")}&condition=new&price_min_cents=2500&price_max_cents=5000`],
    ["whole catalog, deep page", "page=200&sort=newest"],
  ];
  for (const [label, qs] of cases) {
    const params = SearchQuery.parse(queryObject(new URLSearchParams(qs)));
    const scope = params.category ? await categoryScope(params.category) : null;
    const brandIds = params.brand?.length ? await brandIdsOf(params.brand) : null;
    const text = params.q ? await interpretQuery(params.q) : null;
    for (const [part, stmt] of Object.entries(searchStatements(params, scope, brandIds, {}, text))) {
      const plan = await client.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, SUMMARY ON) ${stmt.text}`,
        ...stmt.values,
      );
      console.log(`\n### EXPLAIN ANALYZE: search ${part}, ${label} (${qs})\n`);
      console.log("```");
      console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
      console.log("```");
    }
  }
}

async function measure(client: PrismaClient, label: string, countsTtlMs: string, only?: (s: Scenario) => boolean) {
  const port = await freePort();
  const app = await startApp(port, countsTtlMs);
  try {
    const base = `http://127.0.0.1:${port}`;
    const rows = [];
    for (const scenario of (await scenarios(client)).filter(only ?? (() => true))) {
      const row = await run(base, scenario);
      console.error(`${label} ${row.scenario}: p95 ${row.p95_ms} ms, ${row.req_per_s} req/s`);
      rows.push(row);
    }
    const store = process.env.REDIS_URL ? "rate limits in Redis" : "rate limits in process";
    console.log(`\n## Public API, ${products} products, ${connections} connections, ${duration}s per scenario, ${store}: ${label}\n`);
    console.log("| scenario | URLs | p50 ms | p95 ms | p99 ms | req/s | non-2xx |");
    console.log("|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.scenario} | ${r.urls} | ${r.p50_ms} | ${r.p95_ms} | ${r.p99_ms} | ${r.req_per_s} | ${r.non_2xx + r.errors} |`);
    }
  } finally {
    process.kill(-app.pid!, "SIGTERM");
  }
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

async function measureSeller(client: PrismaClient) {
  const port = await freePort();
  const app = await startApp(port, "30000");
  try {
    const base = `http://127.0.0.1:${port}`;
    const rows = [];
    for (const scenario of await sellerScenarios(client)) {
      const requests = [{ setupRequest: () => fromRandomClient(scenario.make()) }];
      await autocannon({ url: base, connections, amount: 200, requests });
      const latencies: number[] = [];
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon({ url: base, connections, duration, requests }, (err, res) => (err ? reject(err) : resolve(res)));
        instance.on("response", (_client, _status, _bytes, ms) => latencies.push(ms));
      });
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]! * 10) / 10;
      rows.push({ scenario: scenario.name, p50: pct(50), p95: pct(95), p99: pct(99), rps: Math.round(latencies.length / duration), bad: result.non2xx + result.errors });
      console.error(`seller ${scenario.name}: p95 ${pct(95)} ms`);
    }
    console.log(`\n## Seller API, ${products} products, ${connections} connections, ${duration}s per scenario\n`);
    console.log("| scenario | p50 ms | p95 ms | p99 ms | req/s | non-2xx |");
    console.log("|---|---|---|---|---|---|");
    for (const r of rows) console.log(`| ${r.scenario} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.rps} | ${r.bad} |`);
  } finally {
    process.kill(-app.pid!, "SIGTERM");
  }
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

async function measureCheckout(client: PrismaClient) {
  const pool = (
    await client.$queryRaw<{ id: string }[]>`
      SELECT l.id::text AS id FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
      WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND l.quantity >= 20 AND NOT l.allow_backorder
      ORDER BY md5(l.id::text) LIMIT 2000`
  ).map((r) => r.id);
  const port = await freePort();
  const app = await startApp(port, "30000");
  try {
    const base = `http://127.0.0.1:${port}`;
    const pick = () => Array.from({ length: 3 }, () => pool[Math.floor(Math.random() * pool.length)]!).filter((id, i, all) => all.indexOf(id) === i);
    const latencies: number[] = [];
    let failed = 0;
    const buyer = async (until: number) => {
      while (Date.now() < until) {
        const guest = new Guest(base);
        const fields = await guest.prepare(pick());
        const started = performance.now();
        const placed = await guest.request("POST", "/checkout/place", fields);
        const ms = performance.now() - started;
        if (placed.status === 303 && placed.location.startsWith("/checkout/confirmation/")) latencies.push(ms);
        else failed++;
      }
    };
    await Promise.all(Array.from({ length: connections }, () => buyer(Date.now() + 2_000)));
    latencies.length = 0;
    failed = 0;
    await Promise.all(Array.from({ length: connections }, () => buyer(Date.now() + duration * 1000)));
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]! * 10) / 10;

    // Oversell: `units` units, twice as many buyers, all placing at once.
    const units = 5;
    const [race] = await client.$queryRaw<{ id: string }[]>`
      UPDATE listings SET quantity = ${units} WHERE id = ${pool[0]}::uuid RETURNING id::text AS id`;
    const racers = Array.from({ length: units * 2 + connections }, () => new Guest(base));
    const forms = await Promise.all(racers.map((g) => g.prepare([race!.id])));
    const before = await client.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM order_lines WHERE listing_id = ${race!.id}::uuid`;
    const results = await Promise.all(racers.map((g, i) => g.request("POST", "/checkout/place", forms[i]!)));
    const [after] = await client.$queryRaw<{ n: number; quantity: number }[]>`
      SELECT (SELECT count(*)::int FROM order_lines WHERE listing_id = ${race!.id}::uuid) AS n,
             (SELECT quantity FROM listings WHERE id = ${race!.id}::uuid) AS quantity`;
    const placedInRace = results.filter((r) => r.location.startsWith("/checkout/confirmation/")).length;
    const oversold = after!.n - before[0]!.n !== units || placedInRace !== units || after!.quantity !== 0;

    console.log(`\n## Checkout (storefront, guests), ${products} products, ${connections} buyers at once, ${duration}s\n`);
    console.log("| scenario | orders | p50 ms | p95 ms | p99 ms | orders/s | failed |");
    console.log("|---|---|---|---|---|---|---|");
    console.log(`| checkout: place order (3-line cart) | ${latencies.length} | ${pct(50)} | ${pct(95)} | ${pct(99)} | ${Math.round((latencies.length / duration) * 10) / 10} | ${failed} |`);
    console.log(
      `\nOversell check: ${racers.length} buyers at once for a listing with ${units} units: ${placedInRace} orders placed, ` +
        `${results.length - placedInRace} refused, quantity now ${after!.quantity}: ${oversold ? "OVERSOLD (bug)" : "no oversell"}.`,
    );
    if (oversold) process.exitCode = 1;
  } finally {
    process.kill(-app.pid!, "SIGTERM");
  }
}

async function main() {
  const client = await prepareDatabase();
  try {
    if (args.only === "seller") {
      await measureSeller(client);
      return;
    }
    if (args.only === "checkout") {
      await measureCheckout(client);
      return;
    }
    await measure(client, "as deployed (search counts cached 30 s per process)", "30000");
    await measure(client, "search counts cache off (every request computes its counts)", "0", (s) =>
      s.name.startsWith("search"),
    );
    await measureSeller(client);
    await measureCheckout(client);
    await explain(client);
  } finally {
    await client.$disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
