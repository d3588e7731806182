/**
 * decisions.md "OAuth, agent MCP and buyer API" and "Orders, checkout and returns", at the buyer
 * API /api/v1/buyer: every operation's exact fields and status, the envelope, request id,
 * rate-limit headers, no-store and no CORS; access tokens (every 401, tokens of the other resource,
 * JWTs, revocation on the next request); each scope refused alone with the insufficient_scope
 * challenge and the hierarchy; only the holder's own objects; hostile input; Idempotency-Key;
 * checkout placed by an agent; and the OpenAPI document (valid, linted, every operation served).
 * It writes, so it runs on an app and database of its own.
 */
import { execFile } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUYER_SCOPES, effectiveScopes } from "@/lib/auth/scopes";
import { BUYER_ENDPOINTS } from "@/lib/endpoints/buyer";
import { Order, Return } from "@/lib/schemas/orders";
import {
  ALL_SCOPES,
  allowAgentOrders,
  buyer,
  createHolder,
  createListing,
  setMarketplaceAgentCheckout,
  token,
  type Holder,
} from "../helpers/buyer";
import { expectExactKeys } from "../helpers/http";
import { revokeGrantRecords } from "../helpers/oauth-tokens";
import { createTestOrder } from "../helpers/orders";
import { startIsolatedApp, type IsolatedApp, type SellerResponse } from "../helpers/seller";

const USER_KEYS = ["id", "object", "email", "name"];
const CART_KEYS = ["object", "lines", "subtotal_cents", "currency"];
const CART_LINE_KEYS = ["listing_id", "product_slug", "title", "store_slug", "condition", "quantity", "unit_price_cents", "line_total_cents", "in_stock", "purchasable"];
const ORDER_KEYS = Object.keys(Order.shape);
const ORDER_LINE_KEYS = ["id", "listing_id", "product_slug", "title", "store_slug", "condition", "quantity", "unit_price_cents", "line_total_cents"];
const RETURN_KEYS = Object.keys(Return.shape);

let app: IsolatedApp;
let alice: Holder;
let bob: Holder;
let aliceToken = "";
let bobToken = "";
let listingA = "";
let listingB = "";
let scarce = "";
let inactive = "";

function expectOk(res: SellerResponse, status = 200) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expect(res.headers.get("x-request-id")).toBe(res.json.meta.request_id);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
  expect(res.headers.get("x-ratelimit-limit")).toBe("60");
  expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
  expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
}

function expectError(res: SellerResponse, status: number, type: string, code: string, param?: string) {
  expect(res.status, res.text.slice(0, 500)).toBe(status);
  expectExactKeys(res.json, ["error"], "error envelope");
  expect(res.json.error.type).toBe(type);
  expect(res.json.error.code).toBe(code);
  if (param !== undefined) expect(res.json.error.param).toBe(param);
  expect(res.json.error.request_id).toBe(res.headers.get("x-request-id"));
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
  expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
}

function expectUnauthorized(res: SellerResponse, code = "invalid_token") {
  expectError(res, 401, "authentication_error", code);
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain(`resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/v1/buyer"`);
  if (code === "invalid_token") expect(challenge).toContain('error="invalid_token"');
}

function expectInsufficientScope(res: SellerResponse, scopes: string[]) {
  expectError(res, 403, "permission_error", "scope_missing");
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toContain('Bearer error="insufficient_scope"');
  expect(challenge).toContain(`scope="${scopes.join(" ")}"`);
}

async function cartRows(userId: string) {
  return (await app.pool.query(`SELECT cl.listing_id, cl.quantity FROM cart_lines cl JOIN carts c ON c.id = cl.cart_id WHERE c.user_id = $1 ORDER BY cl.listing_id`, [userId])).rows;
}

async function orderCount(userId: string): Promise<number> {
  return (await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [userId])).rows[0].n;
}

beforeAll(async () => {
  app = await startIsolatedApp("buyer-api");
  alice = await createHolder(app.pool, "alice");
  bob = await createHolder(app.pool, "bob");
  aliceToken = (await token(app, alice.id, ALL_SCOPES)).token;
  bobToken = (await token(app, bob.id, ALL_SCOPES)).token;
  listingA = await createListing(app.pool, 1250);
  listingB = await createListing(app.pool, 999);
  scarce = await createListing(app.pool, 500, 2);
  inactive = await createListing(app.pool, 700, 10, "inactive");
});

