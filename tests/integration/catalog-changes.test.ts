/**
 * Caches exact across instances (lib/db/changes.ts, prisma/migrations/*_catalog_notify): an app
 * keeps the public product records it read, and a change to what a record shows (a price, a
 * listing sold out, a store suspended, a product delisted) reaches it by notification within
 * moments. The apps here keep records and "page exists" answers for an hour, so only a
 * notification can explain a change showing; a write made with triggers off (no notification)
 * shows that they do keep them. A write through the seller API is in the same instance's next read
 * at once (the write answers after this instance heard it). Also: a second instance (over the first one's embedded database
 * in embedded mode) hears what is changed through the first, and, on PostgreSQL, an app whose
 * listening connection is killed listens again by itself and starts afresh.
 * On an app and database of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseHtml, parseProductPage } from "../helpers/html";
import { randomClientIp } from "../helpers/http";
import { eventually } from "../helpers/eventually";
import { createTestKey, type IsolatedApp, sellerRequest, startIsolatedApp } from "../helpers/seller";
import { EMBEDDED, startServer, type StartedServer } from "../setup/app";

const KEEP_AN_HOUR = { PRODUCT_CACHE_TTL_MS: "3600000", STOREFRONT_EXISTS_TTL_MS: "3600000", SEARCH_COUNTS_TTL_MS: "3600000" };
const SLUG = "fixture-mixed-offers";

let app: IsolatedApp;
beforeAll(async () => {
  app = await startIsolatedApp("catalog-changes", KEEP_AN_HOUR);
});
afterAll(async () => {
  await app?.stop();
});

async function record(base: string, slug = SLUG): Promise<{ status: number; data: any }> {
  const res = await fetch(`${base}/api/public/v1/products/${slug}`, {
    headers: { "X-Forwarded-For": randomClientIp() },
    signal: AbortSignal.timeout(25_000),
  });
  const body = (await res.json()) as any;
  return { status: res.status, data: res.status === 200 ? body.data : null };
}

async function page(base: string, path: string) {
  const res = await fetch(base + path, { headers: { "X-Forwarded-For": randomClientIp() }, signal: AbortSignal.timeout(25_000) });
  return { status: res.status, text: await res.text() };
}

const offerOf = (data: any, listingId: string) => data?.offers.find((o: any) => o.listing_id === listingId);

/** How many times `server` started listening (lib/db/changes.ts logs each connection). */
const listenings = (server: StartedServer) => server.stderr().split("catalog changes: listening").length - 1;

/**
 * Until `server` listens (its first read opens the listener), so that the fresh start every
 * connection makes is behind us; then a read that it keeps.
 */
async function warm(server: StartedServer) {
  await record(server.baseUrl);
  expect(await eventually(async () => listenings(server), (n) => n > 0)).toBeGreaterThan(0);
  await record(server.baseUrl);
}

/** A write the triggers do not see, so that no app hears of it. */
async function unannounced(sql: string, params: unknown[]) {
  const client = await app.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL session_replication_role = replica");
    await client.query(sql, params);
    await client.query("COMMIT");
  } finally {
    client.release();
  }
}

async function listingId(sku: string): Promise<string> {
  const { rows } = await app.pool.query<{ id: string }>("SELECT id FROM listings WHERE sku = $1", [sku]);
  return rows[0]!.id;
}

