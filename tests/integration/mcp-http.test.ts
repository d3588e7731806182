/**
 * Spec 4.6, 7 and 8 for the public MCP endpoint as HTTP: POST only (405 otherwise), stateless
 * (no Mcp-Session-Id, in either protocol era), no cookie, its own rate-limit bucket of 30 / 5 per
 * second per client IP taken before the SDK sees the request, X-Request-Id and X-RateLimit-* on
 * every response, CORS for any origin, one log line per request.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type StartedServer } from "../setup/app";
import { type ApiResponse, expectErrorEnvelope, randomClientIp, serverLogLine } from "../helpers/http";
import { drainBucket } from "../helpers/rate-limit";
import { initialize, mcpUrl, rpc, type RpcResponse, toolCall, withoutRequestId } from "../helpers/mcp";

/** A raw request to the endpoint, read as the API helpers read responses. */
async function raw(method: string, init: RequestInit = {}, clientIp = randomClientIp()): Promise<ApiResponse> {
  const headers = new Headers(init.headers);
  headers.set("X-Forwarded-For", clientIp);
  const res = await fetch(mcpUrl(), { ...init, method, headers, signal: AbortSignal.timeout(25_000) });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A 2026-07-28 request: the per-request `_meta` envelope and the standard headers. */
function modern(method: string, params: Record<string, unknown> = {}, id = 1) {
  return {
    body: {
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "marketplace-contract-tests", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    },
    headers: {
      "Mcp-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(typeof params.name === "string" ? { "Mcp-Name": params.name } : {}),
    },
  };
}

function expectEndpointHeaders(res: { headers: Headers }) {
  expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{8,128}$/);
  expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
  expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  expect(res.headers.get("x-ratelimit-reset")).toMatch(/^\d+$/);
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("mcp-session-id")).toBeNull();
  expect(res.headers.get("set-cookie")).toBeNull();
}

