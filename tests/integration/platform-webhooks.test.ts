/**
 * Order events to commerce platforms (lib/webhooks/, lib/protocols/webhooks.ts), against a fake
 * platform on loopback (tests/helpers/platform.ts): UCP events verify against the key our profile
 * publishes, ACP events carry `Merchant-Signature`; each is sent after commit only (a declined
 * checkout sends nothing), retried with the same id and bytes, and ended by 410. Retries are
 * made due at once by moving their job's `start_after` (lib/webhooks/schedule.ts is not waited for).
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { flattenedVerify, importJWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACP_VERSION, acpClient, expectAcp } from "../helpers/acp";
import { cancelOrder, shipOrder, startPlatform, type Received, type FakePlatform } from "../helpers/platform";
import { DECLINED_CARD, UcpHarness, expectValid, orderEventSchema } from "../helpers/ucp";

const ACP_KEY = `acp-webhooks-${randomBytes(6).toString("hex")}`;
const ACP_SECRET = `whsec-${randomBytes(12).toString("hex")}`;
const ACP_ADDRESS = { name: "Ada Lovelace", line_one: "1 Main St", city: "Springfield", state: "IL", country: "US", postal_code: "62704" };

let platform: FakePlatform;
let ucp: UcpHarness;

beforeAll(async () => {
  platform = await startPlatform();
  ucp = await UcpHarness.start(
    "platform-webhooks",
    {
      WEBHOOKS_ALLOW_LOOPBACK: "on",
      NODE_EXTRA_CA_CERTS: platform.caPath,
      ACP_WEBHOOKS: JSON.stringify([{ platform_key_sha256: createHash("sha256").update(ACP_KEY).digest("hex"), url: platform.acpReceiverUrl, secret: ACP_SECRET }]),
    },
    platform.profileUrl,
  );
});
afterAll(async () => {
  await ucp?.stop();
  await platform?.close();
});

const deliveries = async (orderId: string) =>
  (await ucp.app.pool.query(`SELECT id, channel, event_type, status, attempts, last_status, last_error FROM webhook_deliveries WHERE order_id = $1 ORDER BY created_at`, [orderId])).rows;

/** Makes every job waiting for its retry due now (the backoff's time, injected). */
const retryNow = () => ucp.app.pool.query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'webhook-delivery' AND state IN ('created', 'retry') AND start_after > now()`);

async function waitUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value)) return value;
    if (i > 1_200) throw new Error(`waited for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Verifies `Request-Signature` (a detached JWS, RFC 7797) with the key of our profile its `kid` names. */
async function verifyUcpSignature(event: Received): Promise<void> {
  const profile = await (await fetch(`${ucp.app.baseUrl}/.well-known/ucp`)).json();
  const [protectedHeader, payload, signature] = String(event.headers["request-signature"]).split(".");
  expect(payload).toBe("");
  const header = JSON.parse(Buffer.from(protectedHeader!, "base64url").toString("utf8"));
  expect(header).toEqual({ alg: "ES256", kid: expect.any(String), b64: false, crit: ["b64"] });
  const jwk = profile.signing_keys.find((k: { kid: string }) => k.kid === header.kid);
  expect(jwk).toMatchObject({ kty: "EC", crv: "P-256", use: "sig", alg: "ES256" });
  const key = await importJWK(jwk, "ES256");
  await flattenedVerify({ protected: protectedHeader!, payload: event.body, signature: signature! }, key);
  // Another body does not verify.
  await expect(flattenedVerify({ protected: protectedHeader!, payload: `${event.body} `, signature: signature! }, key)).rejects.toThrow();
}

