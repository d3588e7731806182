/**
 * decisions.md "OAuth, agent MCP and buyer API", at the agent MCP server /api/agent/mcp: with the
 * official MCP client and a minted access token, tools/list has the catalog tools and the holder's;
 * each holder tool's structured content equals the buyer API's body for the same input (request
 * ids aside); a call whose scope the token lacks is an HTTP 403 with the insufficient_scope
 * challenge (the domain's last checkout rule included), not a tool error; no token, a token of
 * the buyer API, or a JWT is a 401 with WWW-Authenticate; GET is 405; no CORS.
 * It writes, so it runs on an app and database of its own.
 */
import { randomUUID } from "node:crypto";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { expectExactKeys, randomClientIp } from "../helpers/http";
import { initialize, toolCall, withoutRequestId, type ToolCallResult } from "../helpers/mcp";
import { revokeGrantRecords } from "../helpers/oauth-tokens";
import { createTestOrder } from "../helpers/orders";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const AGENT_MCP = "/api/agent/mcp";
const CATALOG_TOOLS = ["search_products", "get_product", "get_categories", "create_cart_link", "search_help", "get_help_article", "get_connection_guide"];
const HOLDER_TOOLS = ["get_profile", "get_cart", "add_to_cart", "update_cart_line", "remove_cart_line", "checkout", "list_orders", "get_order", "request_return", "list_returns"];
/** The MCP Apps views' app-only tools (`_meta.ui.visibility: ["app"]`). */
const VIEW_TOOLS = ["view_add_to_cart", "view_set_quantity", "view_checkout_summary"];
/** The view each tool links (`_meta.ui.resourceUri`). */
const VIEW_LINKS: Record<string, string> = {
  search_products: "ui://marketplace/products.html",
  get_product: "ui://marketplace/products.html",
  get_cart: "ui://marketplace/cart.html",
  add_to_cart: "ui://marketplace/cart.html",
  update_cart_line: "ui://marketplace/cart.html",
  remove_cart_line: "ui://marketplace/cart.html",
  checkout: "ui://marketplace/checkout.html",
};

let app: IsolatedApp;
let holder: Holder;
let mcpToken = "";
let apiToken = "";
let listingA = "";
let listingB = "";

interface Session {
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolCallResult>;
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: any; outputSchema?: any }> }>;
  close(): Promise<void>;
}

