/**
 * Idempotent writes on the agent MCP server: add_to_cart, checkout and request_return take an
 * idempotency_key as their buyer API twins take Idempotency-Key. 50 concurrent calls with one key
 * do the work once (the others answer the same result or idempotency_key_in_use), a retry after
 * the first replays its result, and the same key with other arguments is refused; without a key,
 * each call is a write of its own. It writes, so it runs on an app and database of its own.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, allowAgentOrders, buyer, createHolder, createListing, setMarketplaceAgentCheckout, token, type Holder } from "../helpers/buyer";
import { rpc, toolCall } from "../helpers/mcp";
import { mintAccessToken } from "../helpers/oauth-tokens";
import { createTestOrder } from "../helpers/orders";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const AGENT_MCP = "/api/agent/mcp";
const CALLS = 50;

let app: IsolatedApp;
let holder: Holder;
let listing = "";

async function count(sql: string, params: unknown[]): Promise<number> {
  return (await app.pool.query(`SELECT (${sql})::int AS n`, params)).rows[0].n;
}

/** A tool call on the agent server with a fresh grant's token (its own rate-limit bucket). */
async function caller() {
  const minted = await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" });
  return {
    minted,
    call: async (name: string, args: Record<string, unknown>) => {
      const res = await rpc(toolCall(name, args), { baseUrl: app.baseUrl, path: AGENT_MCP, headers: { Authorization: `Bearer ${minted.token}` } });
      expect(res.status, res.text).toBe(200);
      return res.message.result as { isError?: boolean; structuredContent: any };
    },
  };
}

/** 50 calls at once with one key: every answer is the first call's result or idempotency_key_in_use. */
async function concurrently(call: (name: string, args: Record<string, unknown>) => Promise<{ isError?: boolean; structuredContent: any }>, name: string, args: Record<string, unknown>) {
  const results = await Promise.all(Array.from({ length: CALLS }, () => call(name, args)));
  const done = results.filter((r) => !r.isError).map((r) => r.structuredContent.data);
  const refused = results.filter((r) => r.isError).map((r) => r.structuredContent.error.code);
  expect(done.length).toBeGreaterThan(0);
  expect(new Set(refused)).toEqual(new Set(refused.length ? ["idempotency_key_in_use"] : []));
  for (const data of done) expect(data).toEqual(done[0]);
  return done[0];
}

beforeAll(async () => {
  app = await startIsolatedApp("agent-mcp-idempotency");
  holder = await createHolder(app.pool, "keys");
  listing = await createListing(app.pool, 1200, 500);
  await setMarketplaceAgentCheckout(app.pool, true);
  await allowAgentOrders(app.pool, holder.id);
});

afterAll(async () => {
  await app?.stop();
});

const lineQuantity = () =>
  count(`SELECT coalesce(sum(l.quantity), 0) FROM cart_lines l JOIN carts c ON c.id = l.cart_id WHERE c.user_id = $1 AND l.listing_id = $2`, [holder.id, listing]);

