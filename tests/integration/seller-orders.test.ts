/**
 * Issue 34 item 1, first part: the seller orders API (`/api/v1/orders`) over HTTP. A store's key
 * sees its own part of an order (`order_part`, exactly its fields), never another store's lines,
 * shipping or the payment; other stores' orders and junk are 404 `order_not_found`. Lists page
 * newest first; `updated_since` is the sync feed. Ship and deliver are the desk's moves (the
 * cases of tests/integration/orders.test.ts, over HTTP): the order follows its parts, the buyer
 * is mailed, a refused move changes nothing, Idempotency-Key replays. Returns of the store's
 * lines: listed, read, approved, received, refunded once, rejected. Cancelling a placed part puts
 * its units back, refunds its lines and shipping once and mails the buyer; the order follows; a
 * cancelled line cannot be returned. Scopes orders:read and
 * orders:write. On an app and database of its own (it writes).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { getBuyerOrder } from "@/lib/orders";
import { requestReturn } from "@/lib/returns";
import { CreateReturn } from "@/lib/schemas/orders";
import { OrderPart, StoreReturn } from "@/lib/schemas/seller/orders";
import { expectExactKeys } from "../helpers/http";
import { createTestOrder, FIXTURE_ADDRESS, type FixtureOrder } from "../helpers/orders";
import { createTestKey, feedSettled, type IsolatedApp, sellerRequest, startIsolatedApp, storeIdOf } from "../helpers/seller";

const PART_KEYS = Object.keys(OrderPart.shape);
const RETURN_KEYS = Object.keys(StoreReturn.shape);
const LINE_KEYS = ["id", "listing_id", "product_slug", "title", "store_slug", "condition", "quantity", "unit_price_cents", "line_total_cents"];
const ALL = ["orders:read", "orders:write"];

let app: IsolatedApp;
let client: PrismaClient;
let buyer = "";
const keys = { a: "", b: "", c: "", readOnly: "", writeOnly: "", listingsOnly: "" };

function req(method: string, path: string, key: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
  return sellerRequest(app.baseUrl, method, `/api/v1${path}`, { key, ...options });
}

/** An order with lines of stores A (two lines, free shipping) and B (one line, 5.00 shipping). */
function twoStoreOrder(extra: Partial<Parameters<typeof createTestOrder>[1]> = {}): Promise<FixtureOrder> {
  return createTestOrder(app.pool, {
    userId: null,
    email: "buyer@example.com",
    parts: [
      { store: "fixture-store-a", lines: [{ quantity: 3 }, { quantity: 1 }], shippingCents: 0 },
      { store: "fixture-store-b", lines: [{ quantity: 2 }], shippingCents: 500 },
    ],
    ...extra,
  });
}

/** Everything a refused move could have touched. */
async function stateOf(orderId: string) {
  const q = async (sql: string) => (await app.pool.query(sql, [orderId])).rows;
  return {
    order: await q(`SELECT status, delivered_at, updated_at FROM orders WHERE id = $1`),
    parts: await q(
      `SELECT store_id, status, carrier, tracking_number, shipped_at, delivered_at, cancelled_at, cancel_reason, refund_cents, refund_ref, updated_at, change_seq FROM order_stores WHERE order_id = $1 ORDER BY store_id`,
    ),
    stock: await q(`SELECT l.id, l.quantity FROM listings l WHERE l.id IN (SELECT listing_id FROM order_lines WHERE order_id = $1) ORDER BY l.id`),
    adjustments: await q(`SELECT count(*)::int AS n FROM stock_adjustments WHERE listing_id IN (SELECT listing_id FROM order_lines WHERE order_id = $1)`),
    events: await q(`SELECT count(*)::int AS n FROM order_events WHERE order_id = $1`),
    mails: await q(`SELECT count(*)::int AS n FROM outbox_emails WHERE subject LIKE '%' || (SELECT number FROM orders WHERE id = $1) || '%'`),
  };
}