/** The official 2.x client, sending `accessToken` as Bearer on every request. */
async function connect(accessToken: string, era: "2025" | "2026" = "2026"): Promise<Session> {
  const client = new Client({ name: "agent-mcp-tests", version: "1.0.0" }, era === "2026" ? { versionNegotiation: { mode: "auto" } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(app.baseUrl + AGENT_MCP), {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer ${accessToken}`);
      headers.set("X-Forwarded-For", randomClientIp());
      return fetch(input, { ...init, headers });
    },
  });
  await client.connect(transport);
  return {
    callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolCallResult,
    listTools: () => client.listTools() as never,
    close: () => client.close(),
  };
}

/** One raw JSON-RPC POST to the agent server. */
async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(app.baseUrl + AGENT_MCP, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": randomClientIp(), ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

function structured(result: ToolCallResult): any {
  expect(result.isError ?? false, JSON.stringify(result.structuredContent)).toBe(false);
  expect(result.content[0]?.type).toBe("text");
  expect(result.content[0]?.text?.length).toBeGreaterThan(0);
  return result.structuredContent;
}

function expectChallenge(res: { status: number; headers: Headers; json: any }, scopes: string[]) {
  expect(res.status).toBe(403);
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toContain('Bearer error="insufficient_scope"');
  expect(challenge).toContain(`scope="${scopes.join(" ")}"`);
  expect(challenge).toContain(`resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/agent/mcp"`);
  expect(res.json.error.code).toBe("scope_missing");
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
}

beforeAll(async () => {
  app = await startIsolatedApp("agent-mcp");
  holder = await createHolder(app.pool, "mcp");
  mcpToken = (await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" })).token;
  apiToken = (await token(app, holder.id, ALL_SCOPES)).token;
  listingA = await createListing(app.pool, 1500);
  listingB = await createListing(app.pool, 250);
  await setMarketplaceAgentCheckout(app.pool, true);
  await allowAgentOrders(app.pool, holder.id);
});

afterAll(async () => {
  await app?.stop();
});

describe("tools/list", () => {
  it.each(["2026", "2025"] as const)("lists the catalog tools and every holder tool to any token (%s client)", async (era) => {
    const session = await connect((await token(app, holder.id, ["profile:read"], { resource: "agent_mcp" })).token, era);
    try {
      const { tools } = await session.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...CATALOG_TOOLS, ...HOLDER_TOOLS, ...VIEW_TOOLS].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type, tool.name).toBe("object");
        expect(tool.outputSchema?.type, tool.name).toBe("object");
        const ui = (tool as { _meta?: { ui?: { resourceUri?: string; visibility?: string[] } } })._meta?.ui;
        expect(ui?.resourceUri, `${tool.name} links its view`).toBe(VIEW_LINKS[tool.name]);
        expect(ui?.visibility, `${tool.name} is app-only, or for the model and views`).toEqual(VIEW_TOOLS.includes(tool.name) ? ["app"] : undefined);
      }
    } finally {
      await session.close();
    }
  });
});

describe("each holder tool's structured content equals the buyer API's body for the same input", () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(mcpToken);
  });
  afterAll(async () => {
    await session?.close();
  });

  const same = (tool: any, api: { json: any }) => expect(withoutRequestId(tool)).toEqual(withoutRequestId(api.json));

  it("get_profile and get_cart", async () => {
    const profile = structured(await session.callTool("get_profile"));
    expectExactKeys(profile, ["data", "meta"], "structured content");
    same(profile, await buyer(app, "GET", "/me", apiToken));
    same(structured(await session.callTool("get_cart")), await buyer(app, "GET", "/cart", apiToken));
  });

  it("add_to_cart, update_cart_line, remove_cart_line (each undone and redone through the API)", async () => {
    const added = structured(await session.callTool("add_to_cart", { listing_id: listingA, quantity: 2 }));
    await buyer(app, "DELETE", `/cart/lines/${listingA}`, apiToken);
    same(added, await buyer(app, "POST", "/cart/lines", apiToken, { body: { listing_id: listingA, quantity: 2 } }));

    const updated = structured(await session.callTool("update_cart_line", { listing_id: listingA, quantity: 3 }));
    same(updated, await buyer(app, "PATCH", `/cart/lines/${listingA}`, apiToken, { body: { quantity: 3 } }));

    await session.callTool("add_to_cart", { listing_id: listingB, quantity: 1 });
    const removed = structured(await session.callTool("remove_cart_line", { listing_id: listingB }));
    await buyer(app, "POST", "/cart/lines", apiToken, { body: { listing_id: listingB, quantity: 1 } });
    same(removed, await buyer(app, "DELETE", `/cart/lines/${listingB}`, apiToken));
  });

  it("a refused call is a tool error carrying the API's error envelope", async () => {
    const missing = await session.callTool("remove_cart_line", { listing_id: randomUUID() });
    expect(missing.isError).toBe(true);
    const api = await buyer(app, "DELETE", `/cart/lines/${randomUUID()}`, apiToken);
    expect({ ...missing.structuredContent.error, message: "", request_id: "" }).toEqual({ ...api.json.error, message: "", request_id: "" });
    const bad = await session.callTool("add_to_cart", { listing_id: listingA, quantity: 0, colour: "red" });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid" });
  });

  it("list_orders, get_order, request_return, list_returns", async () => {
    const orders = [];
    for (let i = 0; i < 2; i++) {
      orders.push(
        await createTestOrder(app.pool, { userId: holder.id, email: holder.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 2 }] }], status: "delivered", createdAt: new Date(Date.now() - (5 - i) * 60_000) }),
      );
    }
    const list = structured(await session.callTool("list_orders", { limit: 1 }));
    expectExactKeys(list, ["data", "next_cursor", "meta"], "list");
    same(list, await buyer(app, "GET", "/orders?limit=1", apiToken));
    same(structured(await session.callTool("list_orders", { limit: 1, cursor: list.next_cursor })), await buyer(app, "GET", `/orders?limit=1&cursor=${list.next_cursor}`, apiToken));
    same(structured(await session.callTool("get_order", { order_id: orders[0]!.id })), await buyer(app, "GET", `/orders/${orders[0]!.id}`, apiToken));

    const ret = structured(await session.callTool("request_return", { order_id: orders[0]!.id, lines: [{ order_line_id: orders[0]!.lines[0]!.id, quantity: 1, reason: "wrong_item" }] }));
    same(ret, await buyer(app, "GET", `/returns/${ret.data.id}`, apiToken));
    const apiReturn = await buyer(app, "POST", `/orders/${orders[1]!.id}/returns`, apiToken, { body: { lines: [{ order_line_id: orders[1]!.lines[0]!.id, quantity: 1, reason: "wrong_item" }] } });
    expect(apiReturn.status).toBe(201);
    expect(Object.keys(ret.data).sort()).toEqual(Object.keys(apiReturn.json.data).sort());
    same(structured(await session.callTool("list_returns", {})), await buyer(app, "GET", "/returns", apiToken));
    const bad = await session.callTool("list_orders", { limit: 101 });
    expect(bad.structuredContent.error).toMatchObject({ code: "parameter_invalid", param: "limit" });
  });

  it("checkout places an agent order shaped as the API's; the same idempotency_key never orders twice", async () => {
    const key = randomUUID();
    const placed = structured(await session.callTool("checkout", { lines: [{ listing_id: listingB, quantity: 1 }], idempotency_key: key }));
    same(placed, await buyer(app, "GET", `/orders/${placed.data.id}`, apiToken));
    expect(placed.data.placed_via).toBe("agent");
    const again = structured(await session.callTool("checkout", { lines: [{ listing_id: listingB, quantity: 1 }], idempotency_key: key }));
    expect(again.data.id).toBe(placed.data.id);
    const api = await buyer(app, "POST", "/checkout", apiToken, { body: { lines: [{ listing_id: listingB, quantity: 1 }] } });
    expect(api.status).toBe(201);
    expect(Object.keys(placed.data).sort()).toEqual(Object.keys(api.json.data).sort());
  });
});