describe("one instance: a change shows by notification", () => {
  it("the app serves the records it keeps (a change nobody announces does not show)", async () => {
    await warm(app.server);
    const id = await listingId("MIX-USED-B");
    expect(offerOf((await record(app.baseUrl)).data, id).price_cents).toBe(6000);
    await unannounced("UPDATE listings SET price_cents = 6100 WHERE id = $1", [id]);
    expect(offerOf((await record(app.baseUrl)).data, id).price_cents).toBe(6000);
  });

  it("a price change", async () => {
    const id = await listingId("MIX-USED-B");
    await page(app.baseUrl, `/p/${SLUG}`); // the storefront page reads the same kept record
    await app.pool.query("UPDATE listings SET price_cents = 5900 WHERE id = $1", [id]);
    const seen = await eventually(() => record(app.baseUrl), (r) => offerOf(r.data, id)?.price_cents === 5900);
    expect(offerOf(seen.data, id).price_cents).toBe(5900);
    expect(seen.data.min_price_cents).toBe(5900);
    const html = await page(app.baseUrl, `/p/${SLUG}`);
    expect(parseProductPage(html.text).offers.find((o) => o.listingId === id)?.priceCents).toBe(5900);
  });

  it("a listing sold out leaves the record, and comes back when restocked", async () => {
    const id = await listingId("MIX-USED-B");
    await app.pool.query("UPDATE listings SET quantity = 0 WHERE id = $1", [id]);
    const gone = await eventually(() => record(app.baseUrl), (r) => offerOf(r.data, id) === undefined);
    expect(gone.data.offers.map((o: any) => o.listing_id)).not.toContain(id);
    await app.pool.query("UPDATE listings SET quantity = 2 WHERE id = $1", [id]);
    const back = await eventually(() => record(app.baseUrl), (r) => offerOf(r.data, id) !== undefined);
    expect(offerOf(back.data, id)).toMatchObject({ in_stock: true, store_slug: "fixture-store-b" });
  });

  it("a store suspended takes its offers off the record", async () => {
    await record(app.baseUrl);
    await app.pool.query("UPDATE stores SET status = 'suspended' WHERE slug = 'fixture-store-b'");
    try {
      const seen = await eventually(
        () => record(app.baseUrl),
        (r) => !r.data.offers.some((o: any) => o.store_slug === "fixture-store-b"),
      );
      expect(seen.data.offers.map((o: any) => o.store_slug)).toEqual(["fixture-store-a", "fixture-store-a"]);
    } finally {
      await app.pool.query("UPDATE stores SET status = 'active' WHERE slug = 'fixture-store-b'");
    }
    const back = await eventually(() => record(app.baseUrl), (r) => r.data.offers.length === 4);
    expect(back.data.offers).toHaveLength(4);
  });

  it("a product delisted is not found, page included; listed again, it is found at once", async () => {
    // Kept: the record, and the proxy's "this product page exists".
    expect((await record(app.baseUrl)).status).toBe(200);
    expect((await page(app.baseUrl, `/p/${SLUG}`)).status).toBe(200);
    await app.pool.query("UPDATE products SET publicly_listed = false WHERE slug = $1", [SLUG]);
    try {
      expect((await eventually(() => record(app.baseUrl), (r) => r.status === 404)).status).toBe(404);
      // The proxy forgot the page too: the first 404 is already the rendered not-found page (had
      // it still believed the page exists, the page would answer Next's empty error shell first).
      const missing = await eventually(() => page(app.baseUrl, `/p/${SLUG}`), (r) => r.status !== 200);
      expect(missing.status).toBe(404);
      expect(parseHtml(missing.text)('main[data-page="not-found"]').length).toBe(1);
    } finally {
      await app.pool.query("UPDATE products SET publicly_listed = true WHERE slug = $1", [SLUG]);
    }
    // A "not found" is never kept.
    expect((await record(app.baseUrl)).status).toBe(200);
    expect((await page(app.baseUrl, `/p/${SLUG}`)).status).toBe(200);
  });
});