afterAll(async () => {
  await app?.stop();
});

describe("GET /me", () => {
  it("answers the holder with exactly { id, object, email, name }, the envelope and the headers", async () => {
    const res = await buyer(app, "GET", "/me", aliceToken, { headers: { Origin: "https://evil.example" } });
    expectOk(res);
    expectExactKeys(res.json, ["data", "meta"], "envelope");
    expectExactKeys(res.json.meta, ["request_id"], "meta");
    expectExactKeys(res.json.data, USER_KEYS, "user");
    expect(res.json.data).toEqual({ id: alice.id, object: "user", email: alice.email, name: "Holder alice" });
  });
});

describe("access tokens: every failure is a 401 with WWW-Authenticate pointing at the resource metadata", () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = () => ({ sub: alice.id, aud: `${app.baseUrl}/api/v1/buyer`, scope: ALL_SCOPES.join(" "), exp: Math.floor(Date.now() / 1000) + 600 });

  it("no header: token_missing", async () => {
    expectUnauthorized(await buyer(app, "GET", "/me", undefined), "token_missing");
  });

  it.each([
    ["Basic", () => `Basic ${Buffer.from("alice:secret").toString("base64")}`],
    ["garbage", () => "Bearer not-a-token-at-all-but-long-enough-%%%"],
    ["two tokens", () => `Bearer ${aliceToken} ${bobToken}`],
    ["an empty Bearer", () => "Bearer "],
    ["an unknown well-formed token", () => `Bearer ${randomUUID().replace(/-/g, "")}${randomUUID().replace(/-/g, "")}`],
    ["an unsigned JWT", () => `Bearer ${b64({ typ: "JWT" })}.${b64(claims())}.`],
    ["an alg=none JWT", () => `Bearer ${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.`],
    [
      "a self-signed JWT",
      () => {
        const body = `${b64({ alg: "HS256", typ: "JWT" })}.${b64(claims())}`;
        return `Bearer ${body}.${createHmac("sha256", "attacker-secret").update(body).digest("base64url")}`;
      },
    ],
  ])("%s: invalid_token", async (_label, header) => {
    expectUnauthorized(await buyer(app, "GET", "/me", undefined, { headers: { Authorization: header() } }));
  });

  it("an expired token: invalid_token", async () => {
    const expired = await token(app, alice.id, ALL_SCOPES, { expiresIn: -30 });
    expectUnauthorized(await buyer(app, "GET", "/me", expired.token));
  });

  it("a token issued for the agent MCP server: invalid_token", async () => {
    const mcp = await token(app, alice.id, ALL_SCOPES, { resource: "agent_mcp" });
    expectUnauthorized(await buyer(app, "GET", "/me", mcp.token));
  });

  it("a revoked grant: the next request is 401 (no cache)", async () => {
    const minted = await token(app, alice.id, ["profile:read"]);
    expectOk(await buyer(app, "GET", "/me", minted.token));
    await revokeGrantRecords(app.pool, minted.grantId);
    expectUnauthorized(await buyer(app, "GET", "/me", minted.token));
  });

  it("a token in the query string is refused, even with a valid header", async () => {
    const res = await buyer(app, "GET", `/me?access_token=${aliceToken}`, aliceToken);
    expectError(res, 400, "invalid_request_error", "token_in_query", "access_token");
    expect(res.headers.get("www-authenticate") ?? "").toContain("resource_metadata=");
  });
});

