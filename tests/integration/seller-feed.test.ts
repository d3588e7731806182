/**
 * decisions.md "Seller API", lists: `GET /api/v1/listings` newest first (archived only when
 * asked), and with `updated_since` the sync feed: every listing updated at or after the instant,
 * archived included, in commit order (change_seq, ties by id), whose cursor continues exactly
 * where the last page stopped, and which never hands out a change while an older transaction that
 * could still commit one before it is open. A property test (fast-check, fixed seed, 200 runs)
 * interleaves writers with a client paging the feed and proves no change is ever lost, including
 * a writer held open (started first, committed last) while another commits and the client pages.
 *
 * Writers here are plain SQL sessions, as any writer of the listings table is (the API, the
 * dashboard, the operator command): the trigger of migration 20261123000000 stamps each write.
 * Runs on an app and database of its own.
 */
import fc from "fast-check";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED } from "../setup/app";
import { expectErrorEnvelope } from "../helpers/http";
import { createListingVia, expectListing, type SeedIds, seedIds, uniqueSku } from "../helpers/listings";
import { createTestKey, type IsolatedApp, sellerRequest, type SellerResponse, startIsolatedApp } from "../helpers/seller";

let app: IsolatedApp;
let ids: SeedIds;
/** A generated store of the seed that these tests have to themselves, with its template. */
let store: { id: string; slug: string; template: string };

beforeAll(async () => {
  app = await startIsolatedApp("seller-feed");
  ids = await seedIds(app.pool);
  const row = (await app.pool.query<{ id: string; slug: string }>(
    "SELECT id, slug FROM stores WHERE status = 'active' AND slug NOT LIKE 'fixture-%' ORDER BY slug DESC LIMIT 1",
  )).rows[0]!;
  const template = (await app.pool.query<{ id: string }>("SELECT id FROM shipping_templates WHERE store_id = $1 LIMIT 1", [row.id])).rows[0]!.id;
  store = { ...row, template };
});

afterAll(async () => {
  await app?.stop();
});

const key = async (slug = store.slug) => (await createTestKey(app.pool, slug, ["listings:read", "listings:write"])).key;
const get = (k: string, query: string) => sellerRequest(app.baseUrl, "GET", `/api/v1/listings${query}`, { key: k });

function expectPage(res: SellerResponse) {
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  expect(Object.keys(res.json).sort()).toEqual(["data", "meta", "next_cursor"]);
  expect(Object.keys(res.json.meta)).toEqual(["request_id"]);
  expect(res.headers.get("x-request-id")).toBe(res.json.meta.request_id);
  for (const listing of res.json.data) expectListing(listing);
  return res.json as { data: any[]; next_cursor: string | null };
}

/** Every page of a list, following next_cursor until it is null. */
async function allPages(k: string, query: Record<string, string>) {
  const rows: any[] = [];
  const pages: number[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, ...(cursor ? { cursor } : {}) });
    const page = expectPage(await get(k, `?${params}`));
    rows.push(...page.data);
    pages.push(page.data.length);
    cursor = page.next_cursor;
  } while (cursor);
  return { rows, pages };
}

/**
 * A listing on a product of its own. Writers of listings of one product queue on that product's
 * search row (the search index is kept by triggers), so a writer held open on one product must
 * not share it with the writers that commit meanwhile.
 */
async function listingOnOwnProduct(k: string, extra: Record<string, unknown> = {}) {
  return createListingVia(app.baseUrl, k, {
    product: { title: `Feed product ${uniqueSku("P")}`, category: "smartphones" },
    sku: uniqueSku("FEED"),
    condition: "new",
    price_cents: 1000,
    ...extra,
  });
}

async function newListings(k: string, n: number, extra: Record<string, unknown> = {}) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(await createListingVia(app.baseUrl, k, { product_id: ids.productId, sku: uniqueSku("FEED"), condition: "new", price_cents: 1000 + i, ...extra }));
  }
  return out;
}

/** The database's clock (updated_at is stamped by it). */
async function dbNow(pool: pg.Pool): Promise<Date> {
  return (await pool.query<{ now: Date }>("SELECT clock_timestamp() AS now")).rows[0]!.now;
}

/**
 * Waits until no transaction older than the store's latest change is open anywhere on the server
 * (transaction ids are cluster-wide: a parallel test's transaction in another database holds the
 * feed back as well). The feed hands out every committed change only then; waiting on that
 * condition, not on a clock, keeps these tests independent of what else runs.
 */
