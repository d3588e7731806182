/**
 * Public catalog reads from streaming replicas (DATABASE_REPLICA_URLS, lib/db/replicas.ts), on a
 * real standby: a primary and a `pg_basebackup` standby of it that this file starts on free ports
 * (tests/helpers/replica-cluster.ts), seeded with a small catalog. PostgreSQL mode only (the
 * embedded database has no replicas and needs none).
 *
 * Which server answered is counted on the standby: its `pg_stat_user_tables` scans grow only
 * with reads run there (the reader's own polls read no table), so "served by the replica" needs
 * no marker in the statements. Nothing waits a fixed time: each step polls for its condition.
 *
 * Two parts: the reader as this process uses it (the library, as the doors call it), and the
 * built app (`next start`) pointed at both servers, through HTTP.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { randomClientIp } from "../helpers/http";
import { expectQuotedLinesIn } from "../helpers/operations-doc";
import { startReplicaCluster, type ReplicaCluster } from "../helpers/replica-cluster";
import { createTestKey, sellerRequest } from "../helpers/seller";
import { createTestDatabase, run, startServer, type StartedServer, type TestDatabase } from "../setup/app";

const PG = Boolean(process.env.DATABASE_URL);
const SLUG = "fixture-mixed-offers";
const MAX_LAG_MS = "1000";

let cluster: ReplicaCluster;
let database: TestDatabase;
let primaryUrl: string;
let standbyUrl: string;
let primary: pg.Pool;
let standby: pg.Pool;

/** A pool of the test's own; a server stopped under it (the point of some tests) is no failure of its. */
function testPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on("error", () => {});
  return pool;
}

/** Table scans the standby ran so far: catalog reads it served (polls read no table). */
async function standbyScans(): Promise<number> {
  const { rows } = await standby.query<{ n: string }>(
    "SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::bigint AS n FROM pg_stat_user_tables",
  );
  return Number(rows[0]!.n);
}

/** Scans until they grow past `before` (the standby reports a backend's scans within a second). */
const scansAbove = (before: number) => eventually(standbyScans, (n) => n > before, 30_000);

const pauseReplay = () => standby.query("SELECT pg_wal_replay_pause()");
const resumeReplay = () => standby.query("SELECT pg_wal_replay_resume()");
const standbyTitle = async (slug = SLUG) =>
  (await standby.query<{ title: string }>("SELECT title FROM products WHERE slug = $1", [slug])).rows[0]!.title;