/** Each operation, a request that reaches it, and the scopes it needs. */
const OPERATIONS: Array<{ label: string; method: string; path: () => string; body?: () => unknown; scopes: string[] }> = [
  { label: "GET /me", method: "GET", path: () => "/me", scopes: ["profile:read"] },
  { label: "GET /cart", method: "GET", path: () => "/cart", scopes: ["cart:read"] },
  { label: "POST /cart/lines", method: "POST", path: () => "/cart/lines", body: () => ({ listing_id: listingA, quantity: 1 }), scopes: ["cart:write"] },
  { label: "PATCH /cart/lines/{id}", method: "PATCH", path: () => `/cart/lines/${listingA}`, body: () => ({ quantity: 2 }), scopes: ["cart:write"] },
  { label: "DELETE /cart/lines/{id}", method: "DELETE", path: () => `/cart/lines/${listingA}`, scopes: ["cart:write"] },
  { label: "GET /orders", method: "GET", path: () => "/orders", scopes: ["orders:read"] },
  { label: "GET /orders/{id}", method: "GET", path: () => `/orders/${randomUUID()}`, scopes: ["orders:read"] },
  {
    label: "POST /orders/{id}/returns",
    method: "POST",
    path: () => `/orders/${randomUUID()}/returns`,
    body: () => ({ lines: [{ order_line_id: randomUUID(), quantity: 1, reason: "other" }] }),
    scopes: ["returns:write"],
  },
  { label: "GET /returns", method: "GET", path: () => "/returns", scopes: ["returns:read"] },
  { label: "GET /returns/{id}", method: "GET", path: () => `/returns/${randomUUID()}`, scopes: ["returns:read"] },
];

describe("scopes: each refused alone with 403 and the insufficient_scope challenge naming every scope needed", () => {
  it.each(OPERATIONS.map((op) => [op.label, op] as const))("%s", async (_label, op) => {
    // Every scope but those that grant the needed one (the hierarchy), so only this one is missing.
    const held = BUYER_SCOPES.filter((s) => !op.scopes.some((needed) => effectiveScopes([s]).has(needed)));
    const minted = await token(app, alice.id, held);
    const before = await cartRows(alice.id);
    const res = await buyer(app, op.method, op.path(), minted.token, op.body ? { body: op.body() } : {});
    expectInsufficientScope(res, op.scopes);
    expect(await cartRows(alice.id)).toEqual(before);
  });

  it("checkout implies cart:write and cart:read; returns:write implies returns:read", async () => {
    const holder = await createHolder(app.pool, "hierarchy");
    const checkout = (await token(app, holder.id, ["checkout"])).token;
    expectOk(await buyer(app, "GET", "/cart", checkout));
    expectOk(await buyer(app, "POST", "/cart/lines", checkout, { body: { listing_id: listingA, quantity: 1 } }));
    expectInsufficientScope(await buyer(app, "GET", "/orders", checkout), ["orders:read"]);
    const returns = (await token(app, holder.id, ["returns:write"])).token;
    expectOk(await buyer(app, "GET", "/returns", returns));
    expectInsufficientScope(await buyer(app, "GET", "/cart", returns), ["cart:read"]);
    const cartWrite = (await token(app, holder.id, ["cart:write"])).token;
    expectOk(await buyer(app, "GET", "/cart", cartWrite));
  });
});