async function settled(storeId = store.id) {
  for (let i = 0; i < 3000; i++) {
    const { rows } = await app.pool.query<{ ok: boolean }>(
      `SELECT coalesce((SELECT max(change_seq) FROM listings WHERE store_id = $1), 0) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS ok`,
      [storeId],
    );
    if (rows[0]!.ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("a transaction older than the latest change stayed open for a minute");
}

function expectError(res: SellerResponse, status: number, code: string, param?: string) {
  expectErrorEnvelope(res, { status, type: status === 400 ? "invalid_request_error" : "not_found_error", code, param });
}

// ---------------------------------------------------------------------------------------------

describe("the plain list", () => {
  it("is the store's non-archived listings, newest first (created_at, then id, descending), paged by cursor", async () => {
    const k = await key();
    const made = await newListings(k, 3);
    await sellerRequest(app.baseUrl, "POST", `/api/v1/listings/${made[1].id}/status`, { key: k, body: { status: "archived" } });
    // About 500 listings in pages of 13: some 40 requests, inside the key's burst of 60 however
    // fast they go (more would make the test depend on the refill keeping up).
    const { rows, pages } = await allPages(k, { limit: "13" });
    const truth = (await app.pool.query<{ id: string }>(
      "SELECT id FROM listings WHERE store_id = $1 AND status <> 'archived' ORDER BY created_at DESC, id DESC",
      [store.id],
    )).rows.map((r) => r.id);
    expect(rows.map((r) => r.id)).toEqual(truth);
    expect(pages.slice(0, -1).every((n) => n === 13)).toBe(true);
    expect(rows.map((r) => r.id)).not.toContain(made[1].id);
    expect(rows.slice(0, 2).map((r) => r.id)).toEqual([made[2].id, made[0].id]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it("limit defaults to 25", async () => {
    const k = await key();
    const count = Number((await app.pool.query("SELECT count(*) FROM listings WHERE store_id = $1 AND status <> 'archived'", [store.id])).rows[0].count);
    if (count < 26) await newListings(k, 26 - count);
    const page = expectPage(await get(k, ""));
    expect(page.data).toHaveLength(25);
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it("status= filters, archived included when asked; the last page's next_cursor is null", async () => {
    const k = await key();
    const [one] = await newListings(k, 1);
    await sellerRequest(app.baseUrl, "POST", `/api/v1/listings/${one.id}/status`, { key: k, body: { status: "archived" } });
    for (const status of ["draft", "active", "inactive", "archived"]) {
      const { rows } = await allPages(k, { status, limit: "100" });
      const truth = (await app.pool.query<{ id: string }>("SELECT id FROM listings WHERE store_id = $1 AND status = $2 ORDER BY created_at DESC, id DESC", [store.id, status])).rows.map((r) => r.id);
      expect(rows.map((r) => r.id), status).toEqual(truth);
      expect(rows.every((r) => r.status === status)).toBe(true);
    }
    expect((await allPages(k, { status: "archived" })).rows.map((r) => r.id)).toContain(one.id);
  });

  it("shows only the caller's store", async () => {
    const { rows } = await allPages(await key("fixture-store-b"), { limit: "100" });
    const truth = (await app.pool.query<{ id: string }>("SELECT id FROM listings WHERE store_id = $1 AND status <> 'archived' ORDER BY created_at DESC, id DESC", [ids.storeB])).rows.map((r) => r.id);
    expect(rows.map((r) => r.id)).toEqual(truth);
  });

  it("garbage cursors, and a cursor of the other list, are 400 naming cursor", async () => {
    const k = await key();
    await settled();
    const feedPage = expectPage(await get(k, "?updated_since=0&limit=1"));
    const listPage = expectPage(await get(k, "?limit=1"));
    expect(feedPage.next_cursor && listPage.next_cursor).toBeTruthy();
    expectError(await get(k, `?cursor=${feedPage.next_cursor}`), 400, "parameter_invalid", "cursor");
    expectError(await get(k, `?updated_since=0&cursor=${listPage.next_cursor}`), 400, "parameter_invalid", "cursor");
    const forged = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString("base64url");
    for (const cursor of ["x", "!!!", forged(["listings", "yesterday", "nope"]), forged(["listings", 1, 2]), "a".repeat(600)]) {
      expectError(await get(k, `?cursor=${encodeURIComponent(cursor)}`), 400, "parameter_invalid", "cursor");
    }
    for (const cursor of [forged(["listings_feed", "-1", ids.listingB]), forged(["listings_feed", "1e9", ids.listingB]), forged(["listings_feed", "1", "x"])]) {
      expectError(await get(k, `?updated_since=0&cursor=${cursor}`), 400, "parameter_invalid", "cursor");
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("updated_since", () => {
  it("accepts ISO-8601 (Z, offsets, fractions, a date) and Unix seconds; the same instant, the same feed", async () => {
    const k = await key();
    await settled();
    const forms = ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05.000Z", "2026-01-02T04:04:05+01:00", "2026-01-01T22:04:05-0500", "2026-01-02t03:04:05z", String(Date.UTC(2026, 0, 2, 3, 4, 5) / 1000)];
    const answers = await Promise.all(forms.map((since) => get(k, `?updated_since=${encodeURIComponent(since)}&limit=100`)));
    const first = expectPage(answers[0]!).data.map((r) => r.id);
    for (const res of answers) expect(expectPage(res).data.map((r) => r.id)).toEqual(first);
    expect(expectPage(await get(k, "?updated_since=2026-01-02")).data.length).toBeGreaterThan(0);
  });

  it("garbage is a 400 naming updated_since; repeated is a 400; with status= it is a 400 naming status", async () => {
    const k = await key();
    for (const bad of ["yesterday", "2026-02-31", "2026-13-01", "2026-01-01T25:00:00Z", "2026-01-01T10:00:00", "-1", "1e9", "", "1700000000.5", "99999999999999", "2026-01-01T00:00:00Z%00"]) {
      expectError(await get(k, `?updated_since=${encodeURIComponent(bad).replace("%2500", "%00")}`), 400, "parameter_invalid", "updated_since");
    }
    expectError(await get(k, "?updated_since=0&updated_since=1"), 400, "parameter_invalid", "updated_since");
    expectError(await get(k, "?updated_since=0&status=active"), 400, "parameter_invalid", "status");
  });

  it("lists every listing updated at or after the instant, archived included, in commit order", async () => {
    const k = await key();
    const [x, y, z] = await newListings(k, 3);
    const since = new Date(x.updated_at);
    await sellerRequest(app.baseUrl, "POST", `/api/v1/listings/${y.id}/status`, { key: k, body: { status: "archived" } });
    await sellerRequest(app.baseUrl, "PATCH", `/api/v1/listings/${x.id}`, { key: k, body: { quantity: 4 } });
    await settled();
    const { rows } = await allPages(k, { updated_since: since.toISOString(), limit: "2" });
    expect(rows.map((r) => r.id)).toEqual([z.id, y.id, x.id]);
    expect(rows[1].status).toBe("archived");
    expect(rows[2].quantity).toBe(4);
    const truth = (await app.pool.query<{ id: string }>(
      "SELECT id FROM listings WHERE store_id = $1 AND updated_at >= $2 ORDER BY change_seq, id",
      [store.id, since],
    )).rows.map((r) => r.id);
    expect(rows.map((r) => r.id)).toEqual(truth);
  });

  it("the instant itself is included, a millisecond later excludes it", async () => {
    const k = await key();
    const [x] = await newListings(k, 1);
    const at = Date.parse(x.updated_at);
    await settled();
    const list = async (ms: number) => (await allPages(k, { updated_since: new Date(ms).toISOString(), limit: "100" })).rows.map((r) => r.id);
    expect(await list(at)).toContain(x.id);
    expect(await list(at + 1)).not.toContain(x.id);
  });

  it("rows written by one transaction share a timestamp and a sequence: ties go by id, and paging one by one misses none", async () => {
    const k = await key();
    const made = await newListings(k, 5);
    const since = await dbNow(app.pool);
    await app.pool.query("UPDATE listings SET quantity = quantity + 1 WHERE id = ANY($1::uuid[])", [made.map((m) => m.id)]);
    await settled();
    const { rows, pages } = await allPages(k, { updated_since: since.toISOString(), limit: "1" });
    expect(rows.map((r) => r.id)).toEqual(made.map((m) => m.id).sort());
    expect(new Set(rows.map((r) => r.updated_at)).size).toBe(1);
    expect(pages.slice(0, -1).every((n) => n === 1)).toBe(true);
  });

  it("a row changed behind the cursor comes again later in the same paging", async () => {
    const k = await key();
    const made = await newListings(k, 4);
    const since = new Date(made[0].updated_at);
    await settled();
    const first = expectPage(await get(k, `?updated_since=${since.toISOString()}&limit=2`));
    expect(first.data.map((r) => r.id)).toEqual([made[0].id, made[1].id]);
    await app.pool.query("UPDATE listings SET price_cents = 4242 WHERE id = $1", [made[0].id]);
    await settled();
    const rest = [];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = expectPage(await get(k, `?updated_since=${since.toISOString()}&limit=2&cursor=${cursor}`));
      rest.push(...page.data);
      cursor = page.next_cursor;
    }
    expect(rest.map((r) => r.id)).toEqual([made[2].id, made[3].id, made[0].id]);
    expect(rest[2].price_cents).toBe(4242);
  });
});

// ---------------------------------------------------------------------------------------------

// PGlite runs one transaction at a time for every connection: a writer cannot stay open while
// another commits, so the held-open writer is staged on a PostgreSQL server only.
describe.skipIf(EMBEDDED)("a writer held open", () => {
  it("a change committed after an older transaction started is not handed out until that one ends", async () => {
    const k = await key();
    const held = await listingOnOwnProduct(k);
    const [other] = await newListings(k, 1);
    const since = await dbNow(app.pool);
    const writer = await app.pool.connect();
    try {
      await writer.query("BEGIN");
      await writer.query("UPDATE listings SET price_cents = 1111 WHERE id = $1", [held.id]); // started first
      await app.pool.query("UPDATE listings SET price_cents = 2222 WHERE id = $1", [other.id]); // commits first

      // The client pages to the end while the older writer is open: the newer change waits.
      const query = `?updated_since=${since.toISOString()}&limit=10`;
      const page = expectPage(await get(k, query));
      expect(page.data).toEqual([]);
      expect(page.next_cursor).toBeNull();

      await writer.query("COMMIT"); // committed last
      await settled();
      // The held writer's change sorts first: handing out the other one earlier would have put
      // the cursor past it for good.
      const seqs = (await app.pool.query("SELECT id, change_seq::text AS seq FROM listings WHERE id = ANY($1::uuid[])", [[held.id, other.id]])).rows;
      const seqOf = (id: string) => BigInt(seqs.find((r) => r.id === id)!.seq);
      expect(seqOf(held.id) < seqOf(other.id)).toBe(true);
      const after = expectPage(await get(k, query));
      expect(after.data.map((r) => [r.id, r.price_cents])).toEqual([
        [held.id, 1111],
        [other.id, 2222],
      ]);
    } finally {
      await writer.query("ROLLBACK").catch(() => {});
      writer.release();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("no change is ever lost (property, fast-check seed 20261123, 200 runs)", () => {
  /**
   * One run: a few listings; a client that pages the feed from `since` with a small limit; writes
   * committed between its pages; and (on PostgreSQL) in some runs a writer that starts before
   * everything else and commits last, while the others commit and the client pages to the end.
   * The client follows next_cursor; at the end of the feed (next_cursor null) it repeats the
   * request of its last page, as a syncing client does. When every writer has committed and the
   * client has paged to the end once more, what it holds must be exactly the database: every
   * listing changed since `since`, each in its latest version.
   */
  type Field = "price" | "quantity" | "backorder";
  type Step = { kind: "write"; listing: number; field: Field } | { kind: "page"; limit: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("write" as const), listing: fc.integer({ min: 0, max: 3 }), field: fc.constantFrom<Field>("price", "quantity", "backorder") }),
    fc.record({ kind: fc.constant("page" as const), limit: fc.integer({ min: 1, max: 3 }) }),
  );

  let listings: string[];
  let heldListing: string;
  let k: string;
  let requests = 0;

  beforeAll(async () => {
    k = await key();
    const made = await newListings(k, 4, { shipping_template_id: store.template, quantity: 1 });
    listings = made.map((m) => m.id);
    heldListing = (await listingOnOwnProduct(k, { shipping_template_id: store.template, quantity: 1 })).id;
  });

  /** The key to use: a fresh one every 40 requests, as the property sends far more than one key's bucket holds. */
  async function rotatingKey() {
    if (++requests % 40 === 0) k = await key();
    return k;
  }

  async function page(since: string, limit: number, cursor: string | null) {
    const params = new URLSearchParams({ updated_since: since, limit: String(limit), ...(cursor ? { cursor } : {}) });
    return expectPage(await get(await rotatingKey(), `?${params}`));
  }

  async function write(listing: string, field: Field) {
    const set = field === "price" ? "price_cents = price_cents + 1" : field === "quantity" ? "quantity = quantity + 1" : "allow_backorder = NOT allow_backorder";
    await app.pool.query(`UPDATE listings SET ${set} WHERE id = $1`, [listing]);
  }

  it("a client paging the feed while writers commit ends up with every change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), fc.boolean(), async (steps, holdOne) => {
        const hold = holdOne && !EMBEDDED;
        const since = (await dbNow(app.pool)).toISOString();
        const seen = new Map<string, any>();
        let cursor: string | null = null;
        let writer: pg.PoolClient | null = null;
        const fetchPage = async (limit: number) => {
          const result = await page(since, limit, cursor);
          for (const row of result.data) seen.set(row.id, row);
          // At the end of the feed, keep the cursor: the next request repeats this page.
          if (result.next_cursor) cursor = result.next_cursor;
          return result;
        };
        try {
          if (hold) {
            writer = await app.pool.connect();
            await writer.query("BEGIN");
            await writer.query("UPDATE listings SET price_cents = price_cents + 1 WHERE id = $1", [heldListing]);
          }
          for (const s of steps) {
            if (s.kind === "write") await write(listings[s.listing]!, s.field);
            else await fetchPage(s.limit);
          }
          if (writer) {
            // The client pages to the end while the held writer is still open...
            for (let guard = 0; guard < 50 && (await fetchPage(3)).next_cursor; guard++);
            await writer.query("COMMIT"); // ...which then commits last.
            writer.release();
            writer = null;
          }
          await settled();
          for (let guard = 0; guard < 50 && (await fetchPage(3)).next_cursor; guard++);
        } finally {
          if (writer) {
            await writer.query("ROLLBACK").catch(() => {});
            writer.release();
          }
        }
        // The client's copy is the database: every listing changed since `since`, latest version.
        const truth = (await app.pool.query<{ id: string }>(
          "SELECT id FROM listings WHERE store_id = $1 AND updated_at >= $2 ORDER BY id",
          [store.id, since],
        )).rows.map((r) => r.id);
        expect([...seen.keys()].sort()).toEqual(truth);
        for (const id of truth) {
          const now = (await sellerRequest(app.baseUrl, "GET", `/api/v1/listings/${id}`, { key: await rotatingKey() })).json.data;
          expect(seen.get(id), id).toEqual(now);
        }
      }),
      { seed: 20261123, numRuns: 200, endOnFailure: true },
    );
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------

describe("query plans on the seeded database", () => {
  /** The plan in a session set up as the app's are (lib/db SESSION_SETTINGS). */
  async function plan(sql: string, params: unknown[]) {
    const client = await app.pool.connect();
    try {
      await client.query("SET random_page_cost = 1.1");
      await client.query("SET max_parallel_workers_per_gather = 0");
      return (await client.query(`EXPLAIN ${sql}`, params)).rows.map((r) => r["QUERY PLAN"] as string).join("\n");
    } finally {
      await client.query("RESET ALL");
      client.release();
    }
  }

  it("the feed walks (store_id, change_seq, id); the plain list walks (store_id, created_at desc, id desc)", async () => {
    // The store with the most listings, with statistics as autovacuum would gather them.
    await app.pool.query("ANALYZE listings");
    await app.pool.query("ANALYZE products");
    const storeId = (await app.pool.query<{ store_id: string }>("SELECT store_id FROM listings GROUP BY store_id ORDER BY count(*) DESC LIMIT 1")).rows[0]!.store_id;
    const feed = await plan(
      `SELECT l.id FROM listings l JOIN products p ON p.id = l.product_id
       WHERE l.store_id = $1 AND l.change_seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
         AND l.updated_at >= $2 AND (l.change_seq, l.id) > ($3::bigint, $4::uuid)
       ORDER BY l.change_seq, l.id LIMIT 101`,
      [storeId, "2020-01-01T00:00:00Z", "0", "00000000-0000-0000-0000-000000000000"],
    );
    expect(feed).toContain("listings_store_id_change_seq_id_idx");
    const list = await plan(
      `SELECT l.id FROM listings l JOIN products p ON p.id = l.product_id
       WHERE l.store_id = $1 AND l.status <> 'archived' AND (l.created_at, l.id) < ($2::timestamptz, $3::uuid)
       ORDER BY l.created_at DESC, l.id DESC LIMIT 101`,
      [storeId, "2030-01-01T00:00:00Z", "ffffffff-ffff-ffff-ffff-ffffffffffff"],
    );
    expect(list).toContain("listings_store_id_created_at_id_idx");
  });
});