describe("one instance: a client reads what it wrote", () => {
  it("a seller API write is in the next read of the same instance, with no wait (10 in a row)", async () => {
    const id = await listingId("MIX-NEW-B");
    const { rows } = await app.pool.query<{ price_cents: number; slug: string }>(
      "SELECT l.price_cents, s.slug FROM listings l JOIN stores s ON s.id = l.store_id WHERE l.id = $1",
      [id],
    );
    const key = await createTestKey(app.pool, rows[0]!.slug, ["listings:read", "listings:write"]);
    await warm(app.server);
    // The write answers once this instance heard its change (lib/http/policies/read-your-writes.ts):
    // the read right after it never gets the record kept from before.
    for (let i = 1; i <= 10; i++) {
      const price = 9000 + i;
      const patched = await sellerRequest(app.baseUrl, "PATCH", `/api/v1/listings/${id}`, { key: key.key, body: { price_cents: price } });
      expect(patched.status, patched.text).toBe(200);
      expect(offerOf((await record(app.baseUrl)).data, id)?.price_cents).toBe(price);
    }
    const restored = await sellerRequest(app.baseUrl, "PATCH", `/api/v1/listings/${id}`, { key: key.key, body: { price_cents: rows[0]!.price_cents } });
    expect(restored.status, restored.text).toBe(200);
    expect(offerOf((await record(app.baseUrl)).data, id)?.price_cents).toBe(rows[0]!.price_cents);
  });
});