describe("the cart", () => {
  let holder: Holder;
  let tok = "";
  beforeAll(async () => {
    holder = await createHolder(app.pool, "cart");
    tok = (await token(app, holder.id, ["cart:write"])).token;
  });

  it("an account without a cart has an empty one", async () => {
    const res = await buyer(app, "GET", "/cart", tok);
    expectOk(res);
    expectExactKeys(res.json.data, CART_KEYS, "cart");
    expect(res.json.data).toEqual({ object: "cart", lines: [], subtotal_cents: 0, currency: "USD" });
  });

  it("adding, adding again, changing and deleting a line each answer 200 with the cart", async () => {
    let res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA, quantity: 2 } });
    expectOk(res);
    expectExactKeys(res.json.data, CART_KEYS, "cart");
    expect(res.json.data.lines).toHaveLength(1);
    const line = res.json.data.lines[0];
    expectExactKeys(line, CART_LINE_KEYS, "cart line");
    expect(line).toMatchObject({ listing_id: listingA, store_slug: "fixture-store-a", condition: "new", quantity: 2, unit_price_cents: 1250, line_total_cents: 2500, in_stock: true, purchasable: true });
    expect(line.product_slug).toBeTypeOf("string");
    expect(line.title).toBeTypeOf("string");
    expect(res.json.data.subtotal_cents).toBe(2500);

    res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA.toUpperCase(), quantity: 1 } });
    expectOk(res);
    expect(res.json.data.lines.map((l: any) => [l.listing_id, l.quantity])).toEqual([[listingA, 3]]);

    res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingB, quantity: 1 } });
    expect(res.json.data.lines.map((l: any) => l.listing_id)).toEqual([listingA, listingB]);
    expect(res.json.data.subtotal_cents).toBe(3 * 1250 + 999);

    res = await buyer(app, "PATCH", `/cart/lines/${listingA}`, tok, { body: { quantity: 5 } });
    expectOk(res);
    expect(res.json.data.lines[0]).toMatchObject({ listing_id: listingA, quantity: 5, line_total_cents: 6250 });

    res = await buyer(app, "DELETE", `/cart/lines/${listingA}`, tok);
    expectOk(res);
    expect(res.json.data.lines.map((l: any) => l.listing_id)).toEqual([listingB]);
  });

  it("a listing not in the cart is 404 cart_line_not_found (another holder's line included)", async () => {
    await buyer(app, "POST", "/cart/lines", bobToken, { body: { listing_id: scarce, quantity: 1 } });
    for (const id of [scarce, randomUUID(), "not-a-uuid"]) {
      expectError(await buyer(app, "PATCH", `/cart/lines/${id}`, tok, { body: { quantity: 1 } }), 404, "not_found_error", "cart_line_not_found");
      expectError(await buyer(app, "DELETE", `/cart/lines/${id}`, tok), 404, "not_found_error", "cart_line_not_found");
    }
    expect((await cartRows(bob.id)).map((r) => r.listing_id)).toContain(scarce);
  });

  it("an offer that cannot be bought is a 409 and nothing is added; no stock count is revealed", async () => {
    const before = await cartRows(holder.id);
    let res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: inactive, quantity: 1 } });
    expectError(res, 409, "conflict_error", "listing_unavailable", "listing_id");
    res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: randomUUID(), quantity: 1 } });
    expectError(res, 409, "conflict_error", "listing_unavailable", "listing_id");
    res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: scarce, quantity: 3 } });
    expectError(res, 409, "conflict_error", "insufficient_stock", "quantity");
    expect(res.json.error.message).not.toMatch(/\b2\b/);
    expect(await cartRows(holder.id)).toEqual(before);
  });

  it("a quantity above 99 is refused, the sum of two adds is capped at 99 as on the storefront", async () => {
    expectError(await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingB, quantity: 100 } }), 400, "invalid_request_error", "parameter_invalid", "quantity");
    expectError(await buyer(app, "PATCH", `/cart/lines/${listingB}`, tok, { body: { quantity: 0 } }), 400, "invalid_request_error", "parameter_invalid", "quantity");
    const plenty = await createListing(app.pool, 100, 500);
    await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: plenty, quantity: 60 } });
    const res = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: plenty, quantity: 60 } });
    expectOk(res);
    expect(res.json.data.lines.find((l: any) => l.listing_id === plenty).quantity).toBe(99);
    await buyer(app, "DELETE", `/cart/lines/${plenty}`, tok);
  });

  it("Idempotency-Key: a retry replays the first answer and adds nothing", async () => {
    const key = `add-${randomUUID()}`;
    const first = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA, quantity: 1 }, headers: { "Idempotency-Key": key } });
    expectOk(first);
    const again = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA, quantity: 1 }, headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data).toEqual(first.json.data);
    expect(again.json.meta.request_id).toBe(again.headers.get("x-request-id"));
    expect((await cartRows(holder.id)).find((r) => r.listing_id === listingA)?.quantity).toBe(1);
    const other = await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA, quantity: 2 }, headers: { "Idempotency-Key": key } });
    expectError(other, 422, "idempotency_error", "idempotency_key_reused", "Idempotency-Key");
  });
});

