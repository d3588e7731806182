/**
 * decisions.md "Seller API", inventory batch: `POST /api/v1/inventory/batch` applies 1..100
 * adjustments (`delta` or `set_quantity`, each with an optional `expected_quantity`) in order,
 * all or none; the first failing one is named in `param`; concurrent batches never lose an
 * update. Runs on an app and database of its own.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectErrorEnvelope, expectExactKeys } from "../helpers/http";
import { createListingVia, expectItem, ISO_MS, type SeedIds, seedIds, STOCK_ADJUSTMENT_KEYS, uniqueSku, UUID } from "../helpers/listings";
import { createTestKey, type IsolatedApp, sellerRequest, type SellerResponse, startIsolatedApp } from "../helpers/seller";

let app: IsolatedApp;
let ids: SeedIds;

beforeAll(async () => {
  app = await startIsolatedApp("seller-inventory");
  ids = await seedIds(app.pool);
});

afterAll(async () => {
  await app?.stop();
});

/** A fresh key of store A (each test has a rate-limit bucket of its own). */
const freshKey = async (slug = "fixture-store-a") => (await createTestKey(app.pool, slug, ["listings:read", "listings:write"])).key;

const batch = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  sellerRequest(app.baseUrl, "POST", "/api/v1/inventory/batch", { key, body, headers });

async function listingWith(key: string, quantity: number, extra: Record<string, unknown> = {}) {
  return createListingVia(app.baseUrl, key, { product_id: ids.productId, sku: uniqueSku("INV"), condition: "new", price_cents: 1000, quantity, ...extra });
}

async function quantityOf(id: string): Promise<number> {
  return (await app.pool.query<{ quantity: number }>("SELECT quantity FROM listings WHERE id = $1", [id])).rows[0]!.quantity;
}

async function adjustmentsOf(id: string) {
  return (await app.pool.query("SELECT delta, quantity_after, reason FROM stock_adjustments WHERE listing_id = $1 ORDER BY created_at, quantity_after", [id])).rows;
}

function expectError(res: SellerResponse, status: number, type: string, code: string, param?: string) {
  expectErrorEnvelope(res, { status, type, code, param });
}

describe("applying a batch", () => {
  it("answers one stock adjustment per adjustment, in request order, with exactly the contract's fields", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 10);
    const y = await listingWith(key, 0);
    const res = await batch(key, {
      adjustments: [
        { listing_id: y.id, set_quantity: 7 },
        { listing_id: x.id, delta: -3 },
        { listing_id: x.id.toUpperCase(), delta: 5, expected_quantity: 7 },
        { listing_id: y.id, delta: 0 },
      ],
    });
    const data = expectItem(res);
    expect(Array.isArray(data)).toBe(true);
    expect(data).toHaveLength(4);
    for (const adjustment of data) {
      expectExactKeys(adjustment, STOCK_ADJUSTMENT_KEYS, "stock adjustment");
      expect(adjustment.id).toMatch(UUID);
      expect(adjustment.object).toBe("stock_adjustment");
      expect(adjustment.reason).toBe("batch");
      expect(adjustment.created_at).toMatch(ISO_MS);
    }
    expect(data.map((d: any) => [d.listing_id, d.delta, d.quantity_after])).toEqual([
      [y.id, 7, 7],
      [x.id, -3, 7],
      [x.id, 5, 12],
      [y.id, 0, 7],
    ]);
    expect(new Set(data.map((d: any) => d.id)).size).toBe(4);
    expect(await quantityOf(x.id)).toBe(12);
    expect(await quantityOf(y.id)).toBe(7);
    // The listing answers the new quantity, and its feed position moved.
    const listing = expectItem(await sellerRequest(app.baseUrl, "GET", `/api/v1/listings/${x.id}`, { key }));
    expect(listing.quantity).toBe(12);
    expect(Date.parse(listing.updated_at)).toBeGreaterThanOrEqual(Date.parse(x.updated_at));
    expect(await adjustmentsOf(x.id)).toEqual([
      { delta: -3, quantity_after: 7, reason: "batch" },
      { delta: 5, quantity_after: 12, reason: "batch" },
    ]);
  });

  it("works on drafts, active and inactive listings; an archived one is read-only (409)", async () => {
    const key = await freshKey();
    const draft = await listingWith(key, 1);
    const archived = await listingWith(key, 1);
    await sellerRequest(app.baseUrl, "POST", `/api/v1/listings/${archived.id}/status`, { key, body: { status: "archived" } });
    const res = await batch(key, { adjustments: [{ listing_id: draft.id, delta: 1 }, { listing_id: archived.id, delta: 1 }] });
    expectError(res, 409, "state_error", "listing_archived", "adjustments[1].listing_id");
    expect(await quantityOf(draft.id)).toBe(1);
  });
});