describe("scopes: a call whose scope the token lacks is an HTTP 403 with the challenge, not a tool error", () => {
  it.each([
    ["get_profile", {}, ["profile:read"]],
    ["get_cart", {}, ["cart:read"]],
    ["add_to_cart", { listing_id: randomUUID(), quantity: 1 }, ["cart:write"]],
    ["list_orders", {}, ["orders:read"]],
    ["request_return", { order_id: randomUUID(), lines: [] }, ["returns:write"]],
    ["list_returns", {}, ["returns:read"]],
  ])("%s", async (name, args, scopes) => {
    const minted = await token(app, holder.id, ["profile:read", "orders:read"].filter((s) => !scopes.includes(s)).concat(name === "get_profile" ? ["cart:read"] : []), {
      resource: "agent_mcp",
    });
    const res = await rpc(toolCall(name, args), { Authorization: `Bearer ${minted.token}` });
    expectChallenge(res, scopes);
  });

  it("catalog tools need no scope", async () => {
    const minted = await token(app, holder.id, [], { resource: "agent_mcp" });
    const res = await rpc(toolCall("get_categories", {}), { Authorization: `Bearer ${minted.token}` });
    expect(res.status).toBe(200);
  });

  it("checkout without the checkout scope is refused last (after the holder's rules) as an HTTP 403, and places nothing", async () => {
    const minted = await token(app, holder.id, ["cart:write", "orders:read"], { resource: "agent_mcp" });
    const before = (await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [holder.id])).rows[0].n;
    const res = await rpc(toolCall("checkout", { lines: [{ listing_id: listingA, quantity: 1 }] }), { Authorization: `Bearer ${minted.token}` });
    expectChallenge(res, ["checkout"]);
    expect((await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [holder.id])).rows[0].n).toBe(before);

    await setMarketplaceAgentCheckout(app.pool, false);
    try {
      const off = await rpc(toolCall("checkout", { lines: [{ listing_id: listingA, quantity: 1 }] }), { Authorization: `Bearer ${minted.token}` });
      expect(off.status).toBe(200);
      const message = off.json ?? JSON.parse(off.text.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
      expect(message.result.isError).toBe(true);
      expect(message.result.structuredContent.error.code).toBe("agentic_checkout_disabled");
    } finally {
      await setMarketplaceAgentCheckout(app.pool, true);
    }
  });
});

describe("authentication: 401 with WWW-Authenticate pointing at the agent server's resource metadata", () => {
  const metadata = () => `resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/agent/mcp"`;

  it.each([
    ["no token", () => ({})],
    ["a buyer API token", () => ({ Authorization: `Bearer ${apiToken}` })],
    ["garbage", () => ({ Authorization: "Bearer garbage" })],
    ["an alg=none JWT", () => ({ Authorization: `Bearer ${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from("{}").toString("base64url")}.` })],
    ["Basic", () => ({ Authorization: "Basic YTpi" })],
  ])("%s", async (_label, headers) => {
    const res = await rpc(initialize(), headers());
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate") ?? "").toContain(metadata());
    expect(res.json.error.type).toBe("authentication_error");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("a revoked grant is refused on the next request", async () => {
    const minted = await token(app, holder.id, ["profile:read"], { resource: "agent_mcp" });
    expect((await rpc(toolCall("get_profile", {}), { Authorization: `Bearer ${minted.token}` })).status).toBe(200);
    await revokeGrantRecords(app.pool, minted.grantId);
    expect((await rpc(toolCall("get_profile", {}), { Authorization: `Bearer ${minted.token}` })).status).toBe(401);
  });

  it("a valid answer carries the request id, the grant's rate-limit headers and no CORS or cookie", async () => {
    const res = await rpc(toolCall("get_profile", {}), { Authorization: `Bearer ${mcpToken}`, Origin: "https://evil.example" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("set-cookie")).toBeNull();
  });
});

describe("methods", () => {
  it("GET is 405 with Allow: POST, without a token too", async () => {
    const res = await fetch(app.baseUrl + AGENT_MCP, { headers: { Accept: "text/event-stream", "X-Forwarded-For": randomClientIp(), Authorization: `Bearer ${mcpToken}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect((await res.json()).error.code).toBe("method_not_allowed");
  });

  it("paths beside the endpoint are 404", async () => {
    const res = await fetch(`${app.baseUrl}/api/agent/other`, { headers: { "X-Forwarded-For": randomClientIp() } });
    expect(res.status).toBe(404);
  });
});