describe("hostile input: a 4xx envelope, never a 500, nothing written", () => {
  let holder: Holder;
  let tok = "";
  beforeAll(async () => {
    holder = await createHolder(app.pool, "hostile");
    tok = (await token(app, holder.id, ALL_SCOPES)).token;
    await setMarketplaceAgentCheckout(app.pool, true);
    await allowAgentOrders(app.pool, holder.id);
  });

  const huge = "1" + "0".repeat(400);
  it.each([
    ["a huge quantity", "/cart/lines", `{"listing_id":"${randomUUID()}","quantity":${huge}}`, 400, "quantity"],
    ["a fractional quantity", "/cart/lines", `{"listing_id":"${randomUUID()}","quantity":1.5}`, 400, "quantity"],
    ["a NUL byte in a listing id", "/cart/lines", JSON.stringify({ listing_id: `${randomUUID()}\u0000`, quantity: 1 }), 400, "listing_id"],
    ["an unknown field", "/cart/lines", JSON.stringify({ listing_id: randomUUID(), quantity: 1, price_cents: 1 }), 400, "price_cents"],
    ["10,000 lines at checkout", "/checkout", JSON.stringify({ lines: Array.from({ length: 10_000 }, () => ({ listing_id: randomUUID(), quantity: 1 })) }), 400, "lines"],
    ["a huge expected total", "/checkout", `{"expected_total_cents":${huge}}`, 400, "expected_total_cents"],
    ["a negative expected total", "/checkout", `{"expected_total_cents":-1}`, 400, "expected_total_cents"],
    ["an unknown checkout field", "/checkout", `{"shipping_address":{}}`, 400, "shipping_address"],
    ["a body that is not an object", "/checkout", `[1,2,3]`, 400, undefined],
    ["invalid JSON", "/checkout", `{"lines":`, 400, undefined],
  ])("%s", async (_label, pathName, raw, status, param) => {
    const res = await buyer(app, "POST", pathName, tok, { rawBody: raw, headers: { "Content-Type": "application/json" } });
    expect(res.status, res.text.slice(0, 300)).toBe(status);
    expect(res.json.error.type).toBe("invalid_request_error");
    if (param) expect(res.json.error.param).toBe(param);
    expect(await cartRows(holder.id)).toEqual([]);
    expect(await orderCount(holder.id)).toBe(0);
  });

  it("a body not sent as JSON is 415", async () => {
    const res = await buyer(app, "POST", "/cart/lines", tok, { rawBody: `listing_id=${listingA}&quantity=1`, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expectError(res, 415, "invalid_request_error", "content_type_invalid");
    expect(await cartRows(holder.id)).toEqual([]);
  });

  it("list parameters: limit 0, 101, text, repeated, a forged cursor are 400; unknown ones are ignored", async () => {
    for (const q of ["limit=0", "limit=101", "limit=abc", "limit=1&limit=2"]) {
      expectError(await buyer(app, "GET", `/orders?${q}`, tok), 400, "invalid_request_error", "parameter_invalid", "limit");
    }
    expectError(await buyer(app, "GET", "/returns?cursor=Zm9yZ2Vk", tok), 400, "invalid_request_error", "parameter_invalid", "cursor");
    expectOk(await buyer(app, "GET", "/orders?colour=red", tok));
  });

  it("ids with NUL bytes or 10,000 characters are 404, never 500", async () => {
    for (const id of ["%00", "x".repeat(10_000), "M-99999999999999999999"]) {
      expect((await buyer(app, "GET", `/orders/${id}`, tok)).json.error.code).toBe("order_not_found");
      expect((await buyer(app, "GET", `/returns/${id}`, tok)).json.error.code).toBe("return_not_found");
    }
  });
});

describe("orders and returns: the holder's own, cursor lists", () => {
  let holder: Holder;
  let tok = "";
  const orders: Array<{ id: string; number: string; lines: Array<{ id: string }> }> = [];
  let otherOrder: { id: string; lines: Array<{ id: string }> };
  beforeAll(async () => {
    holder = await createHolder(app.pool, "orders");
    tok = (await token(app, holder.id, ["orders:read", "returns:write"])).token;
    for (let i = 0; i < 3; i++) {
      orders.push(
        await createTestOrder(app.pool, { userId: holder.id, email: holder.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 2 }] }], status: "delivered", createdAt: new Date(Date.now() - (3 - i) * 60_000) }),
      );
    }
    otherOrder = await createTestOrder(app.pool, { userId: bob.id, email: bob.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }], status: "delivered" });
  });

  it("GET /orders pages newest first with { data, next_cursor, meta }", async () => {
    let res = await buyer(app, "GET", "/orders?limit=2", tok);
    expectOk(res);
    expectExactKeys(res.json, ["data", "next_cursor", "meta"], "list envelope");
    expect(res.json.data.map((o: any) => o.id)).toEqual([orders[2]!.id, orders[1]!.id]);
    for (const order of res.json.data) {
      expectExactKeys(order, ORDER_KEYS, "order");
      for (const line of order.lines) expectExactKeys(line, ORDER_LINE_KEYS, "order line");
    }
    expect(res.json.next_cursor).toBeTypeOf("string");
    res = await buyer(app, "GET", `/orders?limit=2&cursor=${res.json.next_cursor}`, tok);
    expect(res.json.data.map((o: any) => o.id)).toEqual([orders[0]!.id]);
    expect(res.json.next_cursor).toBeNull();
  });

  it("GET /orders/{id} by id and by number; another holder's order is 404", async () => {
    const res = await buyer(app, "GET", `/orders/${orders[0]!.id}`, tok);
    expectOk(res);
    expectExactKeys(res.json.data, ORDER_KEYS, "order");
    expect(res.json.data).toMatchObject({ id: orders[0]!.id, object: "order", status: "delivered", placed_via: "storefront" });
    expect((await buyer(app, "GET", `/orders/${orders[0]!.number}`, tok)).json.data.id).toBe(orders[0]!.id);
    expectError(await buyer(app, "GET", `/orders/${otherOrder.id}`, tok), 404, "not_found_error", "order_not_found");
  });

  it("POST /orders/{id}/returns answers 201 with the return; GET /returns and /returns/{id} show it; others' are 404", async () => {
    const order = orders[0]!;
    const body = { lines: [{ order_line_id: order.lines[0]!.id, quantity: 1, reason: "damaged" }] };
    const created = await buyer(app, "POST", `/orders/${order.id}/returns`, tok, { body });
    expectOk(created, 201);
    expectExactKeys(created.json.data, RETURN_KEYS, "return");
    expect(created.json.data).toMatchObject({ object: "return", order_id: order.id, status: "requested", lines: body.lines });

    const list = await buyer(app, "GET", "/returns", tok);
    expectOk(list);
    expectExactKeys(list.json, ["data", "next_cursor", "meta"], "list envelope");
    expect(list.json.data.map((r: any) => r.id)).toEqual([created.json.data.id]);
    const one = await buyer(app, "GET", `/returns/${created.json.data.id}`, tok);
    expectOk(one);
    expect(one.json.data).toEqual(created.json.data);

    expectError(await buyer(app, "GET", `/returns/${created.json.data.id}`, bobToken), 404, "not_found_error", "return_not_found");
    expectError(
      await buyer(app, "POST", `/orders/${otherOrder.id}/returns`, tok, { body: { lines: [{ order_line_id: otherOrder.lines[0]!.id, quantity: 1, reason: "other" }] } }),
      404,
      "not_found_error",
      "order_not_found",
    );
    expectError(await buyer(app, "POST", `/orders/${order.id}/returns`, tok, { body: { lines: [{ order_line_id: order.lines[0]!.id, quantity: 5, reason: "other" }] } }), 400, "invalid_request_error", "parameter_invalid", "lines[0].quantity");
  });
});