describe("all or none: the first failing adjustment is named", () => {
  type Case = { name: string; adjustments: (x: string, y: string) => unknown[]; status: number; type: string; code: string; param: string };
  const cases: Case[] = [
    { name: "stale expected_quantity", adjustments: (x, y) => [{ listing_id: x, delta: 1 }, { listing_id: y, delta: 1, expected_quantity: 4 }], status: 409, type: "conflict_error", code: "stale_quantity", param: "adjustments[1].expected_quantity" },
    { name: "expected_quantity compared after earlier adjustments", adjustments: (x) => [{ listing_id: x, delta: 2 }, { listing_id: x, delta: 1, expected_quantity: 5 }], status: 409, type: "conflict_error", code: "stale_quantity", param: "adjustments[1].expected_quantity" },
    { name: "a delta below zero", adjustments: (x, y) => [{ listing_id: y, delta: 3 }, { listing_id: x, delta: -6 }], status: 400, type: "invalid_request_error", code: "quantity_negative", param: "adjustments[1].delta" },
    { name: "deltas that add up below zero", adjustments: (x) => [{ listing_id: x, delta: -3 }, { listing_id: x, delta: -3 }], status: 400, type: "invalid_request_error", code: "quantity_negative", param: "adjustments[1].delta" },
    { name: "a negative set_quantity", adjustments: (x) => [{ listing_id: x, set_quantity: -1 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].set_quantity" },
    { name: "above 1,000,000", adjustments: (x) => [{ listing_id: x, delta: 999_996 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].delta" },
    { name: "an unknown listing", adjustments: (x) => [{ listing_id: x, delta: 1 }, { listing_id: randomUUID(), delta: 1 }], status: 404, type: "not_found_error", code: "listing_not_found", param: "adjustments[1].listing_id" },
    { name: "another store's listing", adjustments: (x) => [{ listing_id: x, delta: 1 }, { listing_id: x, delta: 1 }, { listing_id: ids.listingB, delta: 1 }], status: 404, type: "not_found_error", code: "listing_not_found", param: "adjustments[2].listing_id" },
    { name: "a listing id that is not a UUID", adjustments: (x) => [{ listing_id: x, delta: 1 }, { listing_id: "1 OR 1=1", delta: 1 }], status: 404, type: "not_found_error", code: "listing_not_found", param: "adjustments[1].listing_id" },
    { name: "the first failure wins, whatever its kind", adjustments: (x) => [{ listing_id: x, delta: 1, expected_quantity: 9 }, { listing_id: "nope", delta: 1 }], status: 409, type: "conflict_error", code: "stale_quantity", param: "adjustments[0].expected_quantity" },
    { name: "both delta and set_quantity", adjustments: (x) => [{ listing_id: x, delta: 1, set_quantity: 2 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].set_quantity" },
    { name: "neither delta nor set_quantity", adjustments: (x) => [{ listing_id: x }], status: 400, type: "invalid_request_error", code: "parameter_missing", param: "adjustments[0].delta" },
    { name: "no listing_id", adjustments: () => [{ delta: 1 }], status: 400, type: "invalid_request_error", code: "parameter_missing", param: "adjustments[0].listing_id" },
    { name: "a fractional delta", adjustments: (x) => [{ listing_id: x, delta: 1.5 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].delta" },
    { name: "a huge delta", adjustments: (x) => [{ listing_id: x, delta: 1e300 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].delta" },
    { name: "a delta as a string", adjustments: (x) => [{ listing_id: x, delta: "1" }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].delta" },
    { name: "an unknown field", adjustments: (x) => [{ listing_id: x, delta: 1, reason: "count" }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].reason" },
    { name: "expected_quantity negative", adjustments: (x) => [{ listing_id: x, delta: 1, expected_quantity: -1 }], status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "adjustments[0].expected_quantity" },
  ];

  it.each(cases)("$name -> $status $code at $param", async ({ adjustments, status, type, code, param }) => {
    const key = await freshKey();
    const x = await listingWith(key, 5);
    const y = await listingWith(key, 5);
    const res = await batch(key, { adjustments: adjustments(x.id, y.id) });
    expectError(res, status, type, code, param);
    // Nothing applied.
    expect(await quantityOf(x.id)).toBe(5);
    expect(await quantityOf(y.id)).toBe(5);
    expect(await adjustmentsOf(x.id)).toEqual([]);
    expect(await adjustmentsOf(y.id)).toEqual([]);
    expect(await quantityOf(ids.listingB)).toBe(3);
  });
});

describe("limits and hostile bodies", () => {
  it("1 to 100 adjustments: 0 and 101 and 10,000 are 400 naming adjustments", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 0);
    const many = (n: number) => ({ adjustments: Array.from({ length: n }, () => ({ listing_id: x.id, delta: 1 })) });
    const hundred = await batch(key, many(100));
    expect(expectItem(hundred)).toHaveLength(100);
    expect(await quantityOf(x.id)).toBe(100);
    expect(expectItem(await batch(key, many(1)))).toHaveLength(1);
    for (const n of [0, 101, 10_000]) {
      expectError(await batch(key, many(n)), 400, "invalid_request_error", "parameter_invalid", "adjustments");
    }
    expect(await quantityOf(x.id)).toBe(101);
  });

  it("delta and set_quantity at and past their edges", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 0);
    expect(expectItem(await batch(key, { adjustments: [{ listing_id: x.id, set_quantity: 1_000_000 }] }))[0].quantity_after).toBe(1_000_000);
    expect(expectItem(await batch(key, { adjustments: [{ listing_id: x.id, delta: -1_000_000 }] }))[0].quantity_after).toBe(0);
    expectError(await batch(key, { adjustments: [{ listing_id: x.id, set_quantity: 1_000_001 }] }), 400, "invalid_request_error", "parameter_invalid", "adjustments[0].set_quantity");
    expectError(await batch(key, { adjustments: [{ listing_id: x.id, delta: 1_000_001 }] }), 400, "invalid_request_error", "parameter_invalid", "adjustments[0].delta");
    expectError(await batch(key, { adjustments: [{ listing_id: x.id, delta: -1_000_001 }] }), 400, "invalid_request_error", "parameter_invalid", "adjustments[0].delta");
    expectError(await batch(key, { adjustments: [{ listing_id: x.id, delta: -1 }] }), 400, "invalid_request_error", "quantity_negative", "adjustments[0].delta");
    expect(expectItem(await batch(key, { adjustments: [{ listing_id: x.id, delta: 1, expected_quantity: 0 }] }))[0].quantity_after).toBe(1);
  });

  it("not an object, no adjustments, a 1 MiB+ body (413), another content type (415)", async () => {
    const key = await freshKey();
    expectError(await batch(key, {}), 400, "invalid_request_error", "parameter_missing", "adjustments");
    expectError(await batch(key, { adjustments: {} }), 400, "invalid_request_error", "parameter_invalid", "adjustments");
    expectError(await batch(key, { adjustments: [null] }), 400, "invalid_request_error", "parameter_invalid", "adjustments[0]");
    expectError(await batch(key, { adjustments: [{ listing_id: randomUUID(), delta: 1 }], extra: 1 }), 400, "invalid_request_error", "parameter_invalid", "extra");
    const huge = JSON.stringify({ adjustments: Array.from({ length: 30_000 }, () => ({ listing_id: randomUUID(), delta: 1 })) });
    expect(huge.length).toBeGreaterThan(1024 * 1024);
    const big = await sellerRequest(app.baseUrl, "POST", "/api/v1/inventory/batch", { key, rawBody: huge, headers: { "Content-Type": "application/json" } });
    expectError(big, 413, "invalid_request_error", "body_too_large");
    const text = await sellerRequest(app.baseUrl, "POST", "/api/v1/inventory/batch", { key, rawBody: "{}", headers: { "Content-Type": "text/plain" } });
    expectError(text, 415, "invalid_request_error", "content_type_invalid");
  });

  it("a read-only key is refused before anything is applied", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 2);
    const { key: readOnly } = await createTestKey(app.pool, "fixture-store-a", ["listings:read"]);
    expectError(await batch(readOnly, { adjustments: [{ listing_id: x.id, delta: 1 }] }), 403, "permission_error", "scope_missing");
    expect(await quantityOf(x.id)).toBe(2);
  });
});

describe("concurrency", () => {
  it("20 concurrent batches of +1 on one listing end at exactly +20", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 3);
    const answers = await Promise.all(Array.from({ length: 20 }, () => batch(key, { adjustments: [{ listing_id: x.id, delta: 1 }] })));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await quantityOf(x.id)).toBe(23);
    // Every batch saw the quantity the one before it wrote: quantity_after 4..23, each once.
    expect(answers.map((r) => r.json.data[0].quantity_after).sort((p, q) => p - q)).toEqual(Array.from({ length: 20 }, (_, i) => 4 + i));
    expect((await adjustmentsOf(x.id)).length).toBe(20);
  });

  it("concurrent batches over the same listings in opposite orders neither deadlock nor lose updates", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 100);
    const y = await listingWith(key, 100);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        batch(key, {
          adjustments:
            i % 2
              ? [{ listing_id: x.id, delta: 1 }, { listing_id: y.id, delta: -1 }]
              : [{ listing_id: y.id, delta: 2 }, { listing_id: x.id, delta: -2 }],
        }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await quantityOf(x.id)).toBe(100 + 10 - 20);
    expect(await quantityOf(y.id)).toBe(100 - 10 + 20);
  });

  it("a batch and a PATCH of the quantity on the same listing both count", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 10);
    const [patched, batched] = await Promise.all([
      sellerRequest(app.baseUrl, "PATCH", `/api/v1/listings/${x.id}`, { key, body: { quantity: 50 } }),
      batch(key, { adjustments: [{ listing_id: x.id, delta: 5 }] }),
    ]);
    expect([patched.status, batched.status]).toEqual([200, 200]);
    // Either order: the PATCH sets 50 (then +5 = 55), or +5 first (15) then the PATCH sets 50.
    const final = await quantityOf(x.id);
    expect([50, 55]).toContain(final);
    const log = await adjustmentsOf(x.id);
    expect(log.map((l: { reason: string }) => l.reason).sort()).toEqual(["batch", "update"]);
    expect(log.reduce((sum: number, l: { delta: number }) => sum + l.delta, 10)).toBe(final);
  });

  it("an Idempotency-Key replays a batch instead of applying it twice", async () => {
    const key = await freshKey();
    const x = await listingWith(key, 0);
    const headers = { "Idempotency-Key": randomUUID() };
    const first = await batch(key, { adjustments: [{ listing_id: x.id, delta: 4 }] }, headers);
    const second = await batch(key, { adjustments: [{ listing_id: x.id, delta: 4 }] }, headers);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json.data).toEqual(first.json.data);
    expect(await quantityOf(x.id)).toBe(4);
  });
});
