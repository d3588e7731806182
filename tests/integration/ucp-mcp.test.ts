/**
 * UCP's MCP binding (checkout-mcp.md and mcp.openrpc.json, 2026-01-11) at /api/ucp/mcp, with the
 * official MCP client: the five checkout tools; a two-store checkout created, updated and
 * completed into two orders; a decline that places nothing; idempotency replay and conflict;
 * errors as JSON-RPC errors carrying UCP's error object in `data` (bad arguments -32602, never an
 * internal error); identity linking with a token issued for the UCP endpoint; the business
 * profile naming the endpoint. Every checkout validates against the pinned @ucp-js/sdk schemas.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowAgentOrders, createHolder, setMarketplaceAgentCheckout } from "../helpers/buyer";
import { randomClientIp } from "../helpers/http";
import { mintAccessToken } from "../helpers/oauth-tokens";
import { ADDRESS, DECLINED_CARD, expectCheckout, expectProfile, GOOD_CARD, PLATFORM_PROFILE, total, UcpHarness, UCP_VERSION } from "../helpers/ucp";

const TOOLS = ["create_checkout", "get_checkout", "update_checkout", "complete_checkout", "cancel_checkout"];
const META = { ucp: { profile: PLATFORM_PROFILE } };
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

let ucp: UcpHarness;
let client: Client;

const endpoint = () => `${ucp.app.baseUrl}/api/ucp/mcp`;

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: "ucp-mcp-tests", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint()), {
    fetch: (input, init) => {
      const h = new Headers(init?.headers);
      h.set("X-Forwarded-For", randomClientIp());
      for (const [name, value] of Object.entries(headers)) h.set(name, value);
      return fetch(input, { ...init, headers: h });
    },
  });
  await c.connect(transport);
  return c;
}

interface Failure {
  code: number;
  message: string;
  data: { status: string; code: string; detail: string; messages: Array<{ type: string; code: string; content: string; severity: string; path?: string }> };
}

/** A tool call: the checkout it answers (checked against the SDK's schema), or its JSON-RPC error. */
async function call(name: string, args: Record<string, unknown>, options: { meta?: unknown; via?: Client } = {}): Promise<{ checkout?: any; error?: Failure }> {
  try {
    const result = await (options.via ?? client).callTool({ name, arguments: args, _meta: (options.meta ?? META) as never });
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expectCheckout(result.structuredContent);
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toEqual(result.structuredContent);
    return { checkout: result.structuredContent };
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return { error: { code: err.code, message: err.message, data: err.data as Failure["data"] } };
  }
}

async function ok(name: string, args: Record<string, unknown>, options?: Parameters<typeof call>[2]): Promise<any> {
  const { checkout, error } = await call(name, args, options);
  expect(error, JSON.stringify(error)).toBeUndefined();
  return checkout;
}

/** A JSON-RPC error with UCP's error object in `data`: exactly status, code, detail and messages. */
async function refused(name: string, args: Record<string, unknown>, rpcCode: number, ucpCode: string, path?: string, options?: Parameters<typeof call>[2]): Promise<Failure> {
  const { checkout, error } = await call(name, args, options);
  expect(checkout, JSON.stringify(checkout)).toBeUndefined();
  expect(error!.code, JSON.stringify(error)).toBe(rpcCode);
  expect(Object.keys(error!.data).sort()).toEqual(["code", "detail", "messages", "status"]);
  expect(error!.data.status).toBe("error");
  expect(error!.data.code, JSON.stringify(error!.data)).toBe(ucpCode);
  expect(error!.message).toContain(error!.data.detail);
  for (const m of error!.data.messages) {
    expect(m.type).toBe("error");
    expect(["recoverable", "requires_buyer_input", "requires_buyer_review"]).toContain(m.severity);
  }
  if (path !== undefined) expect(error!.data.messages[0]!.path, JSON.stringify(error!.data)).toBe(path);
  return error!;
}