describe("POST /checkout: an agent places the order", () => {
  let holder: Holder;
  let tok = "";
  let grantId = "";
  beforeAll(async () => {
    holder = await createHolder(app.pool, "checkout");
    const minted = await token(app, holder.id, ["checkout", "orders:read"]);
    tok = minted.token;
    grantId = minted.grantId;
    await setMarketplaceAgentCheckout(app.pool, true);
    await allowAgentOrders(app.pool, holder.id);
  });

  it("the marketplace switch comes first, then the holder's; the scope comes last, with the challenge", async () => {
    const other = await createHolder(app.pool, "rules");
    const noScope = (await token(app, other.id, ["cart:write"])).token;
    await buyer(app, "POST", "/cart/lines", noScope, { body: { listing_id: listingA, quantity: 1 } });
    await setMarketplaceAgentCheckout(app.pool, false);
    expectError(await buyer(app, "POST", "/checkout", noScope, { body: {} }), 403, "permission_error", "agentic_checkout_disabled");
    await setMarketplaceAgentCheckout(app.pool, true);
    expectError(await buyer(app, "POST", "/checkout", noScope, { body: {} }), 403, "permission_error", "agentic_purchasing_off");
    await allowAgentOrders(app.pool, other.id, 100, 1000);
    expectError(await buyer(app, "POST", "/checkout", noScope, { body: {} }), 403, "permission_error", "per_order_limit_exceeded");
    await allowAgentOrders(app.pool, other.id);
    expectInsufficientScope(await buyer(app, "POST", "/checkout", noScope, { body: {} }), ["checkout"]);
    expect(await orderCount(other.id)).toBe(0);
    expect((await cartRows(other.id)).length).toBe(1);
  });

  it("buys the cart (201, placed_via agent, the cart emptied); an Idempotency-Key replay gives the same one order", async () => {
    await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingA, quantity: 2 } });
    const key = `checkout-${randomUUID()}`;
    const first = await buyer(app, "POST", "/checkout", tok, { body: { expected_total_cents: 2500 }, headers: { "Idempotency-Key": key } });
    expectOk(first, 201);
    expectExactKeys(first.json.data, ORDER_KEYS, "order");
    expect(first.json.data).toMatchObject({ object: "order", status: "placed", placed_via: "agent", subtotal_cents: 2500, total_cents: 2500 });
    expect(first.json.data.lines.map((l: any) => [l.listing_id, l.quantity])).toEqual([[listingA, 2]]);
    expect(await cartRows(holder.id)).toEqual([]);

    const again = await buyer(app, "POST", "/checkout", tok, { body: { expected_total_cents: 2500 }, headers: { "Idempotency-Key": key } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data).toEqual(first.json.data);
    expect(await orderCount(holder.id)).toBe(1);
    const stored = (await app.pool.query(`SELECT agent_grant_id, placed_via::text FROM orders WHERE id = $1`, [first.json.data.id])).rows[0];
    expect(stored).toEqual({ agent_grant_id: grantId, placed_via: "agent" });

    const reused = await buyer(app, "POST", "/checkout", tok, { body: { expected_total_cents: 1 }, headers: { "Idempotency-Key": key } });
    expectError(reused, 422, "idempotency_error", "idempotency_key_reused", "Idempotency-Key");
    expect((await buyer(app, "GET", `/orders/${first.json.data.id}`, tok)).json.data).toEqual(first.json.data);
  });

  it("buy now: explicit lines leave the cart alone; a changed total places nothing", async () => {
    await buyer(app, "POST", "/cart/lines", tok, { body: { listing_id: listingB, quantity: 1 } });
    const changed = await buyer(app, "POST", "/checkout", tok, { body: { lines: [{ listing_id: listingA, quantity: 1 }], expected_total_cents: 1 } });
    expectError(changed, 409, "conflict_error", "total_changed", "expected_total_cents");
    expect(changed.json.error.total_cents).toBe(1250);
    const count = await orderCount(holder.id);
    const placed = await buyer(app, "POST", "/checkout", tok, { body: { lines: [{ listing_id: listingA, quantity: 1 }] } });
    expectOk(placed, 201);
    expect(placed.json.data.lines.map((l: any) => l.listing_id)).toEqual([listingA]);
    expect(await orderCount(holder.id)).toBe(count + 1);
    expect((await cartRows(holder.id)).map((r) => r.listing_id)).toEqual([listingB]);
  });

  it("an empty cart is 400 cart_empty; a holder without an address or card gets 400", async () => {
    const empty = await createHolder(app.pool, "empty");
    await allowAgentOrders(app.pool, empty.id);
    expectError(await buyer(app, "POST", "/checkout", (await token(app, empty.id, ["checkout"])).token, { body: {} }), 400, "invalid_request_error", "cart_empty");
    const bare = await createHolder(app.pool, "bare", false);
    await allowAgentOrders(app.pool, bare.id);
    const res = await buyer(app, "POST", "/checkout", (await token(app, bare.id, ["checkout"])).token, { body: { lines: [{ listing_id: listingA, quantity: 1 }] } });
    expectError(res, 400, "invalid_request_error", "shipping_address_missing");
  });
});