// Each step polls for its condition for up to 30 s (60 s for a standby to start): longer than the default test timeout.
describe.skipIf(!PG)("read replicas (PostgreSQL)", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    cluster = await startReplicaCluster("replicas");
    try {
      database = await createTestDatabase({ adminUrl: cluster.primaryAdminUrl, seeded: false, logPrefix: "[replicas]" });
      primaryUrl = database.databaseUrl;
      await run("npx", ["tsx", "prisma/seed.ts", "--products", "200"], { ...process.env, DATABASE_URL: primaryUrl });
      await cluster.startStandby();
    } catch (err) {
      const tails = `primary log:\n${cluster.logTail("primary")}\nstandby log:\n${cluster.logTail("standby")}`;
      await cluster.destroy();
      throw new Error(`${String(err)}\n${tails}`);
    }
    standbyUrl = cluster.standbyUrl(primaryUrl);
    primary = testPool(primaryUrl);
    standby = testPool(standbyUrl);
    // Streaming: the standby has the seeded catalog.
    expect(await eventually(() => standbyTitle().catch(() => null), (t) => t !== null, 30_000)).toBeTruthy();
  }, 300_000);

  afterAll(async () => {
    await standby?.end().catch(() => {});
    await primary?.end().catch(() => {});
    await cluster?.destroy();
  });

  /** Starts the standby again after a test stopped it, and waits until it streams. */
  async function standbyBack() {
    await cluster.startStandby();
    await standby.end().catch(() => {});
    standby = testPool(standbyUrl);
    await eventually(() => standbyTitle().catch(() => null), (t) => t !== null, 60_000);
  }

  describe("the reader of this process (lib/db/replicas.ts, as the doors call it)", () => {
    let lib: {
      withCatalogReader: typeof import("@/lib/http/database").withCatalogReader;
      transaction: typeof import("@/lib/http/database").transaction;
      searchProducts: typeof import("@/lib/catalog/search").searchProducts;
      getProduct: typeof import("@/lib/catalog/product").getProduct;
      getCategoryTree: typeof import("@/lib/catalog/categories").getCategoryTree;
      replicaStatus: typeof import("@/lib/db/replicas").replicaStatus;
      SearchQuery: typeof import("@/lib/schemas/catalog").SearchQuery;
    };
    const status = () => lib.replicaStatus()![0]!;
    const product = (slug = SLUG) => lib.withCatalogReader((client) => lib.getProduct(client, slug));
    const search = (q: string) =>
      lib.withCatalogReader((client) => lib.searchProducts(client, lib.SearchQuery.parse({ q, page_size: "5" })));

    beforeAll(async () => {
      // db() and the reader read these when first used. No per-process caches: every read is a query.
      Object.assign(process.env, {
        DATABASE_URL: primaryUrl,
        DATABASE_REPLICA_URLS: standbyUrl,
        DATABASE_REPLICA_MAX_LAG_MS: MAX_LAG_MS,
        PRODUCT_CACHE_TTL_MS: "0",
        SEARCH_COUNTS_TTL_MS: "0",
      });
      const doors = await import("@/lib/http/database");
      lib = {
        withCatalogReader: doors.withCatalogReader,
        transaction: doors.transaction,
        searchProducts: (await import("@/lib/catalog/search")).searchProducts,
        getProduct: (await import("@/lib/catalog/product")).getProduct,
        getCategoryTree: (await import("@/lib/catalog/categories")).getCategoryTree,
        replicaStatus: (await import("@/lib/db/replicas")).replicaStatus,
        SearchQuery: (await import("@/lib/schemas/catalog")).SearchQuery,
      };
      await lib.withCatalogReader(lib.getCategoryTree); // makes the reader: the poller starts
    });

    afterAll(async () => {
      const { db } = await import("@/lib/db");
      await db().$disconnect();
    });

    it("public catalog reads are served by the replica", async () => {
      expect((await eventually(async () => status(), (s) => s.eligible, 30_000)).eligible).toBe(true);
      const before = await standbyScans();
      const readsBefore = status().reads;
      const [found, record, tree] = await Promise.all([
        search("smartphone"),
        product(),
        lib.withCatalogReader(lib.getCategoryTree),
      ]);
      expect(found.meta.total).toBeGreaterThan(0);
      expect(record.slug).toBe(SLUG);
      expect(tree.meta.count).toBeGreaterThan(0);
      expect(status().reads).toBeGreaterThan(readsBefore);
      expect(await scansAbove(before)).toBeGreaterThan(before);
    });

    it("a write is read at once by the process that made it, though the replica has not replayed it", async () => {
      await pauseReplay();
      try {
        const title = `Replica test ${Date.now()}`;
        await lib.transaction((tx) => tx.$executeRaw`UPDATE products SET title = ${title} WHERE slug = ${SLUG}`);
        expect((await product()).title).toBe(title);
        expect(await standbyTitle()).not.toBe(title); // the replica would have answered the old one
        // However long it stays behind, every read of this process sees the write.
        for (let i = 0; i < 5; i++) expect((await product()).title).toBe(title);
        expect((await eventually(async () => status(), (s) => !s.eligible)).eligible).toBe(false);

        // A write by another process (heard as a notification, or past the lag bound) is read too.
        const other = `Replica test, elsewhere ${Date.now()}`;
        await primary.query("UPDATE products SET title = $1 WHERE slug = $2", [other, SLUG]);
        expect((await eventually(() => product(), (p) => p.title === other)).title).toBe(other);
        for (let i = 0; i < 5; i++) expect((await product()).title).toBe(other);
      } finally {
        await resumeReplay();
      }
      // Caught up, the replica serves again, and what it serves is the write.
      expect((await eventually(async () => status(), (s) => s.eligible, 30_000)).eligible).toBe(true);
      const before = await standbyScans();
      expect((await product()).title).toMatch(/^Replica test, elsewhere/);
      expect(await scansAbove(before)).toBeGreaterThan(before);
    });

    it("a replica further behind than DATABASE_REPLICA_MAX_LAG_MS is skipped, whatever was written", async () => {
      expect((await eventually(async () => status(), (s) => s.eligible, 30_000)).eligible).toBe(true);
      await pauseReplay();
      try {
        // WAL that no catalog change announces: only the lag bound can tell.
        await primary.query("CREATE TABLE IF NOT EXISTS replica_lag_probe (n int)");
        await primary.query("INSERT INTO replica_lag_probe SELECT generate_series(1, 100)");
        expect((await eventually(async () => status(), (s) => !s.eligible, 30_000)).eligible).toBe(false);
        expect((await search("smartphone")).meta.total).toBeGreaterThan(0);
      } finally {
        await resumeReplay();
      }
      expect((await eventually(async () => status(), (s) => s.eligible, 30_000)).eligible).toBe(true);
    });

    it("the standby stopped mid-run: every read answers", async () => {
      expect((await eventually(async () => status(), (s) => s.eligible, 30_000)).eligible).toBe(true);
      const failures: unknown[] = [];
      let done = 0;
      const reads = [() => search("smartphone"), () => product(), () => lib.withCatalogReader(lib.getCategoryTree)];
      const worker = async () => {
        for (let i = 0; i < 20; i++) {
          try {
            await reads[i % reads.length]!();
          } catch (err) {
            failures.push(err);
          }
          done++;
        }
      };
      const workers = Promise.all([worker(), worker(), worker()]);
      await eventually(async () => done, (n) => n >= 10, 30_000);
      await cluster.stopStandby();
      await workers;
      expect(failures).toEqual([]);
      expect(done).toBe(60);
      expect((await eventually(async () => status(), (s) => !s.up)).up).toBe(false);
      expect((await product()).slug).toBe(SLUG);
      await standbyBack();
      expect((await eventually(async () => status(), (s) => s.eligible, 60_000)).eligible).toBe(true);
    });
  });

  describe("the app (next start) with DATABASE_REPLICA_URLS", () => {
    let server: StartedServer;
    beforeAll(async () => {
      server = await startServer({
        databaseUrl: primaryUrl,
        // The caches as in production (the library part above turned them off in this process).
        env: {
          DATABASE_REPLICA_URLS: standbyUrl,
          DATABASE_REPLICA_MAX_LAG_MS: MAX_LAG_MS,
          PRODUCT_CACHE_TTL_MS: undefined,
          SEARCH_COUNTS_TTL_MS: undefined,
        },
        logPrefix: "[replicas]",
      });
    });
    afterAll(async () => server?.stop());

    async function get(path: string): Promise<{ status: number; json: any }> {
      const res = await fetch(server.baseUrl + path, {
        headers: { "X-Forwarded-For": randomClientIp() },
        signal: AbortSignal.timeout(25_000),
      });
      const text = await res.text();
      return { status: res.status, json: res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
    }
    const offerPrice = async (listingId: string) =>
      (await get(`/api/public/v1/products/${SLUG}`)).json.data.offers.find((o: any) => o.listing_id === listingId)?.price_cents;

    /** Reads through the app until the standby counts them: public reads are served there. */
    async function servedByReplica() {
      const before = await standbyScans();
      const grown = await eventually(
        async () => {
          expect((await get(`/api/public/v1/search?q=smartphone&page=${1 + Math.floor(Math.random() * 3)}`)).status).toBe(200);
          return standbyScans();
        },
        (n) => n > before,
        30_000,
      );
      expect(grown).toBeGreaterThan(before);
    }

    it("public reads (API and storefront) come from the replica", async () => {
      await servedByReplica();
      const health = await eventually(() => get("/api/health"), (h) => h.json.replicas?.["replica 1"] === "serving");
      expect(health.json.replicas).toEqual({ "replica 1": "serving" });
      // Product records are kept per process once read: each round reads one not read before.
      const { rows } = await primary.query<{ slug: string }>(
        `SELECT p.slug FROM products p
         WHERE p.publicly_listed AND EXISTS (SELECT 1 FROM listings l WHERE l.product_id = p.id AND l.status = 'active' AND l.quantity > 0)
         ORDER BY p.slug LIMIT 200`,
      );
      expect(rows.length).toBeGreaterThan(10);
      let next = 0;
      const kinds: Array<[string, () => string]> = [
        ["categories", () => "/api/public/v1/categories"],
        ["product", () => `/api/public/v1/products/${rows[next++ % rows.length]!.slug}`],
        ["search page", () => `/search?q=phone&page=${1 + (next++ % 3)}`],
        ["product page", () => `/p/${rows[next++ % rows.length]!.slug}`],
      ];
      for (const [kind, path] of kinds) {
        const before = await standbyScans();
        const grown = await eventually(
          async () => {
            const p = path();
            expect((await get(p)).status, p).toBe(200);
            return standbyScans();
          },
          (n) => n > before,
          30_000,
        );
        expect(grown, kind).toBeGreaterThan(before);
      }
    });

    it("a seller's write through the app is in the same instance's next read, the replica paused", async () => {
      const { rows } = await primary.query<{ id: string; price_cents: number; store: string }>(
        "SELECT l.id, l.price_cents, s.slug AS store FROM listings l JOIN stores s ON s.id = l.store_id WHERE l.sku = 'MIX-NEW-B'",
      );
      const listing = rows[0]!;
      const key = await createTestKey(primary, listing.store, ["listings:read", "listings:write"]);
      await servedByReplica();
      await pauseReplay();
      try {
        for (let i = 1; i <= 5; i++) {
          const price = 9100 + i;
          const patched = await sellerRequest(server.baseUrl, "PATCH", `/api/v1/listings/${listing.id}`, { key: key.key, body: { price_cents: price } });
          expect(patched.status, patched.text).toBe(200);
          expect(await offerPrice(listing.id)).toBe(price);
        }
        // Another instance's write (here: straight to the primary) shows once heard, and stays.
        await primary.query("UPDATE listings SET price_cents = 9199 WHERE id = $1", [listing.id]);
        expect(await eventually(() => offerPrice(listing.id), (p) => p === 9199)).toBe(9199);
        for (let i = 0; i < 5; i++) expect(await offerPrice(listing.id)).toBe(9199);
      } finally {
        await resumeReplay();
      }
      // Caught up, the replica serves again.
      await servedByReplica();
      expect(await offerPrice(listing.id)).toBe(9199);
    });

    it("the standby stopped mid-run: every request answers 200", async () => {
      await servedByReplica();
      const paths = [
        "/api/public/v1/search?q=smartphone",
        `/api/public/v1/products/${SLUG}`,
        "/api/public/v1/categories",
        "/search?q=phone",
        `/p/${SLUG}`,
      ];
      const statuses: Array<[string, number]> = [];
      let done = 0;
      const worker = async (w: number) => {
        for (let i = 0; i < 15; i++) {
          const path = paths[(i + w) % paths.length]!;
          statuses.push([path, (await get(path)).status]);
          done++;
        }
      };
      const workers = Promise.all([worker(0), worker(1), worker(2)]);
      await eventually(async () => done, (n) => n >= 10, 30_000);
      await cluster.stopStandby();
      await workers;
      expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
      expect(statuses).toHaveLength(45);
      // The instance says so, and stays healthy: the primary serves.
      const health = await eventually(() => get("/api/health"), (h) => h.json.replicas?.["replica 1"] === "unreachable");
      expect(health.status).toBe(200);
      expect(health.json).toMatchObject({ status: "ok", database: "ok", replicas: { "replica 1": "unreachable" } });
      // docs/operations.md quotes the lines an operator sees, as the app prints them.
      expectQuotedLinesIn(server.stderr(), (msg) => msg.startsWith("database replica:"));
      await standbyBack();
    });
  });
});
