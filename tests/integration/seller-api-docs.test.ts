/**
 * docs/seller-api.md is true: every `sh` example in it runs, in the order shown, in one bash
 * session against a fresh store with two new orders (BASE = the app, KEY = a key with every seller
 * scope, HOOK_URL = a webhook receiver), and prints what the page says it prints. On an app and database of its own.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { runShellBlocks, shellBlocks } from "../helpers/doc-examples";
import { startPlatform, type FakePlatform } from "../helpers/platform";
import { createTestOrder, type FixtureOrder } from "../helpers/orders";
import { createTestKey, feedSettled, type IsolatedApp, startIsolatedApp, storeIdOf } from "../helpers/seller";

const DOC = readFileSync("docs/seller-api.md", "utf8");
const BLOCKS = shellBlocks(DOC);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What each block prints, in order (its output lines, trimmed). */
const EXPECTED: Array<(lines: string[]) => void> = [
  (l) => expect(JSON.parse(l.join("\n"))).toMatchObject({ data: expect.any(Array), next_cursor: expect.anything(), meta: { request_id: expect.any(String) } }),
  (l) => expect(l).toEqual([expect.stringMatching(UUID)]),
  (l) => expect(l).toEqual([expect.stringMatching(UUID)]),
  (l) => expect(l).toEqual(['"active"', "3900", '"inactive"', '"active"']),
  (l) => expect(l).toEqual(['"LAMP-1"', "2"]),
  (l) => expect(l.map((x) => JSON.parse(x))).toEqual([
    { delta: 5, quantity_after: 8, reason: "batch" },
    { delta: 2, quantity_after: 10, reason: "batch" },
  ]),
  (l) => {
    const rows = l.map((x) => JSON.parse(x));
    expect(rows.some((r) => r.sku === "LAMP-1" && r.quantity === 10 && r.status === "active")).toBe(true);
  },
  (l) => expect(l).toEqual(['"Standard US"', '"Standard US (2026)"']),
  (l) => {
    expect(l).toHaveLength(3);
    expect(l[0]).toBe(order.number);
    expect(JSON.parse(l[1]!)).toEqual({ status: "shipped", carrier: "UPS", tracking_number: "1Z999AA10123456784" });
    expect(l[2]).toBe("delivered");
  },
  (l) => {
    const mine = earlier.lines.filter((x) => x.storeSlug === "fixture-store-b");
    expect(JSON.parse(l.join("\n"))).toEqual({ status: "cancelled", cancel_reason: "out_of_stock", refund_cents: mine.reduce((s, x) => s + x.quantity * x.unitPriceCents, 0) });
  },
  (l) => expect(l).toEqual(["enabled", "order.created", "true", "[]"]),
  (l) => {
    // The three newest changes: the endpoint registered just before, the earlier order's cancel and the order's deliver.
    expect(l.map((x) => JSON.parse(x))).toEqual([
      { action: "webhook_endpoints.create", outcome: "succeeded", actor: "api_key" },
      { action: "orders.cancel", outcome: "succeeded", actor: "api_key" },
      { action: "orders.deliver", outcome: "succeeded", actor: "api_key" },
    ]);
  },
  (l) => expect(l.map((x) => x.toLowerCase())).toEqual(["first: applied", "idempotent-replayed: true"]),
  (l) => expect(JSON.parse(l.join("\n"))).toMatchObject({ type: "not_found_error", code: "listing_not_found" }),
];

let app: IsolatedApp;
let receiver: FakePlatform;
let order: FixtureOrder;
let earlier: FixtureOrder;
let outputs: string[][] = [];
let stderr = "";
let exitCode: number | null = null;

beforeAll(async () => {
  receiver = await startPlatform();
  app = await startIsolatedApp("seller-api-docs", { WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: receiver.caPath });
  const { key } = await createTestKey(app.pool, "fixture-store-b", [...SELLER_SCOPES]);
  // The store's two orders, guests', of this store and another (the examples see only theirs): the
  // newest is shipped and delivered, the earlier one cancelled.
  const parts = [{ store: "fixture-store-b", lines: [{ quantity: 1 }] }, { store: "fixture-store-a", lines: [{ quantity: 2 }] }];
  earlier = await createTestOrder(app.pool, { userId: null, email: "earlier@example.com", parts, createdAt: new Date(Date.now() - 60_000) });
  order = await createTestOrder(app.pool, {
    userId: null,
    email: "guest@example.com",
    parts: [{ store: "fixture-store-b", lines: [{ quantity: 1 }] }, { store: "fixture-store-a", lines: [{ quantity: 2 }] }],
  });
  // Example 7 reads the sync feed right after example 6 wrote. The feed hands out a change once
  // every transaction older than it has ended, on the whole server (transaction ids are
  // server-wide): a reader's own database has none, but this one is shared with other test files
  // writing at the same moment, so the session waits, as docs/seller-api.md says a client may.
  const storeId = await storeIdOf(app.pool, "fixture-store-b");
  const feedReady = () => feedSettled(app.pool, "listings", storeId);
  ({ exitCode, stderr, outputs } = await runShellBlocks(BLOCKS, { BASE: app.baseUrl, KEY: key, HOOK_URL: `${receiver.base}/hooks/erp` }, { 6: feedReady }));
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

describe("docs/seller-api.md examples", () => {
  it("has as many examples as this test knows (a new example needs its expectation here)", () => {
    expect(BLOCKS.length).toBe(EXPECTED.length);
  });

  it("run to the end without an error", () => {
    expect(exitCode, stderr).toBe(0);
    expect(outputs.length).toBe(BLOCKS.length);
  });

  EXPECTED.forEach((check, i) => {
    it(`example ${i + 1} prints what the page says: ${BLOCKS[i]?.split("\n")[0]?.slice(0, 60)}`, () => {
      check(outputs[i] ?? []);
    });
  });
});
