/**
 * Issue 34 item 2: seller webhooks. A store's endpoints over the API (exact fields, the URL guard,
 * scopes, another store's ids 404); events of real changes (a buyer API checkout, the orders API's
 * moves, a return) delivered to a receiver on loopback https (tests/helpers/platform.ts), each
 * verified by two independent libraries (`standardwebhooks` and `svix`), with the API's own object
 * as `data`; a rolled-back change writes and sends nothing; a rotation signs with both secrets for
 * 24 hours; a receiver answering 500 sees every attempt at the documented offsets (the due time
 * of each retry is moved to now: injected, not waited for); 410 disables the endpoint; a replay
 * sends the same `webhook-id` and body. On an app and database of its own. (svix 2.x verifies
 * through standardwebhooks' code: the HMAC is also checked by hand, from the specification.)
 */
import { createHmac, randomBytes } from "node:crypto";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { requestReturn } from "@/lib/returns";
import { CreateReturn } from "@/lib/schemas/orders";
import { OrderPart, StoreReturn } from "@/lib/schemas/seller/orders";
import { WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from "@/lib/schemas/seller/webhooks";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { JITTER, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "@/lib/webhooks/schedule";
import { allowAgentOrders, ALL_SCOPES, buyer, createHolder, createListing, setMarketplaceAgentCheckout, token, type Holder } from "../helpers/buyer";
import { eventually } from "../helpers/eventually";
import { expectExactKeys } from "../helpers/http";
import { startPlatform, type FakePlatform, type Received } from "../helpers/platform";
import { createTestKey, sellerRequest, startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const ENDPOINT_KEYS = Object.keys(WebhookEndpoint.shape);
const DELIVERY_KEYS = Object.keys(WebhookDelivery.shape);
const ALL_EVENTS = ["order.created", "order.canceled", "order_part.shipped", "order_part.delivered", "return.requested", "return.refunded", "listing.sold_out"];

let receiver: FakePlatform;
let app: IsolatedApp;
let client: PrismaClient;
let holder: Holder;
let buyerToken = "";
const keys = { a: "", b: "", readOnly: "", ordersOnly: "" };

function req(method: string, path: string, key: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  return sellerRequest(app.baseUrl, method, `/api/v1${path}`, { key, ...options });
}

function expectError(res: { status: number; json: any; text: string }, status: number, code: string, param?: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.json.error.code).toBe(code);
  if (param !== undefined) expect(res.json.error.param).toBe(param);
}

let hookSeq = 0;
/** Registers an endpoint of store A at a fresh receiver path; answers the endpoint with its secret. */
async function register(events: string[] = ALL_EVENTS, key = keys.a): Promise<{ id: string; secret: string; path: string }> {
  const path = `/hooks/${++hookSeq}-${randomBytes(3).toString("hex")}`;
  const res = await req("POST", "/webhook-endpoints", key, { body: { url: `${receiver.base}${path}`, events } });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.data.id, secret: res.json.data.secret, path };
}

/**
 * Verifies a delivery with `secret`: by both libraries (svix 2.x verifies through standardwebhooks'
 * code, so the HMAC the specification describes is also computed here, by hand); answers the
 * parsed payload.
 */
function verified(event: Received, secret: string): any {
  const headers = { "webhook-id": String(event.headers["webhook-id"]), "webhook-timestamp": String(event.headers["webhook-timestamp"]), "webhook-signature": String(event.headers["webhook-signature"]) };
  const standard = new StandardWebhook(secret).verify(event.body, headers);
  expect(() => new SvixWebhook(secret).verify(event.body, headers)).not.toThrow();
  const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${event.body}`)
    .digest("base64");
  expect(headers["webhook-signature"].split(" ")).toContain(`v1,${expected}`);
  expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
  return standard;
}

function expectUnverifiable(event: Received, secret: string) {
  const headers = { "webhook-id": String(event.headers["webhook-id"]), "webhook-timestamp": String(event.headers["webhook-timestamp"]), "webhook-signature": String(event.headers["webhook-signature"]) };
  expect(() => new StandardWebhook(secret).verify(event.body, headers)).toThrow();
  expect(() => new SvixWebhook(secret).verify(event.body, headers)).toThrow();
}

const at = (path: string) => (r: Received) => r.path === path;

/** A buyer API checkout of `quantity` units of `listingId`: the order's id. */
async function checkout(listingId: string, quantity = 1): Promise<string> {
  const res = await buyer(app, "POST", "/checkout", buyerToken, { body: { lines: [{ listing_id: listingId, quantity }] }, headers: { "Idempotency-Key": randomBytes(8).toString("hex") } });
  expect(res.status, res.text.slice(0, 300)).toBe(201);
  return res.json.data.id;
}

/** Makes every delivery job waiting for its next attempt due now (the schedule's time, injected). */
const retryNow = () => app.pool.query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'webhook-delivery' AND state IN ('created', 'retry') AND start_after > now()`);

/** What the queue does, on a loaded machine: waited for up to two minutes. */
const WAIT_MS = 120_000;

const deliveriesOf = async (endpointId: string) =>
  (await app.pool.query(`SELECT id, event_id, status, attempts, last_attempt_at, next_attempt_at, last_status, last_error FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id`, [endpointId])).rows;

beforeAll(async () => {
  receiver = await startPlatform();
  app = await startIsolatedApp("seller-webhooks", { WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: receiver.caPath });
  client = createDb(app.database.databaseUrl);
  keys.a = (await createTestKey(app.pool, "fixture-store-a", ["webhooks:read", "webhooks:write", "orders:read", "orders:write"])).key;
  keys.b = (await createTestKey(app.pool, "fixture-store-b", ["webhooks:read", "webhooks:write"])).key;
  keys.readOnly = (await createTestKey(app.pool, "fixture-store-a", ["webhooks:read"])).key;
  keys.ordersOnly = (await createTestKey(app.pool, "fixture-store-a", ["orders:read", "orders:write"])).key;
  await setMarketplaceAgentCheckout(app.pool, true);
  holder = await createHolder(app.pool, "webhooks");
  await allowAgentOrders(app.pool, holder.id);
  buyerToken = (await token(app, holder.id, ALL_SCOPES)).token;
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
  await receiver?.close();
});

describe("endpoints", { timeout: 120_000 }, () => {
  it("create answers the endpoint with its secret once; get and list never show it", async () => {
    const res = await req("POST", "/webhook-endpoints", keys.a, {
      body: { url: `${receiver.base}/hooks/crud`, events: ["order.created", "listing.sold_out", "order.created"], description: "ERP" },
    });
    expect(res.status, res.text).toBe(201);
    expectExactKeys(res.json, ["data", "meta"], "envelope");
    expectExactKeys(res.json.data, Object.keys(WebhookEndpointWithSecret.shape), "webhook_endpoint with secret");
    expect(WebhookEndpointWithSecret.safeParse(res.json.data).success).toBe(true);
    const { secret, ...endpoint } = res.json.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toMatchObject({
      object: "webhook_endpoint",
      url: `${receiver.base}/hooks/crud`,
      description: "ERP",
      events: ["order.created", "listing.sold_out"],
      status: "enabled",
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    // The secret is stored encrypted, never as given.
    const stored = (await app.pool.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [endpoint.id])).rows[0].secret;
    expect(stored).not.toContain(secret.slice(6));

    const got = await req("GET", `/webhook-endpoints/${endpoint.id}`, keys.readOnly);
    expect(got.status).toBe(200);
    expectExactKeys(got.json.data, ENDPOINT_KEYS, "webhook_endpoint");
    expect(got.json.data).toEqual(endpoint);
    const list = await req("GET", "/webhook-endpoints?limit=100", keys.readOnly);
    expect(list.json.data.find((e: any) => e.id === endpoint.id)).toEqual(endpoint);
    expect(list.text).not.toContain(secret);

    // Another store's key: not found, on every operation.
    expectError(await req("GET", `/webhook-endpoints/${endpoint.id}`, keys.b), 404, "webhook_endpoint_not_found");
    expectError(await req("PATCH", `/webhook-endpoints/${endpoint.id}`, keys.b, { body: { status: "disabled" } }), 404, "webhook_endpoint_not_found");
    expectError(await req("POST", `/webhook-endpoints/${endpoint.id}/rotate-secret`, keys.b), 404, "webhook_endpoint_not_found");
    expectError(await req("DELETE", `/webhook-endpoints/${endpoint.id}`, keys.b), 404, "webhook_endpoint_not_found");
    expect((await req("GET", "/webhook-endpoints?limit=100", keys.b)).json.data.some((e: any) => e.id === endpoint.id)).toBe(false);
    expectError(await req("GET", `/webhook-deliveries?endpoint_id=${endpoint.id}`, keys.b), 404, "webhook_endpoint_not_found", "endpoint_id");
    expectError(await req("GET", `/webhook-endpoints/not-a-uuid`, keys.a), 404, "webhook_endpoint_not_found");

    // Change, disable, enable, delete.
    const patched = await req("PATCH", `/webhook-endpoints/${endpoint.id}`, keys.a, { body: { events: ["return.requested"], description: null, status: "disabled" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data).toMatchObject({ events: ["return.requested"], description: null, status: "disabled", disabled_reason: "disabled by the store" });
    const enabled = await req("PATCH", `/webhook-endpoints/${endpoint.id}`, keys.a, { body: { status: "enabled" } });
    expect(enabled.json.data).toMatchObject({ status: "enabled", disabled_reason: null });
    const deleted = await req("DELETE", `/webhook-endpoints/${endpoint.id}`, keys.a);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.data).toEqual({ id: endpoint.id, object: "webhook_endpoint", deleted: true });
    expectError(await req("GET", `/webhook-endpoints/${endpoint.id}`, keys.a), 404, "webhook_endpoint_not_found");
  });

  it("refuses URLs the delivery guard would refuse, and bad event lists, naming the field", async () => {
    for (const url of ["http://example.com/hook", "https://10.0.0.1/hook", "https://169.254.169.254/latest", "https://user:pw@127.0.0.1/hook", "not a url", "https://no-such-host.invalid/hook"]) {
      expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url, events: ["order.created"] } }), 400, "parameter_invalid", "url");
    }
    expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url: `${receiver.base}/hooks/x`, events: [] } }), 400, "parameter_invalid", "events");
    expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url: `${receiver.base}/hooks/x`, events: ["order.paid"] } }), 400, "parameter_invalid", "events[0]");
    expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url: `${receiver.base}/hooks/x`, events: Array(10_000).fill("order.created") } }), 400, "parameter_invalid", "events");
    expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url: `${receiver.base}/hooks/x\u0000`, events: ["order.created"], extra: 1 } }), 400, "parameter_invalid");
    expectError(await req("POST", "/webhook-endpoints", keys.a, { body: { url: `${receiver.base}/${"x".repeat(3000)}`, events: ["order.created"] } }), 400, "parameter_invalid", "url");
    expectError(await req("PATCH", `/webhook-endpoints/${(await register()).id}`, keys.a, { body: { url: "https://192.168.1.1/" } }), 400, "parameter_invalid", "url");
  });

  it("scopes: webhooks:read reads, webhooks:write changes; neither comes with the orders scopes", async () => {
    expectError(await req("POST", "/webhook-endpoints", keys.readOnly, { body: { url: `${receiver.base}/hooks/x`, events: ["order.created"] } }), 403, "scope_missing");
    expectError(await req("GET", "/webhook-endpoints", keys.ordersOnly), 403, "scope_missing");
    expectError(await req("GET", "/webhook-deliveries", keys.ordersOnly), 403, "scope_missing");
    expect((await req("GET", "/webhook-deliveries", keys.readOnly)).status).toBe(200);
  });

  it("a store has at most 16 endpoints", async () => {
    const { rows } = await app.pool.query(`SELECT count(*)::int AS n FROM webhook_endpoints WHERE store_id = $1`, [await storeIdOf(app.pool, "fixture-store-b")]);
    for (let i = rows[0].n; i < 16; i++) await register(["order.created"], keys.b);
    expectError(await req("POST", "/webhook-endpoints", keys.b, { body: { url: `${receiver.base}/hooks/17`, events: ["order.created"] } }), 409, "webhook_endpoint_limit_reached");
    await app.pool.query(`DELETE FROM webhook_endpoints WHERE store_id = $1`, [await storeIdOf(app.pool, "fixture-store-b")]);
  });
});