describe("only POST is served", () => {
  it.each(["GET", "DELETE", "PUT", "PATCH"])("%s answers 405 with Allow and the error envelope", async (method) => {
    const res = await raw(method, { headers: { Accept: "text/event-stream" } });
    expectErrorEnvelope(res, { status: 405, type: "method_not_allowed_error", code: "method_not_allowed" });
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectEndpointHeaders(res);
  });

  it("a GET asking for an event stream opens none", async () => {
    const res = await raw("GET", { headers: { Accept: "text/event-stream", "Mcp-Protocol-Version": "2025-06-18" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).not.toMatch(/event-stream/);
  });

  it("CORS preflight allows POST and the MCP request headers, from any origin", async () => {
    const res = await raw("OPTIONS", {
      headers: { Origin: "https://agent.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, mcp-protocol-version" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toBe("POST, OPTIONS");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    for (const header of ["content-type", "accept", "mcp-protocol-version", "mcp-method", "mcp-name", "last-event-id"]) {
      expect(allowed).toContain(header);
    }
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("responses expose the rate-limit headers, the request id and Retry-After to browsers", async () => {
    const res = await rpc(initialize());
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    for (const header of ["x-request-id", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
      expect(exposed).toContain(header);
    }
  });
});

describe("stateless in both protocol eras: no session id, no cookie", () => {
  it("2025: initialize answers without a session id, and a later call needs none", async () => {
    const init = await rpc(initialize());
    expect(init.status).toBe(200);
    expect(init.message.result.protocolVersion).toBe("2025-06-18");
    expect(init.message.result.capabilities).toEqual({ tools: { listChanged: false }, resources: { listChanged: false } });
    expect(init.message.result.serverInfo).toMatchObject({ name: "marketplace", version: "1.0.0" });
    expectEndpointHeaders(init);

    const notified = await rpc({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(notified.status).toBe(202);
    expectEndpointHeaders(notified);

    const call = await rpc(toolCall("get_categories", {}, 2));
    expect(call.status).toBe(200);
    expect(call.message.result.structuredContent.meta.request_id).toBe(call.headers.get("x-request-id"));
    expectEndpointHeaders(call);
  });

  it("2026-07-28: server/discover and tools/call answer JSON without a session id", async () => {
    const discover = modern("server/discover");
    const found = await rpc(discover.body, { headers: discover.headers });
    expect(found.status).toBe(200);
    expect(found.message.result.supportedVersions).toContain("2026-07-28");
    expect(found.message.result.capabilities.tools).toEqual({ listChanged: false });
    expect(found.message.result.instructions).toContain("create_cart_link");
    // The server description and tool list change only with a release: cacheable for 5 minutes.
    expect(found.message.result).toMatchObject({ ttlMs: 300_000, cacheScope: "public" });
    expectEndpointHeaders(found);

    const call = modern("tools/call", { name: "get_product", arguments: { slug: "fixture-mixed-offers" } }, 2);
    const res = await rpc(call.body, { headers: call.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.message.result.structuredContent.data.slug).toBe("fixture-mixed-offers");
    expectEndpointHeaders(res);
  });

  it("a cookie sent along changes nothing and none is set", async () => {
    const plain = await rpc(toolCall("search_products", { q: "Quokkaphone" }));
    const withCookie = await rpc(toolCall("search_products", { q: "Quokkaphone" }), { headers: { Cookie: `cart=${"a".repeat(43)}; session=x` } });
    const strip = (r: RpcResponse) => withoutRequestId(r.message.result.structuredContent);
    expect(strip(withCookie)).toEqual(strip(plain));
    expect(withCookie.headers.get("set-cookie")).toBeNull();
  });
});

describe("request ids", () => {
  it("a well-formed incoming X-Request-Id is the result's request id", async () => {
    const id = `mcpcheck-${randomBytes(6).toString("hex")}`;
    const res = await rpc(toolCall("get_categories", {}), { headers: { "X-Request-Id": id } });
    expect(res.headers.get("x-request-id")).toBe(id);
    expect(res.message.result.structuredContent.meta.request_id).toBe(id);
  });

  it("a tool error's envelope carries the response's request id", async () => {
    const res = await rpc(toolCall("search_products", { page: 0 }));
    expect(res.status).toBe(200);
    expect(res.message.result.isError).toBe(true);
    expect(res.message.result.structuredContent.error.request_id).toBe(res.headers.get("x-request-id"));
  });
});

describe("malformed requests are HTTP errors of the transport, never 500", () => {
  it("a body that is not JSON", async () => {
    const res = await rpc("{not json");
    expect(res.status).toBe(400);
    expect(res.message.error.code).toBe(-32700);
    expectEndpointHeaders(res);
  });

  it("a body that is not sent as JSON", async () => {
    const res = await raw("POST", { headers: { "Content-Type": "text/plain", Accept: "application/json, text/event-stream" }, body: JSON.stringify(initialize()) });
    expect(res.status).toBe(415);
    expectEndpointHeaders(res);
  });

  it("a body over 1 MiB, as for the API", async () => {
    const res = await rpc(toolCall("search_help", { q: "x".repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expectEndpointHeaders(res);
  });

  it("an unknown tool is a JSON-RPC error (invalid params), not a 500", async () => {
    const res = await rpc(toolCall("place_order", {}));
    expect(res.status).toBe(200);
    expect(res.message.error.code).toBe(-32602);
  });

  it("arguments that are not an object are refused by the protocol layer", async () => {
    const res = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_products", arguments: [1, 2] } });
    expect(res.status).toBeLessThan(500);
    expect(res.message.error.code).toBe(-32602);
  });
});

// ---------------------------------------------------------------------------------------------
// Rate limit: 30 burst, 5 per second, per client IP, taken before any work
// ---------------------------------------------------------------------------------------------

/**
 * A fresh address's bucket drained by one burst (tests/helpers/rate-limit.ts says what it checks),
 * after opening the connections the burst will use, each request from its own address.
 */
async function drained(send: (ip: string) => Promise<RpcResponse>) {
  await Promise.all(Array.from({ length: 40 }, () => rpc(initialize(), { baseUrl: server.baseUrl })));
  const ip = randomClientIp();
  return { ip, ...(await drainBucket(30, 200, () => send(ip))) };
}

// On an app of its own: the shared test app is busy with every other test file, which can spread
// a burst's arrival over more than one refill interval.
let server: StartedServer;

describe("rate limit: a burst of 30, then 5 per second, per client IP", () => {
  beforeAll(async () => {
    server = await startServer({ databaseUrl: inject("DATABASE_URL"), logPrefix: "[mcp rate limit]" });
  });
  afterAll(() => server?.stop());

  it("past 30 rapid tools/calls from one address (and the tokens that came back meanwhile), 429 with Retry-After and the envelope", async () => {
    const { passed, over } = await drained((ip) =>
      rpc(toolCall("get_help_article", { slug: "returns" }), { clientIp: ip, baseUrl: server.baseUrl }),
    );
    expect(passed.every((r) => r.status === 200)).toBe(true);
    const res = over[0]!;
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expectErrorEnvelope({ status: res.status, headers: res.headers, json: JSON.parse(res.text), text: res.text }, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("x-ratelimit-limit")).toBe("30");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("mcp-session-id")).toBeNull();
  });

  it("initialize takes a token too, from a bucket of its own, apart from the catalog API's", async () => {
    const { ip } = await drained((ip) => rpc(initialize(), { clientIp: ip, baseUrl: server.baseUrl }));
    const search = await fetch(`${server.baseUrl}/api/public/v1/search?q=lamp`, { headers: { "X-Forwarded-For": ip } });
    await search.arrayBuffer();
    expect(search.status).toBe(200);
    expect(search.headers.get("x-ratelimit-remaining")).toBe("29");
  });
});

// ---------------------------------------------------------------------------------------------
// One log line per request
// ---------------------------------------------------------------------------------------------


describe("one JSON log line per request", () => {
  it("names the route, the first-hop IP, the User-Agent, and the error of a failed tool call", async () => {
    const ok = `mcplog-${randomBytes(6).toString("hex")}`;
    await rpc(toolCall("get_categories", {}), { headers: { "X-Request-Id": ok, "User-Agent": "log-test-agent/1.0 (+https://example.com/bot)" }, clientIp: "203.0.113.9" });
    const line = await serverLogLine(ok);
    expect(Object.keys(line).sort()).toEqual(["duration_ms", "ip", "level", "method", "msg", "request_id", "route", "status", "user_agent"].sort());
    expect(line).toMatchObject({ method: "POST", route: "public.mcp", status: 200, ip: "203.0.113.9", user_agent: "log-test-agent/1.0 (+https://example.com/bot)" });

    const failed = `mcplog-${randomBytes(6).toString("hex")}`;
    await rpc(toolCall("get_product", { slug: "fixture-unlisted" }), { headers: { "X-Request-Id": failed } });
    expect(await serverLogLine(failed)).toMatchObject({ route: "public.mcp", status: 200, error: "product_not_found" });

    const refused = `mcplog-${randomBytes(6).toString("hex")}`;
    await raw("GET", { headers: { "X-Request-Id": refused } });
    expect(await serverLogLine(refused)).toMatchObject({ status: 405, error: "method_not_allowed" });
  });
});