describe("add_to_cart", () => {
  it(`${CALLS} concurrent calls with one key add the line once; a retry replays the cart; other arguments are refused`, async () => {
    const { call } = await caller();
    const key = randomUUID();
    const args = { listing_id: listing, quantity: 1, idempotency_key: key };
    const cart = await concurrently(call, "add_to_cart", args);
    expect(await lineQuantity()).toBe(1);
    expect(cart.lines.find((l: { listing_id: string }) => l.listing_id === listing).quantity).toBe(1);

    const retry = await call("add_to_cart", args);
    expect(retry.isError ?? false).toBe(false);
    expect(retry.structuredContent.data).toEqual(cart);
    expect(await lineQuantity()).toBe(1);

    const other = await call("add_to_cart", { ...args, quantity: 2 });
    expect(other.structuredContent.error).toMatchObject({ code: "idempotency_key_reused", param: "idempotency_key" });
    expect(await lineQuantity()).toBe(1);

    // Without a key, each call adds.
    for (let i = 0; i < 2; i++) expect((await call("add_to_cart", { listing_id: listing, quantity: 1 })).isError ?? false).toBe(false);
    expect(await lineQuantity()).toBe(3);
    await app.pool.query(`DELETE FROM cart_lines WHERE listing_id = $1`, [listing]);
  });

  it("a key used on the tool and then on the buyer API under one grant is refused there as reused", async () => {
    const minted = await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" });
    const key = randomUUID();
    const res = await rpc(toolCall("add_to_cart", { listing_id: listing, quantity: 1, idempotency_key: key }), {
      baseUrl: app.baseUrl,
      path: AGENT_MCP,
      headers: { Authorization: `Bearer ${minted.token}` },
    });
    expect(res.message.result.isError ?? false).toBe(false);
    // A buyer API token of the same connection (grant).
    const apiToken = await mintAccessToken(app.pool, { userId: holder.id, scopes: ALL_SCOPES, resource: "buyer_api", baseUrl: app.baseUrl, grantId: minted.grantId });
    const api = await buyer(app, "POST", "/cart/lines", apiToken.token, { body: { listing_id: listing, quantity: 1 }, headers: { "Idempotency-Key": key } });
    expect([api.status, api.json.error?.code]).toEqual([422, "idempotency_key_reused"]);
    await app.pool.query(`DELETE FROM cart_lines WHERE listing_id = $1`, [listing]);
  });
});

describe("checkout", () => {
  it(`${CALLS} concurrent calls with one key place one order and take one unit; a retry answers that order`, async () => {
    const { call } = await caller();
    const ordersBefore = await count(`SELECT count(*) FROM orders WHERE user_id = $1`, [holder.id]);
    const stockBefore = await count(`SELECT quantity FROM listings WHERE id = $1`, [listing]);
    const args = { lines: [{ listing_id: listing, quantity: 1 }], idempotency_key: randomUUID() };
    const order = await concurrently(call, "checkout", args);
    expect(await count(`SELECT count(*) FROM orders WHERE user_id = $1`, [holder.id])).toBe(ordersBefore + 1);
    expect(await count(`SELECT quantity FROM listings WHERE id = $1`, [listing])).toBe(stockBefore - 1);

    const retry = await call("checkout", args);
    expect(retry.structuredContent.data).toEqual(order);
    const other = await call("checkout", { ...args, lines: [{ listing_id: listing, quantity: 2 }] });
    expect(other.structuredContent.error).toMatchObject({ code: "idempotency_key_reused", param: "idempotency_key" });
    expect(await count(`SELECT count(*) FROM orders WHERE user_id = $1`, [holder.id])).toBe(ordersBefore + 1);
  });
});

describe("request_return", () => {
  it(`${CALLS} concurrent calls with one key request one return; a retry answers it`, async () => {
    const { call } = await caller();
    const order = await createTestOrder(app.pool, { userId: holder.id, email: holder.email, status: "delivered", parts: [{ store: "fixture-store-a", lines: [{ quantity: 2 }] }] });
    const args = { order_id: order.number, lines: [{ order_line_id: order.lines[0]!.id, quantity: 1, reason: "damaged" }], idempotency_key: randomUUID() };
    const created = await concurrently(call, "request_return", args);
    expect(await count(`SELECT count(*) FROM returns WHERE order_id = $1`, [order.id])).toBe(1);

    const retry = await call("request_return", args);
    expect(retry.structuredContent.data).toEqual(created);
    const other = await call("request_return", { ...args, lines: [{ ...args.lines[0], quantity: 2 }] });
    expect(other.structuredContent.error).toMatchObject({ code: "idempotency_key_reused", param: "idempotency_key" });
    expect(await count(`SELECT count(*) FROM returns WHERE order_id = $1`, [order.id])).toBe(1);
  });
});