describe("fallbacks of the buyer API: 404 and 405 envelopes without CORS", () => {
  it("an unknown path and the base path are 404 route_not_found", async () => {
    for (const p of ["/nope", "", "/orders/x/y/z"]) expectError(await buyer(app, "GET", p, aliceToken), 404, "not_found_error", "route_not_found");
  });

  it("another method is 405 with Allow", async () => {
    const res = await buyer(app, "DELETE", "/me", aliceToken);
    expectError(res, 405, "method_not_allowed_error", "method_not_allowed");
    expect(res.headers.get("allow")).toBe("GET, OPTIONS");
    const preflight = await buyer(app, "OPTIONS", "/cart", undefined, { headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("GET /api/v1/buyer/openapi.json", () => {
  let doc: any;
  beforeAll(async () => {
    const res = await buyer(app, "GET", "/openapi.json", undefined);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    doc = res.json;
  });

  it("is OpenAPI 3.1, version 1.0.0, server /api/v1/buyer, with an oauth2 authorization-code scheme and the seven scopes", () => {
    expect(String(doc.openapi)).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.servers).toEqual([{ url: "/api/v1/buyer" }]);
    const scheme = doc.components.securitySchemes.oauth2;
    expect(scheme.type).toBe("oauth2");
    expect(scheme.flows.authorizationCode).toMatchObject({ authorizationUrl: "/oauth/authorize", tokenUrl: "/oauth/token" });
    expect(Object.keys(scheme.flows.authorizationCode.scopes).sort()).toEqual([...BUYER_SCOPES].sort());
    for (const words of Object.values(scheme.flows.authorizationCode.scopes)) expect(words).toMatch(/^[A-Z].+\.$/);
    for (const needle of ["Authorization: Bearer <token>", "insufficient_scope", "implies", "Idempotency-Key", "Idempotent-Replayed: true", "next_cursor", "60 requests at once, refilled at 10 per second", "/account/agents", "consent page"]) {
      expect(doc.info.description, needle).toContain(needle);
    }
  });

  it("documents every operation with its scopes; checkout lists checkout", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual([...BUYER_ENDPOINTS.map((e) => `${e.method} ${e.path}`), "GET /openapi.json"].sort());
    for (const endpoint of BUYER_ENDPOINTS) {
      const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      expect(op.security).toEqual(endpoint.access.security);
      expect(op.security[0].oauth2.length, endpoint.operationId).toBeGreaterThan(0);
    }
    expect(doc.paths["/checkout"].post.security).toEqual([{ oauth2: ["checkout"] }]);
    expect(doc.paths["/cart/lines"].post.parameters.some((p: any) => p.name === "Idempotency-Key")).toBe(true);
  });

  it("every documented operation is served (401 without a token, not 404)", async () => {
    for (const endpoint of BUYER_ENDPOINTS) {
      const p = endpoint.path.replace(/\{[^}]+\}/g, randomUUID());
      const res = await buyer(app, endpoint.method, p, undefined, endpoint.body ? { body: {} } : {});
      expect(res.status, `${endpoint.method} ${p}`).toBe(401);
    }
  });

  it("validates against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes `redocly lint --extends=minimal` with no warnings", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "buyer-openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    try {
      await writeFile(file, JSON.stringify(doc, null, 2));
      const result = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          "npx",
          ["redocly", "lint", "--extends=minimal", file],
          { cwd: process.cwd(), timeout: 60_000, env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" }, maxBuffer: 10 * 1024 * 1024 },
          (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: `${stdout}\n${stderr}` }),
        );
      });
      expect(result.code, result.out).toBe(0);
      expect(result.out, "redocly warnings").not.toMatch(/You have \d+ warnings?/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