const lineItems = (...items: Array<{ id: string; quantity?: number }>) => items.map((i) => ({ item: { id: i.id }, quantity: i.quantity ?? 1 }));
const buyer = () => ({ email: `mcp-${randomUUID().slice(0, 8)}@example.com`, first_name: "Ada", last_name: "Lovelace" });
const shipping = { methods: [{ type: "shipping", destinations: [{ id: "home", ...ADDRESS }], selected_destination_id: "home", groups: [{ selected_option_id: "standard" }] }] };
const payment = (number: string) => ({
  selected_instrument_id: "card-1",
  instruments: [{ id: "card-1", handler_id: "test_card", type: "card", brand: "visa", last_digits: number.slice(-4), credential: { type: "card", card_number_type: "fpan", number } }],
});

/** A checkout of the first fixture item, shipped and ready to complete. */
async function readyCheckout(): Promise<any> {
  const checkout = await ok("create_checkout", { checkout: { currency: "USD", buyer: buyer(), line_items: lineItems(ucp.fixtures.item), fulfillment: shipping } });
  expect(checkout.status).toBe("ready_for_complete");
  return checkout;
}

async function ordersOf(checkoutId: string): Promise<number> {
  return (await ucp.app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = $1`, [checkoutId])).rows[0].n;
}

beforeAll(async () => {
  ucp = await UcpHarness.start("ucp-mcp");
  client = await connect();
});
afterAll(async () => {
  await client?.close();
  await ucp?.stop();
});

describe("discovery", () => {
  it("the business profile names the MCP endpoint and the binding's OpenRPC document", async () => {
    const res = await ucp.request("GET", "/.well-known/ucp", undefined, {});
    expect(res.status).toBe(200);
    expectProfile(res.json);
    expect(res.json.ucp.services["dev.ucp.shopping"].mcp).toEqual({ schema: "https://ucp.dev/services/shopping/mcp.openrpc.json", endpoint: endpoint() });
  });

  it("tools/list has the binding's five tools, their arguments as the OpenRPC methods' params", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema as any;
    const shape = (name: string) => [Object.keys(schema(name).properties).sort(), [...(schema(name).required ?? [])].sort(), schema(name).additionalProperties];
    expect(shape("create_checkout")).toEqual([["_meta", "checkout", "idempotency_key"], ["checkout"], false]);
    expect(shape("get_checkout")).toEqual([["_meta", "id"], ["id"], false]);
    expect(shape("update_checkout")).toEqual([["_meta", "checkout", "id"], ["checkout", "id"], false]);
    expect(shape("complete_checkout")).toEqual([["_meta", "id", "idempotency_key", "payment"], ["id", "idempotency_key"], false]);
    expect(shape("cancel_checkout")).toEqual([["_meta", "id", "idempotency_key"], ["id", "idempotency_key"], false]);
  });

  it("docs/agents.md's tools/call example creates a checkout", async () => {
    const section = readFileSync("docs/agents.md", "utf8").split("### UCP over MCP")[1]!;
    const example = /```json\n([\s\S]*?)```/.exec(section)![1]!.replace("<listing id>", ucp.fixtures.item.id).replace(/"idempotency_key": "[^"]+"/, `"idempotency_key": "${randomUUID()}"`);
    const res = await fetch(endpoint(), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": randomClientIp() },
      body: example,
    });
    const text = await res.text();
    const message = JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) ?? text);
    expectCheckout(message.result.structuredContent);
    expect(message.result.structuredContent.status).toBe("incomplete");
  });

  it("GET answers 405 with Allow: POST, in UCP's error shape", async () => {
    const res = await fetch(endpoint(), { headers: { Accept: "text/event-stream", "X-Forwarded-For": randomClientIp() } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(Object.keys(await res.json()).sort()).toEqual(["code", "detail", "messages", "status"]);
  });
});

describe("a two-store checkout over MCP", () => {
  it("is created, updated with a destination and the option, completed with the test card into two orders adding up to its total", async () => {
    const { item, second } = ucp.fixtures;
    const created = await ok("create_checkout", { checkout: { currency: "USD", buyer: buyer(), line_items: lineItems(item, { id: second.id, quantity: 2 }) }, idempotency_key: randomUUID() });
    expect(created.status).toBe("incomplete");
    expect(created.ucp.version).toBe(UCP_VERSION);
    expect(created.line_items.map((l: any) => [l.item.id, l.quantity])).toEqual([
      [item.id, 1],
      [second.id, 2],
    ]);

    // The same checkout over REST is the same object.
    const got = await ok("get_checkout", { id: created.id });
    expect(got).toEqual((await ucp.request("GET", `/checkout-sessions/${created.id}`)).json);

    const addressed = await ok("update_checkout", {
      id: created.id,
      checkout: { currency: "USD", line_items: lineItems(item, { id: second.id, quantity: 2 }), fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "home", ...ADDRESS }], selected_destination_id: "home" }] } },
    });
    const option = addressed.fulfillment.methods[0].groups[0].options[0].id;
    const ready = await ok("update_checkout", {
      id: created.id,
      checkout: { currency: "USD", line_items: lineItems(item, { id: second.id, quantity: 2 }), fulfillment: { methods: [{ type: "shipping", groups: [{ selected_option_id: option }] }] } },
    });
    expect(ready.status).toBe("ready_for_complete");
    expect(total(ready.totals, "total")).toBe(item.price + 2 * second.price + (total(ready.totals, "fulfillment") ?? 0));

    const done = await ok("complete_checkout", { id: created.id, payment: payment(GOOD_CARD), idempotency_key: randomUUID() });
    expect(done.status).toBe("completed");
    expect(done.orders).toHaveLength(2);
    expect(done.order).toEqual(done.orders[0]);
    const orders = await Promise.all(done.orders.map((o: { id: string }) => ucp.order(o.id)));
    expect(orders.reduce((sum, o) => sum + total(o.totals, "total")!, 0)).toBe(total(done.totals, "total"));
    expect(await ordersOf(created.id)).toBe(2);
    expect(JSON.stringify(done)).not.toContain(GOOD_CARD);
  });

  it("a declined card places nothing and leaves the checkout open", async () => {
    const checkout = await readyCheckout();
    const error = await refused("complete_checkout", { id: checkout.id, payment: payment(DECLINED_CARD), idempotency_key: randomUUID() }, INTERNAL_ERROR, "payment_declined");
    expect(JSON.stringify(error)).not.toContain(DECLINED_CARD);
    expect(await ordersOf(checkout.id)).toBe(0);
    expect((await ok("get_checkout", { id: checkout.id })).status).toBe("ready_for_complete");
  });

  it("cancel_checkout cancels; a canceled checkout cannot be completed", async () => {
    const checkout = await readyCheckout();
    expect((await ok("cancel_checkout", { id: checkout.id, idempotency_key: randomUUID() })).status).toBe("canceled");
    await refused("complete_checkout", { id: checkout.id, payment: payment(GOOD_CARD), idempotency_key: randomUUID() }, INTERNAL_ERROR, "checkout_not_modifiable");
  });
});

describe("idempotency_key", () => {
  it("a retry with the key answers the first result and places nothing again", async () => {
    const checkout = await readyCheckout();
    const args = { id: checkout.id, payment: payment(GOOD_CARD), idempotency_key: randomUUID() };
    const first = await ok("complete_checkout", args);
    const again = await ok("complete_checkout", args);
    expect(again).toEqual(first);
    expect(await ordersOf(checkout.id)).toBe(1);

    const create = { checkout: { currency: "USD", buyer: buyer(), line_items: lineItems(ucp.fixtures.item) }, idempotency_key: randomUUID() };
    expect((await ok("create_checkout", create)).id).toBe((await ok("create_checkout", create)).id);
  });

  it("the key with other arguments is refused (idempotency_conflict) and changes nothing", async () => {
    const checkout = await readyCheckout();
    const key = randomUUID();
    await ok("cancel_checkout", { id: checkout.id, idempotency_key: key });
    const other = await readyCheckout();
    await refused("cancel_checkout", { id: other.id, idempotency_key: key }, INTERNAL_ERROR, "idempotency_conflict");
    await refused("complete_checkout", { id: other.id, payment: payment(GOOD_CARD), idempotency_key: key }, INTERNAL_ERROR, "idempotency_conflict");
    expect((await ok("get_checkout", { id: other.id })).status).toBe("ready_for_complete");
  });

  it("keys are kept per platform: another profile's key is its own", async () => {
    const key = randomUUID();
    const one = await readyCheckout();
    const two = await readyCheckout();
    await ok("cancel_checkout", { id: one.id, idempotency_key: key });
    const other = { ucp: { profile: "https://other-platform.example/profile" } };
    expect((await ok("cancel_checkout", { id: two.id, idempotency_key: key }, { meta: other })).status).toBe("canceled");
  });
});

describe("errors", () => {
  it("an unknown checkout id is not_found (-32602), for every tool that takes one", async () => {
    for (const id of [randomUUID(), "chk_nope"]) {
      await refused("get_checkout", { id }, INVALID_PARAMS, "not_found");
      await refused("update_checkout", { id, checkout: { currency: "USD", line_items: lineItems(ucp.fixtures.item) } }, INVALID_PARAMS, "not_found");
      await refused("complete_checkout", { id, payment: payment(GOOD_CARD), idempotency_key: randomUUID() }, INVALID_PARAMS, "not_found");
      await refused("cancel_checkout", { id, idempotency_key: randomUUID() }, INVALID_PARAMS, "not_found");
    }
  });

  it("malformed arguments are Invalid params (-32602) naming the argument, never an internal error", async () => {
    const item = ucp.fixtures.item;
    const line = lineItems(item);
    await refused("create_checkout", {}, INVALID_PARAMS, "missing", "$.checkout");
    await refused("create_checkout", { checkout: { currency: "USD", line_items: [{ item: { id: item.id }, quantity: "1" }] } }, INVALID_PARAMS, "invalid", "$.checkout.line_items[0].quantity");
    await refused("create_checkout", { checkout: { currency: "USD" } }, INVALID_PARAMS, "missing", "$.checkout.line_items");
    // The fields spread beside the arguments (as checkout-mcp.md's examples show them) are told where they go.
    expect((await refused("create_checkout", { line_items: line, currency: "USD" }, INVALID_PARAMS, "missing", "$.checkout")).data.detail).toContain("go in the checkout argument");
    await refused("create_checkout", { checkout: { currency: "USD", line_items: line }, idempotency_key: "not-a-uuid" }, INVALID_PARAMS, "invalid", "$.idempotency_key");
    await refused("create_checkout", { checkout: { currency: "EUR", line_items: line } }, INVALID_PARAMS, "invalid", "$.checkout.currency");
    await refused("create_checkout", { checkout: { currency: "USD", line_items: lineItems(ucp.fixtures.nonExistent) } }, INVALID_PARAMS, "not_found", "$.checkout.line_items[0].item.id");
    await refused("get_checkout", {}, INVALID_PARAMS, "missing", "$.id");
    await refused("get_checkout", { id: 42 }, INVALID_PARAMS, "invalid", "$.id");

    const checkout = await readyCheckout();
    // "The checkout object in the request payload MUST NOT contain an id field."
    await refused("update_checkout", { id: checkout.id, checkout: { id: checkout.id, currency: "USD", line_items: line } }, INVALID_PARAMS, "invalid", "$.checkout.id");
    await refused("complete_checkout", { id: checkout.id, payment: payment(GOOD_CARD) }, INVALID_PARAMS, "missing", "$.idempotency_key");
    await refused("complete_checkout", { id: checkout.id, idempotency_key: randomUUID() }, INVALID_PARAMS, "missing", "$.payment.instruments");
    await refused("complete_checkout", { id: checkout.id, payment: { ...payment(GOOD_CARD), selected_instrument_id: "card-9" }, idempotency_key: randomUUID() }, INVALID_PARAMS, "invalid", "$.payment.selected_instrument_id");
    const noCredential = { instruments: [{ id: "card-1", handler_id: "test_card", type: "card", brand: "visa", last_digits: "4242" }] };
    await refused("complete_checkout", { id: checkout.id, payment: noCredential, idempotency_key: randomUUID() }, INVALID_PARAMS, "missing", "$.payment.instruments[0].credential");
    const otherHandler = { instruments: [{ ...payment(GOOD_CARD).instruments[0], handler_id: "google_pay" }] };
    await refused("complete_checkout", { id: checkout.id, payment: otherHandler, idempotency_key: randomUUID() }, INVALID_PARAMS, "invalid", "$.payment.instruments[0].handler_id");
    await refused("cancel_checkout", { id: checkout.id, idempotency_key: randomUUID(), reason: "x" }, INVALID_PARAMS, "invalid", "$.reason");
    await refused("no_such_tool", {}, INVALID_PARAMS, "not_found");
    // Nothing of it changed the checkout.
    expect((await ok("get_checkout", { id: checkout.id })).status).toBe("ready_for_complete");
    expect(await ordersOf(checkout.id)).toBe(0);
  });

  it("arguments that are not an object break MCP's own rule: the MCP layer's Invalid params (-32602)", async () => {
    const res = await fetch(endpoint(), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_checkout", arguments: ["x"] } }),
    });
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    const message = JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) ?? text);
    expect(message.error.code, text).toBe(INVALID_PARAMS);
  });
});

describe("_meta.ucp: the platform's profile and version", () => {
  it("is read from the call's _meta or from the arguments' _meta; a newer version is version_unsupported", async () => {
    const checkout = await readyCheckout();
    expect((await ok("get_checkout", { id: checkout.id, _meta: { ucp: { profile: PLATFORM_PROFILE, version: "2025-12-01" } } }, { meta: {} })).ucp.version).toBe(UCP_VERSION);
    expect((await ok("get_checkout", { id: checkout.id }, { meta: { ucp: { profile: PLATFORM_PROFILE, version: UCP_VERSION } } })).id).toBe(checkout.id);
    await refused("get_checkout", { id: checkout.id }, INVALID_PARAMS, "version_unsupported", undefined, { meta: { ucp: { profile: PLATFORM_PROFILE, version: "2099-01-01" } } });
    await refused("get_checkout", { id: checkout.id, _meta: { ucp: { version: "next" } } }, INVALID_PARAMS, "invalid", "$._meta.ucp.version");
    await refused("get_checkout", { id: checkout.id }, INVALID_PARAMS, "invalid", "$._meta.ucp.profile", { meta: { ucp: { profile: 7 } } });
  });
});

describe("identity linking", () => {
  it("a token issued for the UCP endpoint makes the checkout the holder's; a bad token is 401 with the UCP resource's challenge", async () => {
    await setMarketplaceAgentCheckout(ucp.app.pool, true);
    const holder = await createHolder(ucp.app.pool, "ucp-mcp-linked");
    await allowAgentOrders(ucp.app.pool, holder.id, 100_000, 200_000);
    const { token } = await mintAccessToken(ucp.app.pool, { userId: holder.id, scopes: ["checkout"], resource: "ucp", baseUrl: ucp.app.baseUrl });
    const linked = await connect({ Authorization: `Bearer ${token}` });
    try {
      const checkout = await ok("create_checkout", { checkout: { currency: "USD", line_items: lineItems(ucp.fixtures.item), fulfillment: shipping } }, { via: linked });
      expect(checkout.buyer.email).toBe(holder.email);
      // A guest cannot see it.
      await refused("get_checkout", { id: checkout.id }, INVALID_PARAMS, "not_found");
      const done = await ok("complete_checkout", { id: checkout.id, payment: payment(GOOD_CARD), idempotency_key: randomUUID() }, { via: linked });
      expect(done.status).toBe("completed");
    } finally {
      await linked.close();
    }

    const res = await fetch(endpoint(), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: "Bearer nope", "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("/.well-known/oauth-protected-resource/api/ucp");
  });
});
