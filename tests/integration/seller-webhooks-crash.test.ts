/**
 * Issue 34: the app is SIGKILLed while it delivers 1,000 orders' `order.created` events. After a
 * restart on the same database, every event was delivered at least once, none was invented (every
 * `webhook-id` received is an event of one of these orders, and every body verifies), and a
 * receiver that deduplicates by `webhook-id` holds exactly one event per order.
 *
 * The orders and their events are written first by the test, in transactions of its own through
 * `emitStoreEvents` (the outbox call every change makes), while the app runs with JOBS_WORKER=off;
 * then an app that works the queue starts, and is killed once the receiver has some of them.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { createTestOrder } from "../helpers/orders";
import { startPlatform, type FakePlatform } from "../helpers/platform";
import { createTestKey, sellerRequest, storeIdOf } from "../helpers/seller";
import { createTestDatabase, groupAlive, killGroup, startServer, type StartedServer, type TestDatabase } from "../setup/app";

const ORDERS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let receiver: FakePlatform;
let database: TestDatabase;
let server: StartedServer | undefined;
let pool: pg.Pool;
const env = () => ({ WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: receiver.caPath });

beforeAll(async () => {
  receiver = await startPlatform();
  database = await createTestDatabase({ logPrefix: "[webhooks-crash]" });
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await database?.drop();
  await receiver?.close();
});

describe("SIGKILL during deliveries", { timeout: 900_000 }, () => {
  it("every order.created is delivered at least once after a restart, none is invented, and webhook-id deduplicates them", async () => {
    server = await startServer({ database, env: { ...env(), JOBS_WORKER: "off" }, logPrefix: "[webhooks-crash: writer]" });
    pool = new pg.Pool({ connectionString: database.databaseUrl, max: 4 });
    pool.on("error", () => {}); // an idle connection cut by the kill (embedded: the owner serves the database)
    const { key } = await createTestKey(pool, "fixture-store-a", ["webhooks:write"]);
    const path = `/hooks/crash-${randomBytes(3).toString("hex")}`;
    const created = await sellerRequest(server.baseUrl, "POST", "/api/v1/webhook-endpoints", { key, body: { url: `${receiver.base}${path}`, events: ["order.created"] } });
    expect(created.status, created.text).toBe(201);
    const secret = created.json.data.secret as string;

    const storeId = await storeIdOf(pool, "fixture-store-a");
    const orderIds: string[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const order = await createTestOrder(pool, { userId: null, email: `crash-${i}@example.com`, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }] });
      orderIds.push(order.id);
    }
    const client = createDb(database.databaseUrl);
    try {
      for (let i = 0; i < ORDERS; i += 100) {
        await client.$transaction((tx) => emitStoreEvents(tx, "order.created", orderIds.slice(i, i + 100).map((id) => ({ storeId, id }))), { timeout: 120_000 });
      }
    } finally {
      await client.$disconnect();
    }
    const events = new Map<string, string>(
      (await pool.query(`SELECT e.id, (e.body::jsonb -> 'data' ->> 'id') AS order_id FROM webhook_events e WHERE e.store_id = $1 AND e.type = 'order.created'`, [storeId])).rows.map((r) => [r.id, r.order_id]),
    );
    expect(events.size).toBe(ORDERS);
    expect(new Set(events.values())).toEqual(new Set(orderIds));
    expect(receiver.received.filter((r) => r.path === path)).toEqual([]); // no worker ran yet
    await server.stop();

    // An app that works the queue, killed in the middle of the deliveries.
    server = await startServer({ database, env: env(), logPrefix: "[webhooks-crash: first]" });
    await receiver.waitFor((r) => r.path === path, 50, "the first deliveries");
    killGroup(server.serverPid, "SIGKILL");
    while (groupAlive(server.serverPid)) await sleep(20);
    const atKill = new Set(receiver.received.filter((r) => r.path === path).map((r) => String(r.headers["webhook-id"]))).size;
    await server.stop();
    expect(atKill).toBeLessThan(ORDERS); // killed mid-way, not after the end

    // Restarted on the same database: the rest, and the deliveries the kill cut short, go out.
    server = await startServer({ database, env: env(), logPrefix: "[webhooks-crash: restarted]" });
    const deadline = Date.now() + 600_000;
    let ids = new Set<string>();
    while (Date.now() < deadline) {
      ids = new Set(receiver.received.filter((r) => r.path === path).map((r) => String(r.headers["webhook-id"])));
      if (ids.size >= ORDERS) break;
      await sleep(250);
    }
    const received = receiver.received.filter((r) => r.path === path);
    // None invented: every id received is one of the events, and every body is signed.
    for (const id of ids) expect(events.has(id), `received an unknown webhook-id ${id}`).toBe(true);
    const verifier = new Webhook(secret);
    const byId = new Map<string, string>();
    for (const r of received) {
      const payload = verifier.verify(r.body, r.headers as Record<string, string>) as { type: string; data: { id: string } };
      expect(payload.type).toBe("order.created");
      const id = String(r.headers["webhook-id"]);
      expect(payload.data.id).toBe(events.get(id));
      // A duplicate (a delivery the kill cut short, sent again) is the same event: same id, same bytes.
      if (byId.has(id)) expect(r.body).toBe(byId.get(id));
      byId.set(id, r.body);
    }
    // All delivered at least once; deduplicated by webhook-id, exactly one per order.
    expect(ids.size).toBe(ORDERS);
    expect(new Set([...ids].map((id) => events.get(id)))).toEqual(new Set(orderIds));
    const { rows } = await pool.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`, [created.json.data.id]);
    for (let i = 0; i < 600 && !(rows.length === 1 && rows[0].status === "delivered"); i++) {
      await sleep(250);
      rows.splice(0, rows.length, ...(await pool.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 GROUP BY status`, [created.json.data.id])).rows);
    }
    expect(rows).toEqual([{ status: "delivered", n: ORDERS }]);
  });
});