describe("search counts: kept until product_search changes", () => {
  async function total(query: string): Promise<number> {
    const res = await fetch(`${app.baseUrl}/api/public/v1/search?${query}`, {
      headers: { "X-Forwarded-For": randomClientIp() },
      signal: AbortSignal.timeout(25_000),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as any).meta.total;
  }
  // The fixture (a Voltix smartphone) by text (counted by a scan) and by browsing (the bitmaps).
  const byText = "q=quokkaphone";
  const byBrowse = "category=smartphones&brand=voltix";

  it("a product delisted leaves both totals, and comes back to both when listed again", async () => {
    const before = { text: await total(byText), browse: await total(byBrowse) };
    expect(before.text).toBeGreaterThan(0);
    const id = (await app.pool.query<{ id: string }>("SELECT id FROM products WHERE slug = $1", [SLUG])).rows[0]!.id;
    // Kept: a search row removed without any trigger or notification still counts.
    await unannounced("DELETE FROM product_search WHERE product_id = $1", [id]);
    expect(await total(byText)).toBe(before.text);
    await unannounced("SELECT refresh_product_search(ARRAY[$1::uuid])", [id]);

    await app.pool.query("UPDATE products SET publicly_listed = false WHERE slug = $1", [SLUG]);
    try {
      expect(await eventually(() => total(byText), (n) => n === before.text - 1)).toBe(before.text - 1);
      expect(await eventually(() => total(byBrowse), (n) => n === before.browse - 1)).toBe(before.browse - 1);
    } finally {
      await app.pool.query("UPDATE products SET publicly_listed = true WHERE slug = $1", [SLUG]);
    }
    expect(await eventually(() => total(byText), (n) => n === before.text)).toBe(before.text);
    expect(await eventually(() => total(byBrowse), (n) => n === before.browse)).toBe(before.browse);
  });
});

describe("query readings: kept until product_search changes", () => {
  it("a word that enters the catalog is read as a word of it at once", async () => {
    const search = async () => {
      const res = await fetch(`${app.baseUrl}/api/public/v1/search?q=zyzzogeton`, {
        headers: { "X-Forwarded-For": randomClientIp() },
        signal: AbortSignal.timeout(25_000),
      });
      return { total: ((await res.json()) as any).meta.total as number, relaxed: res.headers.get("x-query-relaxed") };
    };
    // Unknown to the dictionary: dropped, nothing found (and this reading is kept).
    expect(await search()).toEqual({ total: 0, relaxed: "true" });
    const { rows } = await app.pool.query<{ title: string }>("SELECT title FROM products WHERE slug = $1", [SLUG]);
    await app.pool.query("UPDATE products SET title = title || ' Zyzzogeton' WHERE slug = $1", [SLUG]);
    try {
      expect(await eventually(search, (r) => r.total === 1)).toEqual({ total: 1, relaxed: null });
    } finally {
      await app.pool.query("UPDATE products SET title = $2 WHERE slug = $1", [SLUG, rows[0]!.title]);
    }
  });
});

describe("two instances", () => {
  let b: StartedServer;
  beforeAll(async () => {
    b = await startServer({ databaseUrl: app.database.databaseUrl, env: KEEP_AN_HOUR, logPrefix: "[catalog-changes b]" });
  });
  afterAll(async () => {
    await b?.stop();
  });

  it("a change made through one instance's seller API shows on the other", async () => {
    const id = await listingId("MIX-NEW-A");
    const key = await createTestKey(app.pool, "fixture-store-a", ["listings:read", "listings:write"]);
    await warm(app.server);
    await warm(b);
    // Both keep the record: a write nobody hears of shows on neither.
    await unannounced("UPDATE listings SET price_cents = 10001 WHERE id = $1", [id]);
    for (const server of [app.server, b]) expect(offerOf((await record(server.baseUrl)).data, id).price_cents).toBe(10000);

    const patched = await sellerRequest(app.baseUrl, "PATCH", `/api/v1/listings/${id}`, { key: key.key, body: { price_cents: 9900 } });
    expect(patched.status, patched.text).toBe(200);
    for (const server of [b, app.server]) {
      const seen = await eventually(() => record(server.baseUrl), (r) => offerOf(r.data, id)?.price_cents === 9900);
      expect(offerOf(seen.data, id).price_cents).toBe(9900);
    }
  });

  describe.skipIf(EMBEDDED)("when the listening connections are lost (PostgreSQL)", () => {
    const listenerPids = async () =>
      (
        await app.pool.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
           WHERE application_name = 'marketplace-listener' AND datname = current_database() ORDER BY pid`,
        )
      ).rows.map((r) => r.pid);

    it("each app listens again by itself, starts afresh, and hears later changes again", async () => {
      const id = await listingId("MIX-NEW-B");
      await warm(app.server);
      await warm(b);
      const old = await listenerPids();
      expect(old).toHaveLength(2);
      const connections = [listenings(app.server), listenings(b)];

      // A change neither app hears of (kept records go on showing 9800)...
      await unannounced("UPDATE listings SET price_cents = 9750 WHERE id = $1", [id]);
      for (const server of [app.server, b]) expect(offerOf((await record(server.baseUrl)).data, id).price_cents).toBe(9800);

      await app.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = 'marketplace-listener' AND datname = current_database()`,
      );
      // ...and one made while nobody listens (they wait 250 ms before reconnecting).
      await app.pool.query("UPDATE listings SET list_price_cents = 9850 WHERE id = $1", [id]);

      const pids = await eventually(listenerPids, (p) => p.length === 2 && p.every((pid) => !old.includes(pid)));
      expect(pids).toHaveLength(2);
      expect(pids.filter((pid) => old.includes(pid))).toEqual([]);
      const reconnected = await eventually(
        async () => [listenings(app.server), listenings(b)],
        ([x, y]) => x! > connections[0]! && y! > connections[1]!,
      );
      expect(reconnected[0]).toBeGreaterThan(connections[0]!);
      expect(reconnected[1]).toBeGreaterThan(connections[1]!);
      expect(app.server.stderr()).toContain("catalog changes: not listening");

      // Listening again, each app forgot everything it kept: both changes show.
      for (const server of [app.server, b]) {
        const offer = offerOf((await record(server.baseUrl)).data, id);
        expect(offer).toMatchObject({ price_cents: 9750, list_price_cents: 9850 });
      }

      // A later change comes by notification, on the same connections.
      await app.pool.query("UPDATE listings SET price_cents = 9700 WHERE id = $1", [id]);
      for (const server of [app.server, b]) {
        const seen = await eventually(() => record(server.baseUrl), (r) => offerOf(r.data, id)?.price_cents === 9700);
        expect(offerOf(seen.data, id).price_cents).toBe(9700);
      }
      expect(await listenerPids()).toEqual(pids);
    });
  });
});