function expectError(res: { status: number; json: any; text: string }, status: number, code: string, param?: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.json.error.code).toBe(code);
  if (param !== undefined) expect(res.json.error.param).toBe(param);
}

beforeAll(async () => {
  app = await startIsolatedApp("seller-orders");
  client = createDb(app.database.databaseUrl);
  const { rows } = await app.pool.query(`INSERT INTO users (email, name, role) VALUES ($1, 'Returner', 'shopper') RETURNING id`, [`returner-${randomBytes(4).toString("hex")}@example.com`]);
  buyer = rows[0].id;
  keys.a = (await createTestKey(app.pool, "fixture-store-a", ALL)).key;
  keys.b = (await createTestKey(app.pool, "fixture-store-b", ALL)).key;
  keys.c = (await createTestKey(app.pool, "harbor-electronics", ALL)).key;
  keys.readOnly = (await createTestKey(app.pool, "fixture-store-a", ["orders:read"])).key;
  keys.writeOnly = (await createTestKey(app.pool, "fixture-store-a", ["orders:write"])).key;
  keys.listingsOnly = (await createTestKey(app.pool, "fixture-store-a", ["listings:read", "listings:write", "shipping:write"])).key;
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("reading orders", () => {
  it("a store's part: exactly the order_part fields, its own lines and totals; nothing of the other store or the payment", async () => {
    const order = await twoStoreOrder({ placedVia: "agent" });
    const res = await req("GET", `/orders/${order.number}`, keys.b);
    expect(res.status, res.text).toBe(200);
    expectExactKeys(res.json, ["data", "meta"], "envelope");
    const part = res.json.data;
    expectExactKeys(part, PART_KEYS, "order_part");
    const mine = order.lines.filter((l) => l.storeSlug === "fixture-store-b");
    const subtotal = mine.reduce((s, l) => s + l.quantity * l.unitPriceCents, 0);
    expect(part).toMatchObject({
      id: order.id,
      object: "order_part",
      number: order.number,
      status: "placed",
      placed_via: "agent",
      email: "buyer@example.com",
      shipping_address: FIXTURE_ADDRESS,
      subtotal_cents: subtotal,
      shipping_cents: 500,
      total_cents: subtotal + 500,
      currency: "USD",
      carrier: null,
      tracking_number: null,
      shipped_at: null,
      delivered_at: null,
    });
    expect(part.lines.map((l: any) => l.id)).toEqual(mine.map((l) => l.id));
    for (const line of part.lines) expectExactKeys(line, LINE_KEYS, "line");
    expect(part.lines.every((l: any) => l.store_slug === "fixture-store-b")).toBe(true);
    expect(Date.parse(part.created_at)).toBeGreaterThan(0);
    expect(part.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.text).not.toContain(order.paymentRef);
    expect(res.text).not.toContain("fixture-store-a");
    expect(OrderPart.safeParse(part).success).toBe(true);

    // By id, and by number in any case: the same part.
    expect((await req("GET", `/orders/${order.id.toUpperCase()}`, keys.b)).json.data).toEqual(part);
    expect((await req("GET", `/orders/${order.number.toLowerCase()}`, keys.b)).json.data).toEqual(part);
    // Store A sees its own two lines and free shipping.
    const a = (await req("GET", `/orders/${order.number}`, keys.a)).json.data;
    expect(a.lines).toHaveLength(2);
    expect(a.shipping_cents).toBe(0);
  });

  it("another store's order, a forged id and junk are all 404 order_not_found", async () => {
    const order = await twoStoreOrder();
    for (const ref of [order.number, order.id]) expectError(await req("GET", `/orders/${ref}`, keys.c), 404, "order_not_found");
    for (const ref of ["M-999999999", "00000000-0000-4000-8000-000000000000", "M-1%00", "%27%20OR%201%3D1--", "x".repeat(3000), "M-10042%0A"]) {
      expectError(await req("GET", `/orders/${ref}`, keys.a), 404, "order_not_found");
    }
  });

  it("lists newest first in pages with a cursor; only the store's orders; another list's cursor is refused", async () => {
    const older = await twoStoreOrder({ createdAt: new Date(Date.now() - 60_000) });
    const newer = await twoStoreOrder();
    const onlyB = await createTestOrder(app.pool, { userId: null, email: "b@example.com", parts: [{ store: "fixture-store-b", lines: [{ quantity: 1 }] }] });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await req("GET", `/orders?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, keys.a);
      expect(res.status, res.text).toBe(200);
      expectExactKeys(res.json, ["data", "next_cursor", "meta"], "list envelope");
      expect(res.json.data.length).toBeLessThanOrEqual(2);
      for (const part of res.json.data) {
        expectExactKeys(part, PART_KEYS, "listed order_part");
        expect(part.lines.every((l: any) => l.store_slug === "fixture-store-a")).toBe(true);
        seen.push(part.id);
      }
      cursor = res.json.next_cursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain(older.id);
    expect(seen.indexOf(newer.id)).toBeLessThan(seen.indexOf(older.id));
    expect(seen).not.toContain(onlyB.id);

    const first = await req("GET", "/orders?limit=1", keys.a);
    const listingsCursor = (await req("GET", "/listings?limit=1", keys.listingsOnly)).json.next_cursor;
    expectError(await req("GET", `/orders?cursor=${encodeURIComponent(listingsCursor)}`, keys.a), 400, "parameter_invalid", "cursor");
    // A cursor of the list is not one of the feed, nor the other way round.
    expectError(await req("GET", `/orders?updated_since=0&cursor=${encodeURIComponent(first.json.next_cursor)}`, keys.a), 400, "parameter_invalid", "cursor");
    for (const bad of ["limit=0", "limit=101", "limit=abc", "cursor=%00", "updated_since=yesterday", "updated_since=2026-02-31T00:00:00Z"]) {
      expect((await req("GET", `/orders?${bad}`, keys.a)).status, bad).toBe(400);
    }
  });

  it("updated_since: the sync feed hands out what changed, in commit order, each change once more after it changes again", async () => {
    const untouched = await twoStoreOrder();
    await new Promise((r) => setTimeout(r, 20));
    const since = new Date().toISOString();
    const order = await twoStoreOrder();
    const storeA = await storeIdOf(app.pool, "fixture-store-a");
    const feed = async () => {
      await feedSettled(app.pool, "order_stores", storeA);
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res = await req("GET", `/orders?updated_since=${since}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, keys.a);
        expect(res.status, res.text).toBe(200);
        ids.push(...res.json.data.map((p: any) => `${p.id}:${p.status}`));
        cursor = res.json.next_cursor;
      } while (cursor);
      return ids;
    };
    expect(await feed()).toContain(`${order.id}:placed`);
    // A part not changed since: left out.
    expect((await feed()).some((x) => x.startsWith(untouched.id))).toBe(false);

    // Resuming from the last page's cursor: the shipment comes after everything handed out before.
    await feedSettled(app.pool, "order_stores", storeA);
    const res1 = await req("GET", `/orders?updated_since=${since}&limit=100`, keys.a);
    const last = res1.json.data.at(-1);
    expect(last).toBeDefined();
    const resume = res1.json.next_cursor ?? null;
    expect(resume).toBeNull();
    expect((await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "FEED-1" } })).status).toBe(200);
    const after = await feed();
    expect(after.at(-1)).toBe(`${order.id}:shipped`);
    expect(after.filter((x) => x.startsWith(order.id))).toEqual([`${order.id}:shipped`]);
  });
});

