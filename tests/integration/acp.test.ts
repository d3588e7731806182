/**
 * ACP 2026-04-17 (lib/protocols/acp, app/api/acp): discovery, checkout sessions across stores,
 * completion into one order per store with one charge, cancel with an intent trace, API-Version,
 * bearer keys and idempotency as the spec says; every answer validated against the vendored
 * JSON Schema (vendor/acp/2026-04-17).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACP_VERSION, acpClient, expectAcp, expectAcpError } from "../helpers/acp";
import { storeIdOf, startIsolatedApp, type IsolatedApp } from "../helpers/seller";

let app: IsolatedApp;
let acp: ReturnType<typeof acpClient>;
const items: Record<"a" | "b" | "c" | "soldOut", string> = { a: "", b: "", c: "", soldOut: "" };

const ADDRESS = { name: "Ada Lovelace", line_one: "1 Main St", city: "Springfield", state: "IL", country: "US", postal_code: "62704" };
const PAY = (token = "4242424242424242") => ({ payment_data: { handler_id: "test_card", instrument: { type: "card", credential: { type: "test_card", token } } } });

beforeAll(async () => {
  app = await startIsolatedApp("acp");
  acp = acpClient(app);
  const pool = app.pool;
  const product = (await pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`)).rows[0].id;
  const storeB = await storeIdOf(pool, "fixture-store-b");
  const template = (await pool.query(`INSERT INTO shipping_templates (store_id, name) VALUES ($1, 'ACP') RETURNING id`, [storeB])).rows[0].id;
  await pool.query(`INSERT INTO shipping_rates (template_id, region, service, price_cents, min_days, max_days) VALUES ($1, 'US', 'standard', 450, 2, 5)`, [template]);
  const listing = async (store: string, price: number, quantity: number, tpl: string | null = null) =>
    (
      await pool.query(
        `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at, shipping_template_id)
         VALUES ($1, $2, $3, 'new', $4, $4, $5, false, 'active', now(), $6) RETURNING id`,
        [await storeIdOf(pool, store), product, `ACP-${randomBytes(3).toString("hex")}`, price, quantity, tpl],
      )
    ).rows[0].id as string;
  items.a = await listing("fixture-store-a", 2500, 100);
  items.b = await listing("fixture-store-b", 1200, 100, template);
  items.c = await listing("harbor-electronics", 990, 100);
  items.soldOut = await listing("fixture-store-a", 700, 0);
});

afterAll(() => app?.stop());

async function create(lineItems = [{ id: items.a }, { id: items.b, quantity: 2 }], extra: Record<string, unknown> = {}) {
  const res = await acp.request("POST", "/checkout_sessions", { line_items: lineItems, currency: "USD", capabilities: {}, ...extra });
  expect(res.status, res.text).toBe(201);
  expectAcp("CheckoutSession", res.json);
  return res.json;
}

async function ready(lineItems?: Array<{ id: string; quantity?: number }>) {
  const session = await create(lineItems, { buyer: { email: `acp-${randomBytes(3).toString("hex")}@example.com`, first_name: "Ada" }, fulfillment_details: { address: ADDRESS } });
  expect(session.status).toBe("ready_for_payment");
  return session;
}

describe("discovery", () => {
  it("/.well-known/acp.json: one document for the marketplace, no merchant ids, checkout over REST", async () => {
    const res = await acp.request("GET", "/.well-known/acp.json", undefined, {});
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expectAcp("DiscoveryResponse", res.json);
    expect(res.json).toEqual({
      protocol: { name: "acp", version: ACP_VERSION, supported_versions: [ACP_VERSION], documentation_url: `${app.baseUrl}/help/for-agents-public-api` },
      api_base_url: `${app.baseUrl}/api/acp`,
      transports: ["rest"],
      capabilities: { services: ["checkout"], supported_currencies: ["usd"], supported_locales: ["en-US"] },
    });
    for (const url of ["/api/acp/handlers/test-card", "/api/acp/handlers/test-card/config.json", "/api/acp/handlers/test-card/instrument.json"]) {
      expect((await fetch(app.baseUrl + url)).status, url).toBe(200);
    }
  });
});

describe("checkout sessions across stores", () => {
  it("create: 201, each line naming its store, a group and a standard option per store, and what is missing as messages", async () => {
    const session = await create();
    expect(session.status).toBe("not_ready_for_payment");
    expect(session.currency).toBe("usd");
    expect(session.line_items.map((l: any) => [l.id, l.quantity, l.marketplace_seller_details.name])).toEqual([
      [items.a, 1, "Fixture Store A"],
      [items.b, 2, "Fixture Store B"],
    ]);
    expect(session.fulfillment_groups.map((g: any) => g.item_ids)).toEqual([[items.a], [items.b]]);
    expect(session.fulfillment_options.map((o: any) => [o.id, o.totals[0].amount])).toEqual([
      ["fixture-store-a__standard", 0],
      ["fixture-store-b__standard", 450],
    ]);
    expect(session.messages.map((m: any) => [m.code, m.param])).toEqual([
      ["missing", "$.buyer.email"],
      ["missing", "$.fulfillment_details.address"],
    ]);
    expect(session.totals.find((t: any) => t.type === "total").amount).toBe(2500 + 2400 + 450);
  });

  it("update, complete, get: one charge, one order per store, their totals adding up to the session's", async () => {
    const session = await create();
    const updated = await acp.request("POST", `/checkout_sessions/${session.id}`, {
      buyer: { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" },
      fulfillment_details: { name: "Ada Lovelace", address: ADDRESS },
      selected_fulfillment_options: [{ type: "shipping", option_id: "fixture-store-b__standard", item_ids: [items.b] }],
    });
    expect(updated.status, updated.text).toBe(200);
    expectAcp("CheckoutSession", updated.json);
    expect([updated.json.status, updated.json.messages]).toEqual(["ready_for_payment", []]);

    const done = await acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY());
    expect(done.status, done.text).toBe(200);
    expectAcp("CheckoutSessionWithOrder", done.json);
    expect(done.json.status).toBe("completed");
    expect(done.json.metadata.orders).toHaveLength(2);
    expect(done.json.metadata.orders.reduce((sum: number, o: any) => sum + o.total, 0)).toBe(5350);
    expect(done.json.order.id).toBe(done.json.metadata.orders[0].id);
    const rows = await app.pool.query(`SELECT payment_ref, total_cents FROM orders WHERE checkout_session_id = $1 ORDER BY total_cents`, [session.id]);
    expect(rows.rows.map((r) => r.total_cents)).toEqual([2500, 2850]);
    expect(new Set(rows.rows.map((r) => r.payment_ref)).size).toBe(1);

    const read = await acp.request("GET", `/checkout_sessions/${session.id}`, undefined, acp.headers({ "Idempotency-Key": "" }));
    expect(read.status).toBe(200);
    expectAcp("CheckoutSessionWithOrder", read.json);
    expectAcpError(await acp.request("POST", `/checkout_sessions/${session.id}/cancel`), 405, "checkout_session_not_cancelable");
    expectAcpError(await acp.request("POST", `/checkout_sessions/${session.id}`, { buyer: { email: "x@example.com" } }), 400, "checkout_session_closed");
  });

  it("three stores complete into three orders with one charge, each store's stock taken once", async () => {
    const session = await ready([{ id: items.a }, { id: items.b }, { id: items.c, quantity: 3 }]);
    const done = await acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY());
    expect(done.status, done.text).toBe(200);
    expect(done.json.metadata.orders).toHaveLength(3);
    expect(done.json.metadata.orders.reduce((sum: number, o: any) => sum + o.total, 0)).toBe(session.totals.find((t: any) => t.type === "total").amount);
    const adjustments = await app.pool.query(`SELECT count(*)::int AS n FROM stock_adjustments WHERE reason IN (SELECT 'order ' || number FROM orders WHERE checkout_session_id = $1)`, [session.id]);
    expect(adjustments.rows[0].n).toBe(3);
    const charges = await app.pool.query(`SELECT count(DISTINCT payment_ref)::int AS n FROM orders WHERE checkout_session_id = $1`, [session.id]);
    expect(charges.rows[0].n).toBe(1);
  });

  it("a declined card: 200, the session again with payment_declined, ready to pay, and nothing placed", async () => {
    const session = await ready();
    const res = await acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY("4000000000000002"));
    expect(res.status, res.text).toBe(200);
    expectAcp("CheckoutSession", res.json);
    expect(res.json.status).toBe("ready_for_payment");
    expect(res.json.messages.map((m: any) => [m.type, m.code, m.param])).toEqual([["error", "payment_declined", "$.payment_data"]]);
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = $1`, [session.id])).rows[0].n).toBe(0);
    const again = await acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY());
    expect(again.json.status).toBe("completed");
  });

  it("a sold-out item is out_of_stock in messages; an item that does not exist is 400 naming it", async () => {
    const session = await create([{ id: items.a }, { id: items.soldOut }]);
    expect(session.messages).toContainEqual(expect.objectContaining({ type: "error", code: "out_of_stock", param: "$.line_items[1]" }));
    const unknown = await acp.request("POST", "/checkout_sessions", { line_items: [{ id: randomUUID() }], currency: "usd", capabilities: {} });
    expectAcpError(unknown, 400, "invalid");
    expect(unknown.json.param).toBe("$.line_items[0].id");
    expectAcpError(await acp.request("POST", "/checkout_sessions", { line_items: [{ id: items.a }], currency: "eur", capabilities: {} }), 400, "invalid");
    expectAcpError(await acp.request("POST", "/checkout_sessions", { line_items: [{ id: items.a }], currency: "usd" }), 400, "missing");
    expectAcpError(await acp.request("POST", "/checkout_sessions", { line_items: [{ id: items.a, color: "red" }], currency: "usd", capabilities: {} }), 400, "invalid");
  });

  it("cancel: the body may be left out; an intent trace with an unknown reason counts as `other`", async () => {
    const first = await create();
    const canceled = await acp.request("POST", `/checkout_sessions/${first.id}/cancel`, undefined, acp.headers({ "Content-Type": "" }));
    expect(canceled.status, canceled.text).toBe(200);
    expectAcp("CheckoutSession", canceled.json);
    expect(canceled.json.status).toBe("canceled");
    expect(canceled.json.messages).toEqual([{ type: "info", content_type: "plain", content: "This checkout session has been canceled." }]);
    const second = await create();
    const traced = await acp.request("POST", `/checkout_sessions/${second.id}/cancel`, { intent_trace: { reason_code: "gravity", trace_summary: "changed mind", metadata: { target: 5 } } });
    expect(traced.status).toBe(200);
    expect((await app.pool.query(`SELECT cancel_reason FROM checkout_sessions WHERE id = $1`, [second.id])).rows[0].cancel_reason).toBe("other");
    expectAcpError(await acp.request("POST", `/checkout_sessions/${second.id}/cancel`), 405, "checkout_session_not_cancelable");
  });
});

describe("headers: bearer key, API-Version, Idempotency-Key", () => {
  it("no bearer key: 401; a missing or other API-Version: 400 with the versions served", async () => {
    const body = { line_items: [{ id: items.a }], currency: "usd", capabilities: {} };
    expectAcpError(await acp.request("POST", "/checkout_sessions", body, acp.headers({ Authorization: "" })), 401, "unauthorized");
    const missing = await acp.request("POST", "/checkout_sessions", body, acp.headers({ "API-Version": "" }));
    expectAcpError(missing, 400, "unsupported_api_version");
    expect(missing.json.supported_versions).toEqual([ACP_VERSION]);
    expectAcpError(await acp.request("POST", "/checkout_sessions", body, acp.headers({ "API-Version": "2025-09-29" })), 400, "unsupported_api_version");
  });

  it("a session belongs to the platform whose key made it; unknown ids are 404", async () => {
    const session = await create();
    const other = acpClient(app, "another-platform-key-9876543210");
    expectAcpError(await other.request("GET", `/checkout_sessions/${session.id}`), 404, "checkout_session_not_found");
    expectAcpError(await other.request("POST", `/checkout_sessions/${session.id}/complete`, PAY()), 404, "checkout_session_not_found");
    expectAcpError(await acp.request("GET", `/checkout_sessions/${randomUUID()}`), 404, "checkout_session_not_found");
    expectAcpError(await acp.request("GET", "/checkout_sessions/cs_nope"), 404, "checkout_session_not_found");
    expectAcpError(await acp.request("GET", "/nothing/here"), 404, "not_found");
  });

  it("a POST without a key is 400; the same key and body replay the first answer; another body is 422", async () => {
    const body = { line_items: [{ id: items.a }], currency: "usd", capabilities: {} };
    const noKey = acp.headers();
    delete (noKey as Record<string, string>)["Idempotency-Key"];
    expectAcpError(await acp.request("POST", "/checkout_sessions", body, noKey), 400, "idempotency_key_required");
    const headers = acp.headers({ "Idempotency-Key": randomUUID() });
    const first = await acp.request("POST", "/checkout_sessions", body, headers);
    const second = await acp.request("POST", "/checkout_sessions", body, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotency-key")).toBe(headers["Idempotency-Key"]);
    expect(first.headers.get("request-id")).toBe(headers["Request-Id"]);
    expectAcpError(await acp.request("POST", "/checkout_sessions", { ...body, line_items: [{ id: items.b }] }, headers), 422, "idempotency_conflict");
  });

  it("50 concurrent completes of one session with one key: one set of orders, one charge", async () => {
    const session = await ready([{ id: items.a }, { id: items.c }]);
    const headers = acp.headers({ "Idempotency-Key": randomUUID() });
    const answers = await Promise.all(Array.from({ length: 50 }, () => acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY(), headers)));
    for (const a of answers) expect([200, 409], a.text).toContain(a.status);
    for (const a of answers.filter((x) => x.status === 409)) expectAcpError(a, 409, "idempotency_in_flight");
    const orders = await app.pool.query(`SELECT count(*)::int AS n, count(DISTINCT payment_ref)::int AS charges FROM orders WHERE checkout_session_id = $1`, [session.id]);
    expect(orders.rows[0]).toEqual({ n: 2, charges: 1 });
    const replay = await acp.request("POST", `/checkout_sessions/${session.id}/complete`, PAY(), headers);
    expect(replay.json.status).toBe("completed");
  });
});