describe("events", { timeout: 180_000 }, () => {
  it("a checkout, shipping, delivering, a return and its refund each send their event with the API's object, verified by both libraries", async () => {
    const hook = await register();
    const listing = await createListing(app.pool, 1_250, 2);
    const orderId = await checkout(listing, 2);

    const [created] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "order.created", 1, "order.created");
    const payload = verified(created!, hook.secret);
    expectExactKeys(payload, ["type", "timestamp", "data"], "payload");
    expect(payload.type).toBe("order.created");
    expect(payload.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expectExactKeys(payload.data, Object.keys(OrderPart.shape), "order_part");
    const part = await req("GET", `/orders/${orderId}`, keys.a);
    expect(payload.data).toEqual(part.json.data);

    // The sale took the last two units: listing.sold_out, with the listing as the API shows it.
    const [soldOut] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "listing.sold_out", 1, "listing.sold_out");
    const sold = verified(soldOut!, hook.secret);
    expect(sold.data).toMatchObject({ id: listing, object: "listing", quantity: 0 });
    expect(sold.data).toEqual((await sellerRequest(app.baseUrl, "GET", `/api/v1/listings/${listing}`, { key: (await createTestKey(app.pool, "fixture-store-a", ["listings:read"])).key })).json.data);

    // A second order, cancelled by the store: order.canceled, and its units are back on the listing.
    const other = await createListing(app.pool, 900, 3);
    const cancelledId = await checkout(other, 2);
    await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "order.created" && r.json.data.id === cancelledId, 1, "the second order.created");
    const cancel = await req("POST", `/orders/${cancelledId}/cancel`, keys.a, { body: { reason: "out_of_stock" } });
    expect(cancel.status, cancel.text).toBe(200);
    const [canceled] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "order.canceled", 1, "order.canceled");
    const canceledData = verified(canceled!, hook.secret).data;
    expectExactKeys(canceledData, Object.keys(OrderPart.shape), "order_part");
    expect(canceledData).toEqual(cancel.json.data);
    expect(canceledData).toMatchObject({ id: cancelledId, status: "cancelled", cancel_reason: "out_of_stock", refund_cents: 1_800 });
    expect((await app.pool.query(`SELECT quantity FROM listings WHERE id = $1`, [other])).rows[0].quantity).toBe(3);

    expect((await req("POST", `/orders/${orderId}/ship`, keys.a, { body: { tracking_number: "1Z999", carrier: "UPS" } })).status).toBe(200);
    const [shipped] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "order_part.shipped", 1, "order_part.shipped");
    expect(verified(shipped!, hook.secret).data).toMatchObject({ id: orderId, status: "shipped", tracking_number: "1Z999", carrier: "UPS" });

    expect((await req("POST", `/orders/${orderId}/deliver`, keys.a)).status).toBe(200);
    const [delivered] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "order_part.delivered", 1, "order_part.delivered");
    expect(verified(delivered!, hook.secret).data).toMatchObject({ id: orderId, status: "delivered" });

    // The buyer asks for a return (the buyer's domain call, as the buyer API makes it); the store refunds it.
    const order = await client.order.findUniqueOrThrow({ where: { id: orderId }, include: { parts: { include: { lines: true } } } });
    const line = order.parts[0]!.lines[0]!;
    const asked = await client.$transaction((tx) => requestReturn(tx, holder.id, orderId, CreateReturn.parse({ lines: [{ order_line_id: line.id, quantity: 1, reason: "damaged" }] })));
    const [requested] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "return.requested", 1, "return.requested");
    const requestedData = verified(requested!, hook.secret).data;
    expectExactKeys(requestedData, Object.keys(StoreReturn.shape), "return");
    expect(requestedData).toMatchObject({ id: asked.id, status: "requested" });
    for (const move of ["approve", "receive", "refund"]) expect((await req("POST", `/returns/${asked.id}/${move}`, keys.a)).status).toBe(200);
    const [refunded] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.type === "return.refunded", 1, "return.refunded");
    expect(verified(refunded!, hook.secret).data).toEqual((await req("GET", `/returns/${asked.id}`, keys.a)).json.data);

    // Each event once, each with its own id; the log says delivered, with the receiver's status.
    const sent = receiver.received.filter(at(hook.path));
    expect(sent.map((r) => r.json.type).sort()).toEqual([...ALL_EVENTS, "order.created"].sort());
    expect(new Set(sent.map((r) => r.headers["webhook-id"])).size).toBe(sent.length);
    const log = await req("GET", `/webhook-deliveries?endpoint_id=${hook.id}&limit=100`, keys.readOnly);
    expect(log.status).toBe(200);
    expect(log.json.data).toHaveLength(ALL_EVENTS.length + 1);
    for (const d of log.json.data) {
      expectExactKeys(d, DELIVERY_KEYS, "webhook_delivery");
      expect(WebhookDelivery.safeParse(d).success).toBe(true);
      expect(d).toMatchObject({ endpoint_id: hook.id, status: "delivered", attempts: 1, last_status: 200, last_error: null, next_attempt_at: null, replay_of: null });
    }
    expect(log.json.data.map((d: any) => d.event_id).sort()).toEqual(sent.map((r) => r.headers["webhook-id"]).sort());
    const one = await req("GET", `/webhook-deliveries/${log.json.data[0].id}`, keys.readOnly);
    expect(one.json.data).toEqual(log.json.data[0]);
    expectError(await req("GET", `/webhook-deliveries/${log.json.data[0].id}`, keys.b), 404, "webhook_delivery_not_found");
  });

  it("only the types an endpoint asked for, only to the store's own endpoints, nothing to a disabled one", async () => {
    const narrow = await register(["order_part.shipped"]);
    const disabled = await register(["order.created"]);
    await req("PATCH", `/webhook-endpoints/${disabled.id}`, keys.a, { body: { status: "disabled" } });
    const otherStore = await register(["order.created"], keys.b);
    const watcher = await register(["order.created"]);
    const orderId = await checkout(await createListing(app.pool, 900, 5));
    await receiver.waitFor((r) => at(watcher.path)(r) && r.json?.data?.id === orderId, 1, "order.created to the watcher");
    expect(receiver.received.filter((r) => [narrow.path, disabled.path, otherStore.path].includes(r.path))).toEqual([]);
    expect(await deliveriesOf(disabled.id)).toEqual([]);
  });

  it("a change that rolls back writes no event, no delivery and no job, and sends nothing", async () => {
    const hook = await register(["order.created"]);
    const storeId = await storeIdOf(app.pool, "fixture-store-a");
    const orderId = await checkout(await createListing(app.pool, 700, 5));
    await receiver.waitFor((r) => at(hook.path)(r), 1, "the checkout's order.created");
    const jobs = async () => (await app.pool.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'webhook-delivery'`)).rows[0].n;
    const before = { events: await client.webhookEvent.count(), deliveries: await client.webhookDelivery.count(), jobs: await jobs() };
    await expect(
      client.$transaction(async (tx) => {
        await emitStoreEvents(tx, "order.created", [{ storeId, id: orderId }]);
        expect(await tx.webhookDelivery.count({ where: { endpointId: hook.id } })).toBe(2);
        throw new Error("the change fails after its event was written");
      }),
    ).rejects.toThrow("the change fails");
    expect({ events: await client.webhookEvent.count(), deliveries: await client.webhookDelivery.count(), jobs: await jobs() }).toEqual(before);
    // Committed, the same call delivers.
    await client.$transaction((tx) => emitStoreEvents(tx, "order.created", [{ storeId, id: orderId }]));
    await receiver.waitFor(at(hook.path), 2, "the committed event");
  });
});

describe("signatures, retries, 410 and replays", { timeout: 240_000 }, () => {
  it("after a rotation both secrets sign for 24 hours, then only the new one", async () => {
    const hook = await register(["order.created"]);
    const rotated = await req("POST", `/webhook-endpoints/${hook.id}/rotate-secret`, keys.a);
    expect(rotated.status, rotated.text).toBe(200);
    expectExactKeys(rotated.json.data, Object.keys(WebhookEndpointWithSecret.shape), "rotated endpoint");
    const fresh = rotated.json.data.secret as string;
    expect(fresh).not.toBe(hook.secret);
    const overlap = Date.parse(rotated.json.data.previous_secret_expires_at) - Date.parse(rotated.json.data.updated_at);
    expect(overlap).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlap).toBeLessThanOrEqual(24 * 3600_000 + 60_000);

    const first = await checkout(await createListing(app.pool, 800, 5));
    const [during] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.data?.id === first, 1, "an event during the rotation");
    expect(String(during!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    verified(during!, fresh);
    verified(during!, hook.secret);

    // 24 hours later (the overlap's end, moved to now): one signature, by the new secret only.
    await app.pool.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [hook.id]);
    expect((await req("GET", `/webhook-endpoints/${hook.id}`, keys.a)).json.data.previous_secret_expires_at).toBeNull();
    const second = await checkout(await createListing(app.pool, 800, 5));
    const [after] = await receiver.waitFor((r) => at(hook.path)(r) && r.json?.data?.id === second, 1, "an event after the rotation");
    expect(String(after!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    verified(after!, fresh);
    expectUnverifiable(after!, hook.secret);
  });

  it("a receiver answering 500 gets every attempt at the documented offsets, with the same id and bytes, then the delivery fails", async () => {
    const hook = await register(["order.created"]);
    receiver.answerNext(hook.path, ...Array(MAX_ATTEMPTS).fill(500));
    const orderId = await checkout(await createListing(app.pool, 600, 5));
    let total = 0;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const [row] = await eventually(() => deliveriesOf(hook.id), (rows) => rows[0]?.attempts === attempt, WAIT_MS);
      expect(row?.attempts, `attempt ${attempt}`).toBe(attempt);
      await receiver.waitFor(at(hook.path), attempt, `attempt ${attempt} at the receiver`);
      expect(row).toMatchObject({ last_status: 500, last_error: "the receiver answered 500" });
      if (attempt < MAX_ATTEMPTS) {
        expect(row.status).toBe("pending");
        const offset = (row.next_attempt_at.getTime() - row.last_attempt_at.getTime()) / 1000;
        const documented = RETRY_DELAYS_SECONDS[attempt - 1]!;
        expect(offset).toBeGreaterThanOrEqual(documented);
        expect(offset).toBeLessThanOrEqual(documented * (1 + JITTER) + 0.001);
        total += offset;
        await retryNow();
      } else {
        expect(row).toMatchObject({ status: "failed", next_attempt_at: null });
      }
    }
    expect(total).toBeGreaterThanOrEqual(72 * 3600);
    const attempts = receiver.received.filter(at(hook.path));
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(attempts[0]!.json.data.id).toBe(orderId);
    for (const a of attempts) verified(a, hook.secret);
  });

  it("410 Gone fails the delivery and disables the endpoint; enabled again, a replay sends the same webhook-id and body", async () => {
    const hook = await register(["order.created"]);
    receiver.answerNext(hook.path, 410);
    const orderId = await checkout(await createListing(app.pool, 500, 5));
    const [gone] = await eventually(() => deliveriesOf(hook.id), (rows) => rows[0]?.status === "failed", WAIT_MS);
    expect(gone?.status).toBe("failed");
    expect(gone).toMatchObject({ attempts: 1, last_status: 410, next_attempt_at: null });
    const endpoint = (await req("GET", `/webhook-endpoints/${hook.id}`, keys.a)).json.data;
    expect(endpoint).toMatchObject({ status: "disabled", disabled_reason: "the receiver answered 410 Gone" });

    // Disabled: new events are not written for it, and a replay is refused.
    await checkout(await createListing(app.pool, 500, 5));
    expectError(await req("POST", `/webhook-deliveries/${gone.id}/replay`, keys.a), 409, "webhook_endpoint_disabled");
    expect(await deliveriesOf(hook.id)).toHaveLength(1);

    await req("PATCH", `/webhook-endpoints/${hook.id}`, keys.a, { body: { status: "enabled" } });
    const replay = await req("POST", `/webhook-deliveries/${gone.id}/replay`, keys.a, { headers: { "Idempotency-Key": `replay-${gone.id}` } });
    expect(replay.status, replay.text).toBe(201);
    expectExactKeys(replay.json.data, DELIVERY_KEYS, "replayed delivery");
    expect(replay.json.data).toMatchObject({ event_id: gone.event_id, replay_of: gone.id, status: "pending", attempts: 0 });
    // The same key again replays the answer, not the event.
    const again = await req("POST", `/webhook-deliveries/${gone.id}/replay`, keys.a, { headers: { "Idempotency-Key": `replay-${gone.id}` } });
    expect(again.json.data.id).toBe(replay.json.data.id);
    const received = await receiver.waitFor(at(hook.path), 2, "the replay");
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(verified(received[1]!, hook.secret).data.id).toBe(orderId);
    const log = await eventually(() => deliveriesOf(hook.id), (rows) => rows.some((r) => r.id === replay.json.data.id && r.status === "delivered"), WAIT_MS);
    expect(log.find((r) => r.id === replay.json.data.id)?.status).toBe("delivered");
    expect(await deliveriesOf(hook.id)).toHaveLength(2);
  });
});