describe("fulfilment", () => {
  it("ship then deliver, each store its own part; the order follows; the buyer is mailed with the tracking number and carrier", async () => {
    const order = await twoStoreOrder();
    expectError(await req("POST", `/orders/${order.number}/deliver`, keys.b), 409, "order_transition_invalid");
    expectError(await req("POST", `/orders/${order.number}/ship`, keys.c, { body: { tracking_number: "1Z999" } }), 404, "order_not_found");

    const shipped = await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "  1Z999AA10123456784 ", carrier: " UPS " } });
    expect(shipped.status, shipped.text).toBe(200);
    expectExactKeys(shipped.json.data, PART_KEYS, "shipped order_part");
    expect(shipped.json.data).toMatchObject({ status: "shipped", carrier: "UPS", tracking_number: "1Z999AA10123456784", delivered_at: null });
    expect(Date.parse(shipped.json.data.shipped_at)).toBeGreaterThan(0);
    const again = await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "1Z999" } });
    expectError(again, 409, "order_transition_invalid");
    expect(again.json.error.message).toContain("shipped");

    let state = await stateOf(order.id);
    expect(state.order[0].status).toBe("placed");
    const mail = (await app.pool.query(`SELECT to_address, subject, body FROM outbox_emails WHERE subject LIKE $1`, [`%${order.number}%`])).rows;
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ to_address: "buyer@example.com" });
    expect(mail[0].body).toContain("1Z999AA10123456784 (UPS)");

    // B ships without a carrier: the order is shipped; deliveries follow.
    const b = await req("POST", `/orders/${order.id}/ship`, keys.b, { body: { tracking_number: "TBA-7" } });
    expect(b.json.data).toMatchObject({ status: "shipped", carrier: null, tracking_number: "TBA-7" });
    expect((await stateOf(order.id)).order[0].status).toBe("shipped");
    const deliveredA = await req("POST", `/orders/${order.number}/deliver`, keys.a);
    expect(deliveredA.status, deliveredA.text).toBe(200);
    expect(deliveredA.json.data).toMatchObject({ status: "delivered", carrier: "UPS", tracking_number: "1Z999AA10123456784" });
    expect(Date.parse(deliveredA.json.data.delivered_at)).toBeGreaterThan(0);
    expect((await stateOf(order.id)).order[0].status).toBe("shipped");
    expect((await req("POST", `/orders/${order.number}/deliver`, keys.b)).json.data.status).toBe("delivered");
    state = await stateOf(order.id);
    expect(state.order[0].status).toBe("delivered");
    expect(state.order[0].delivered_at).toBeInstanceOf(Date);
    expectError(await req("POST", `/orders/${order.number}/deliver`, keys.b), 409, "order_transition_invalid");
    // The buyer's history notes the carrier.
    const note = (await app.pool.query(`SELECT note FROM order_events WHERE order_id = $1 AND status = 'shipped' AND store_id IS NOT NULL ORDER BY id LIMIT 1`, [order.id])).rows[0];
    expect(note.note).toBe("Tracking number 1Z999AA10123456784, UPS");
  });

  it("bad bodies: a clear 400 naming the field, and nothing changed", async () => {
    const order = await twoStoreOrder();
    const before = await stateOf(order.id);
    const cases: Array<[unknown, number, string, string]> = [
      [{}, 400, "parameter_missing", "tracking_number"],
      [{ tracking_number: "" }, 400, "parameter_missing", "tracking_number"],
      [{ tracking_number: "   " }, 400, "parameter_missing", "tracking_number"],
      [{ tracking_number: "9".repeat(10_000) }, 400, "parameter_invalid", "tracking_number"],
      [{ tracking_number: "1Z999\u0000AA1" }, 400, "parameter_invalid", "tracking_number"],
      [{ tracking_number: "1Z\u202eAA" }, 400, "parameter_invalid", "tracking_number"],
      [{ tracking_number: 12345 }, 400, "parameter_invalid", "tracking_number"],
      [{ tracking_number: ["a", "b"] }, 400, "parameter_invalid", "tracking_number"],
      [{ tracking_number: "1Z", carrier: "" }, 400, "parameter_missing", "carrier"],
      [{ tracking_number: "1Z", carrier: "U".repeat(65) }, 400, "parameter_invalid", "carrier"],
      [{ tracking_number: "1Z", carrier: "Почта" }, 400, "parameter_invalid", "carrier"],
      [{ tracking_number: "1Z", carrier: null }, 400, "parameter_invalid", "carrier"],
      [{ tracking_number: "1Z", status: "delivered" }, 400, "parameter_invalid", "status"],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await req("POST", `/orders/${order.number}/ship`, keys.a, { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json.error.code, JSON.stringify(body).slice(0, 80)).toBe(code);
      expect(res.json.error.param).toBe(param);
    }
    expect((await req("POST", `/orders/${order.number}/ship`, keys.a, { rawBody: "tracking_number=1Z", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect((await req("POST", `/orders/${order.number}/ship`, keys.a, { rawBody: "{", headers: { "Content-Type": "application/json" } })).status).toBe(400);
    expect(await stateOf(order.id)).toEqual(before);
  });

  it("Idempotency-Key: a retry replays the first answer and ships once; another body with the key is 422", async () => {
    const order = await twoStoreOrder();
    const headers = { "Idempotency-Key": `ship-${order.number}` };
    const first = await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "IDEM-1" }, headers });
    expect(first.status, first.text).toBe(200);
    const before = await stateOf(order.id);
    const replay = await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "IDEM-1" }, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.data).toEqual(first.json.data);
    expect(await stateOf(order.id)).toEqual(before);
    expectError(await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "IDEM-2" }, headers }), 422, "idempotency_key_reused");
  });

  it("scopes: reading needs orders:read, moves need orders:write; listing scopes grant neither", async () => {
    const order = await twoStoreOrder();
    expect((await req("GET", `/orders/${order.number}`, keys.readOnly)).status).toBe(200);
    expectError(await req("POST", `/orders/${order.number}/ship`, keys.readOnly, { body: { tracking_number: "S-1" } }), 403, "scope_missing");
    expectError(await req("GET", "/orders", keys.writeOnly), 403, "scope_missing");
    expectError(await req("GET", `/orders/${order.number}`, keys.listingsOnly), 403, "scope_missing");
    expectError(await req("POST", `/orders/${order.number}/deliver`, keys.listingsOnly), 403, "scope_missing");
    expect((await req("POST", `/orders/${order.number}/ship`, keys.writeOnly, { body: { tracking_number: "S-1" } })).status).toBe(200);
    expectError(await req("GET", "/orders", ""), 401, "api_key_invalid");
    expect((await sellerRequest(app.baseUrl, "GET", "/api/v1/orders")).json.error.code).toBe("api_key_missing");
    const put = await req("PUT", `/orders/${order.number}`, keys.a);
    expectError(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("cancelling", () => {
  /** The listings' quantities, by listing id. */
  async function stockOf(listingIds: string[]): Promise<Record<string, number>> {
    const { rows } = await app.pool.query(`SELECT id, quantity FROM listings WHERE id = ANY($1::uuid[])`, [listingIds]);
    return Object.fromEntries(rows.map((r) => [r.id, r.quantity]));
  }

  it("a store cancels its placed part: its units back in stock, the buyer refunded its lines and shipping once and mailed; the other store goes on", async () => {
    // Stock enough that the order takes every unit it buys.
    await app.pool.query(`UPDATE listings SET quantity = quantity + 50 WHERE store_id IN (SELECT id FROM stores WHERE slug IN ('fixture-store-a', 'fixture-store-b'))`);
    const order = await twoStoreOrder({ userId: buyer, takeStock: true });
    const mine = order.lines.filter((l) => l.storeSlug === "fixture-store-b");
    const theirs = order.lines.filter((l) => l.storeSlug === "fixture-store-a");
    const before = await stockOf(order.lines.map((l) => l.listingId));
    expectError(await req("POST", `/orders/${order.number}/cancel`, keys.c, { body: { reason: "out_of_stock" } }), 404, "order_not_found");

    const res = await req("POST", `/orders/${order.number}/cancel`, keys.b, { body: { reason: "out_of_stock" } });
    expect(res.status, res.text).toBe(200);
    expectExactKeys(res.json.data, PART_KEYS, "cancelled order_part");
    const subtotal = mine.reduce((s, l) => s + l.quantity * l.unitPriceCents, 0);
    expect(res.json.data).toMatchObject({ status: "cancelled", cancel_reason: "out_of_stock", refund_cents: subtotal + 500, total_cents: subtotal + 500, shipped_at: null, tracking_number: null });
    expect(Date.parse(res.json.data.cancelled_at)).toBeGreaterThan(0);
    expect(OrderPart.safeParse(res.json.data).success).toBe(true);
    expect((await req("GET", `/orders/${order.number}`, keys.b)).json.data).toEqual(res.json.data);
    // Store A's part is untouched and shows none of it.
    expect((await req("GET", `/orders/${order.number}`, keys.a)).json.data).toMatchObject({ status: "placed", cancelled_at: null, cancel_reason: null, refund_cents: null });

    // B's units are back, as a stock adjustment each; A's stay taken.
    const after = await stockOf(order.lines.map((l) => l.listingId));
    for (const l of mine) expect(after[l.listingId]).toBe(before[l.listingId]! + l.quantity);
    for (const l of theirs) expect(after[l.listingId]).toBe(before[l.listingId]);
    const back = (await app.pool.query(`SELECT listing_id, delta, quantity_after FROM stock_adjustments WHERE reason = $1`, [`order ${order.number} cancelled`])).rows;
    expect(back).toEqual(mine.map((l) => ({ listing_id: l.listingId, delta: l.quantity, quantity_after: after[l.listingId] })));

    const mail = (await app.pool.query(`SELECT to_address, body FROM outbox_emails WHERE subject = $1`, [`Items of your order ${order.number} were cancelled`])).rows;
    expect(mail).toHaveLength(1);
    expect(mail[0].to_address).toBe("buyer@example.com");
    expect(mail[0].body).toContain("the items are out of stock");
    expect(mail[0].body).toContain(`${((subtotal + 500) / 100).toFixed(2)} USD`);
    for (const l of mine) expect(mail[0].body).toContain(l.title);
    const part = (await app.pool.query(`SELECT refund_ref FROM order_stores WHERE order_id = $1 AND status = 'cancelled'`, [order.id])).rows;
    expect(part).toHaveLength(1);
    expect(part[0].refund_ref).toMatch(/^re_[0-9a-f]{24}$/);

    // The order is still placed (A's part is), and moves on with A alone.
    expect((await stateOf(order.id)).order[0].status).toBe("placed");
    const again = await req("POST", `/orders/${order.number}/cancel`, keys.b, { body: { reason: "other" } });
    expectError(again, 409, "order_transition_invalid");
    expect(again.json.error.message).toContain("cancelled");
    expectError(await req("POST", `/orders/${order.number}/ship`, keys.b, { body: { tracking_number: "1Z" } }), 409, "order_transition_invalid");
    await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "1Z-A" } });
    expect((await stateOf(order.id)).order[0].status).toBe("shipped");
    await req("POST", `/orders/${order.number}/deliver`, keys.a);
    expect((await stateOf(order.id)).order[0].status).toBe("delivered");

    // A cancelled line cannot be returned; the buyer's page offers none of it.
    const refused = await client.$transaction((t) => requestReturn(t, buyer, order.id, CreateReturn.parse({ lines: [{ order_line_id: mine[0]!.id, quantity: 1, reason: "other" }] }))).catch((e) => e);
    expect(refused).toMatchObject({ code: "parameter_invalid", param: "lines[0].order_line_id" });
    expect((await getBuyerOrder(client, buyer, order.id)).returnable_quantities).toEqual(Object.fromEntries(order.lines.map((l) => [l.id, l.storeSlug === "fixture-store-b" ? 0 : l.quantity])));
  });

  it("every part cancelled: the order is cancelled; a shipped part cannot be; two cancels at once refund once", async () => {
    const order = await twoStoreOrder();
    await req("POST", `/orders/${order.number}/ship`, keys.a, { body: { tracking_number: "1Z-A" } });
    const late = await req("POST", `/orders/${order.number}/cancel`, keys.a, { body: { reason: "other" } });
    expectError(late, 409, "order_transition_invalid");
    expect(late.json.error.message).toContain("shipped");
    expect((await req("POST", `/orders/${order.number}/cancel`, keys.b, { body: { reason: "cannot_ship" } })).json.data.status).toBe("cancelled");
    expect((await stateOf(order.id)).order[0].status).toBe("shipped");

    const both = await twoStoreOrder();
    const twice = await Promise.all([
      req("POST", `/orders/${both.number}/cancel`, keys.a, { body: { reason: "buyer_request" }, headers: { "Idempotency-Key": "cancel-1" } }),
      req("POST", `/orders/${both.number}/cancel`, keys.a, { body: { reason: "buyer_request" }, headers: { "Idempotency-Key": "cancel-2" } }),
    ]);
    expect(twice.map((r) => r.status).sort()).toEqual([200, 409]);
    const replay = await req("POST", `/orders/${both.number}/cancel`, keys.a, { body: { reason: "buyer_request" }, headers: { "Idempotency-Key": twice[0]!.status === 200 ? "cancel-1" : "cancel-2" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.data).toEqual(twice.find((r) => r.status === 200)!.json.data);
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM outbox_emails WHERE subject = $1`, [`Items of your order ${both.number} were cancelled`])).rows[0].n).toBe(1);
    expect((await stateOf(both.id)).order[0].status).toBe("placed");
    await req("POST", `/orders/${both.number}/cancel`, keys.b, { body: { reason: "buyer_request" } });
    const state = await stateOf(both.id);
    expect(state.order[0].status).toBe("cancelled");
    const events = (await app.pool.query(`SELECT store_id, status, note FROM order_events WHERE order_id = $1 AND status = 'cancelled' ORDER BY id`, [both.id])).rows;
    expect(events.map((e) => e.store_id === null)).toEqual([false, false, true]);
    expect(events[0].note).toMatch(/^Refunded \d+\.\d{2}$/);
  });

  it("bad reasons and missing scope: a clear 4xx naming the field, and nothing changed", async () => {
    const order = await twoStoreOrder({ takeStock: true });
    const before = await stateOf(order.id);
    const cases: Array<[unknown, string]> = [
      [{}, "parameter_missing"],
      [{ reason: "" }, "parameter_invalid"],
      [{ reason: "OUT_OF_STOCK" }, "parameter_invalid"],
      [{ reason: "out_of_stock\u0000" }, "parameter_invalid"],
      [{ reason: ["out_of_stock"] }, "parameter_invalid"],
      [{ reason: 1 }, "parameter_invalid"],
      [{ reason: "x".repeat(10_000) }, "parameter_invalid"],
    ];
    for (const [body, code] of cases) {
      const res = await req("POST", `/orders/${order.number}/cancel`, keys.a, { body });
      expectError(res, 400, code, "reason");
    }
    expectError(await req("POST", `/orders/${order.number}/cancel`, keys.a, { body: { reason: "other", refund_cents: 1 } }), 400, "parameter_invalid", "refund_cents");
    expectError(await req("POST", `/orders/${order.number}/cancel`, keys.readOnly, { body: { reason: "other" } }), 403, "scope_missing");
    expectError(await req("POST", `/orders/${order.number}/cancel`, keys.listingsOnly, { body: { reason: "other" } }), 403, "scope_missing");
    expect((await req("POST", `/orders/${order.number}/cancel`, keys.a, { rawBody: "reason=other", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect(await stateOf(order.id)).toEqual(before);
  });
});

describe("returns", () => {
  it("listed and read with exactly the store's return fields; approve, receive, refund once, reject; others refused; another store's is 404", async () => {
    const order = await twoStoreOrder({ userId: buyer, status: "delivered" });
    const [a1, , b1] = order.lines;
    const ask = (lines: unknown) => client.$transaction((t) => requestReturn(t, buyer, order.id, CreateReturn.parse({ lines })));
    const ret = await ask([{ order_line_id: a1!.id, quantity: 2, reason: "damaged" }]);
    const other = await ask([{ order_line_id: b1!.id, quantity: 1, reason: "other" }]);

    const got = await req("GET", `/returns/${ret.id}`, keys.a);
    expect(got.status, got.text).toBe(200);
    expectExactKeys(got.json.data, RETURN_KEYS, "return");
    expect(got.json.data).toMatchObject({
      id: ret.id,
      object: "return",
      order_id: order.id,
      order_number: order.number,
      status: "requested",
      value_cents: 2 * a1!.unitPriceCents,
      refund_cents: null,
    });
    expect(got.json.data.lines).toEqual([{ order_line_id: a1!.id, title: a1!.title, quantity: 2, reason: "damaged", unit_price_cents: a1!.unitPriceCents }]);
    expect(StoreReturn.safeParse(got.json.data).success).toBe(true);

    for (const [key, id] of [[keys.b, ret.id], [keys.c, ret.id], [keys.a, "not-an-id"], [keys.a, other.id]] as const) {
      expectError(await req("GET", `/returns/${id}`, key), 404, "return_not_found");
      expectError(await req("POST", `/returns/${id}/approve`, key), 404, "return_not_found");
    }
    for (const move of ["receive", "refund"]) {
      const refused = await req("POST", `/returns/${ret.id}/${move}`, keys.a);
      expectError(refused, 409, "return_transition_invalid");
      expect(refused.json.error.message).toContain("requested");
    }
    expect((await req("POST", `/returns/${ret.id}/approve`, keys.a)).json.data.status).toBe("approved");
    expectError(await req("POST", `/returns/${ret.id}/approve`, keys.a), 409, "return_transition_invalid");
    expect((await req("POST", `/returns/${ret.id}/receive`, keys.a)).json.data.status).toBe("received");
    expectError(await req("POST", `/returns/${ret.id}/reject`, keys.a), 409, "return_transition_invalid");

    // Two refunds at once, with different keys: one refund, one refusal.
    const both = await Promise.all([
      req("POST", `/returns/${ret.id}/refund`, keys.a, { headers: { "Idempotency-Key": "refund-1" } }),
      req("POST", `/returns/${ret.id}/refund`, keys.a, { headers: { "Idempotency-Key": "refund-2" } }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const refunded = both.find((r) => r.status === 200)!.json.data;
    expect(refunded).toMatchObject({ status: "refunded", value_cents: 2 * a1!.unitPriceCents, refund_cents: 2 * a1!.unitPriceCents });
    // The same key again: the first answer replayed, no second refund.
    const replay = await req("POST", `/returns/${ret.id}/refund`, keys.a, { headers: { "Idempotency-Key": both[0]!.status === 200 ? "refund-1" : "refund-2" } });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.json.data).toEqual(refunded);
    const mails = (await app.pool.query(`SELECT body FROM outbox_emails WHERE subject = $1`, [`Refund for your order ${order.number}`])).rows;
    expect(mails).toHaveLength(1);

    expect((await req("POST", `/returns/${other.id}/reject`, keys.b)).json.data.status).toBe("rejected");
    expectError(await req("POST", `/returns/${other.id}/reject`, keys.readOnly), 403, "scope_missing");

    const listed = await req("GET", "/returns?limit=100", keys.a);
    expect(listed.status).toBe(200);
    expectExactKeys(listed.json, ["data", "next_cursor", "meta"], "list envelope");
    expect(listed.json.data.map((r: any) => r.id)).toContain(ret.id);
    expect(listed.json.data.map((r: any) => r.id)).not.toContain(other.id);
    for (const r of listed.json.data) expectExactKeys(r, RETURN_KEYS, "listed return");
    expect((await req("GET", "/returns?limit=100", keys.b)).json.data.map((r: any) => r.id)).toEqual([other.id]);
  });
});