describe("UCP order webhooks", { timeout: 120_000 }, () => {
  it("a two-store checkout sends one signed order_create per order, after commit, with Standard Webhooks ids", async () => {
    const checkout = await ucp.createCheckout();
    const two = await ucp.update(checkout, {
      line_items: [
        { item: { id: ucp.fixtures.item.id }, quantity: 1 },
        { item: { id: ucp.fixtures.second.id }, quantity: 2 },
      ],
    });
    const completed = await ucp.complete(two.id);
    expect(completed.orders).toHaveLength(2);
    for (const { id } of completed.orders) {
      const [event] = await platform.waitFor((r) => r.json?.id === id, 1, `the order_create of ${id}`);
      expectValid(orderEventSchema(), event!.json, "order event");
      expect(event!.json.checkout_id).toBe(checkout.id);
      expect(event!.headers["content-type"]).toBe("application/json");
      expect(event!.headers["ucp-agent"]).toBe(`profile="${ucp.app.baseUrl}/.well-known/ucp"`);
      expect(event!.headers["webhook-id"]).toBe(event!.json.event_id);
      expect(Number(event!.headers["webhook-timestamp"])).toBeGreaterThan(1_700_000_000);
      await verifyUcpSignature(event!);
      const rows = await waitUntil(() => deliveries(id), (r) => r[0]?.status === "delivered", "the delivery recorded");
      expect(rows).toEqual([{ id: event!.json.event_id, channel: "ucp", event_type: "order_create", status: "delivered", attempts: 1, last_status: 200, last_error: null }]);
    }
  });

  it("a store cancelling the order sends order_update with a cancellation adjustment of what it refunded", async () => {
    const { orderId } = await ucp.completedOrder();
    await platform.waitFor((r) => r.json?.id === orderId, 1, "the order_create");
    await cancelOrder(ucp.app.database.databaseUrl, orderId);
    const [update] = await platform.waitFor((r) => r.json?.id === orderId && Array.isArray(r.json?.adjustments), 1, "the cancellation's order_update");
    expectValid(orderEventSchema(), update!.json, "order event");
    await verifyUcpSignature(update!);
    const { rows } = await ucp.app.pool.query(`SELECT total_cents FROM orders WHERE id = $1`, [orderId]);
    expect(update!.json.adjustments).toEqual([
      expect.objectContaining({ type: "cancellation", status: "completed", amount: rows[0].total_cents, line_items: update!.json.line_items.map((l: any) => ({ id: l.id, quantity: l.quantity.total })) }),
    ]);
    expect(update!.json.adjustments[0].description).toContain("out of stock");
  });

  it("a declined payment rolls back: no delivery recorded, nothing sent", async () => {
    const checkout = await ucp.createCheckout();
    const before = platform.received.length;
    const res = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, ucp.paymentPayload(DECLINED_CARD));
    expect(res.status).toBe(402);
    const { rows } = await ucp.app.pool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN orders o ON o.id = d.order_id WHERE o.checkout_session_id = $1`,
      [checkout.id],
    );
    expect(rows[0].n).toBe(0);
    // A later order's event arriving shows the queue ran past the moment of the decline.
    const { orderId } = await ucp.completedOrder();
    await platform.waitFor((r) => r.json?.id === orderId);
    expect(platform.received.slice(before).map((r) => r.json?.checkout_id)).not.toContain(checkout.id);
  });

  it("a receiver answering 500 gets the same event again (same id, same bytes) until it answers 2xx", async () => {
    platform.answerNext("/ucp/orders", 500, 503);
    const { orderId } = await ucp.completedOrder();
    const first = await platform.waitFor((r) => r.json?.id === orderId, 1);
    await waitUntil(() => deliveries(orderId), (r) => r[0]?.attempts === 1, "the first failure recorded");
    expect((await deliveries(orderId))[0]).toMatchObject({ status: "pending", last_status: 500, last_error: "the receiver answered 500" });
    await waitUntil(async () => (await retryNow(), platform.received.filter((r) => r.json?.id === orderId).length), (n) => n >= 3, "two retries");
    const sent = platform.received.filter((r) => r.json?.id === orderId);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    expect(new Set(sent.map((r) => r.headers["webhook-id"]))).toEqual(new Set([first[0]!.headers["webhook-id"]]));
    const [row] = await waitUntil(() => deliveries(orderId), (r) => r[0]?.status === "delivered", "the delivery");
    expect(row).toMatchObject({ attempts: 3, last_status: 200 });
  });

  it("410 Gone ends the delivery: failed, not retried", async () => {
    platform.answerNext("/ucp/orders", 410);
    const { orderId } = await ucp.completedOrder();
    const [row] = await waitUntil(() => deliveries(orderId), (r) => r[0]?.status === "failed", "the failed delivery");
    expect(row).toMatchObject({ attempts: 1, last_status: 410 });
    // The queue records the job's end after the delivery row: wait for it to leave `active`.
    const jobs = async () =>
      (await ucp.app.pool.query(`SELECT state FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'delivery' = $1`, [row.id])).rows;
    const rows = await waitUntil(jobs, (r) => r.length > 0 && r.every((j) => j.state !== "active"), "the job's end");
    expect(rows.map((r) => r.state)).toEqual(["completed"]);
  });

  it("a platform whose profile names no webhook_url is sent nothing (skipped, with why)", async () => {
    const quiet = ucp.headers({ "UCP-Agent": `profile="${platform.quietProfileUrl}"` });
    const created = await ucp.request("POST", "/checkout-sessions", ucp.createPayload(), quiet);
    expect(created.status, created.text).toBe(201);
    const done = await ucp.request("POST", `/checkout-sessions/${created.json.id}/complete`, ucp.paymentPayload(), ucp.headers({ "UCP-Agent": `profile="${platform.quietProfileUrl}"` }));
    expect(done.status, done.text).toBe(200);
    const [row] = await waitUntil(() => deliveries(done.json.order.id), (r) => r[0]?.status === "skipped", "the skipped delivery");
    expect(row).toMatchObject({ attempts: 0, last_error: "the platform's profile names no order webhook_url" });
  });
});

describe("ACP order webhooks", { timeout: 120_000 }, () => {
  const checkoutOf = async (key: string) => {
    const acp = acpClient(ucp.app, key);
    const created = await acp.request("POST", "/checkout_sessions", {
      line_items: [{ id: ucp.fixtures.item.id }, { id: ucp.fixtures.third.id }],
      currency: "usd",
      capabilities: {},
      buyer: { email: `acp-${randomBytes(3).toString("hex")}@example.com`, first_name: "Ada" },
      fulfillment_details: { address: ACP_ADDRESS },
    });
    expect(created.status, created.text).toBe(201);
    const done = await acp.request("POST", `/checkout_sessions/${created.json.id}/complete`, {
      payment_data: { handler_id: "test_card", instrument: { type: "card", credential: { type: "test_card", token: "4242424242424242" } } },
    });
    expect(done.status, done.text).toBe(200);
    return done.json;
  };

  it("a configured platform gets order_create per order, signed with Merchant-Signature, valid against the vendored schemas", async () => {
    const session = await checkoutOf(ACP_KEY);
    const orders = session.metadata.orders as Array<{ id: string }>;
    expect(orders).toHaveLength(2);
    for (const { id } of orders) {
      const [event] = await platform.waitFor((r) => r.path === "/acp/orders" && r.json?.data?.id === id, 1, `the ACP order_create of ${id}`);
      expect(Object.keys(event!.json).sort()).toEqual(["data", "type"]);
      expect(event!.json.type).toBe("order_create");
      expectAcp("Order", event!.json.data);
      expect(event!.json.data).toMatchObject({ type: "order", checkout_session_id: session.id, status: "confirmed" });
      const signature = String(event!.headers["merchant-signature"]);
      expect(signature).toMatch(/^t=\d+,v1=[a-f0-9]{64}$/);
      const [, t, v1] = /^t=(\d+),v1=([a-f0-9]{64})$/.exec(signature)!;
      expect(v1).toBe(createHmac("sha256", ACP_SECRET).update(`${t}.${event!.body}`).digest("hex"));
      const rows = await waitUntil(() => deliveries(id), (r) => r[0]?.status === "delivered", "the delivery");
      expect(event!.headers["request-id"]).toBe(rows[0].id);
    }
    expect(ACP_VERSION).toBe("2026-04-17");
  });

  it("shipping an order sends order_update with the shipment; a platform with no receiver configured is sent nothing", async () => {
    const session = await checkoutOf(ACP_KEY);
    const orderId = session.order.id;
    await platform.waitFor((r) => r.path === "/acp/orders" && r.json?.data?.id === orderId);
    await shipOrder(ucp.app.database.databaseUrl, orderId, "1Z999");
    const [update] = await platform.waitFor((r) => r.path === "/acp/orders" && r.json?.type === "order_update" && r.json?.data?.id === orderId);
    expectAcp("Order", update!.json.data);
    expect(update!.json.data.status).toBe("shipped");
    expect(update!.json.data.fulfillments).toEqual([expect.objectContaining({ type: "shipping", status: "shipped", tracking_number: "1Z999" })]);

    // The other order of the session, cancelled by its store: order_update with the order canceled.
    const other = (session.metadata.orders as Array<{ id: string }>).find((o) => o.id !== orderId)!;
    await platform.waitFor((r) => r.path === "/acp/orders" && r.json?.data?.id === other.id);
    await cancelOrder(ucp.app.database.databaseUrl, other.id);
    const [canceled] = await platform.waitFor((r) => r.path === "/acp/orders" && r.json?.type === "order_update" && r.json?.data?.id === other.id, 1, "the cancellation's order_update");
    expectAcp("Order", canceled!.json.data);
    expect(canceled!.json.data.status).toBe("canceled");

    const unconfigured = await checkoutOf(`acp-other-${randomBytes(6).toString("hex")}`);
    const [row] = await waitUntil(() => deliveries(unconfigured.order.id), (r) => r[0]?.status === "skipped", "the skipped delivery");
    expect(row).toMatchObject({ channel: "acp", attempts: 0, last_error: "no receiver is configured for this platform (ACP_WEBHOOKS)" });
  });
});
