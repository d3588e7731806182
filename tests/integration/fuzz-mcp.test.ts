/**
 * Issue 15, fuzz: both MCP servers, the public one (/api/mcp/mcp, on the suite's shared app) and
 * the agent one (/api/agent/mcp, on an app of its own since its tools write). For each: every tool
 * that tools/list advertises (and the registry defines) called with arguments generated from its
 * advertised inputSchema (valid, at the bounds, one change away, junk), and raw JSON-RPC junk
 * (wrong jsonrpc, odd ids, missing or unknown methods, batches, malformed JSON, wrong Content-Type
 * and Accept, other HTTP methods). Every answer: never a 5xx; an HTTP error is a JSON-RPC error or
 * the API's envelope with request_id = X-Request-Id; a tool error carries the envelope with that
 * request id; a tool result matches the tool's output schema; no inventory count, no token or
 * other holder's data; and a rejected write tool changed no row. FUZZ_SEED / FUZZ_RUNS:
 * tests/helpers/fuzz.ts.
 */
import fc from "fast-check";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_TOOLS } from "@/lib/mcp/tools/agent";
import { PUBLIC_TOOLS } from "@/lib/mcp/tools/public";
import type { ToolDefinition } from "@/lib/mcp/tools/types";
import { ALL_SCOPES, createHolder, createListing, token } from "../helpers/buyer";
import { arbitraryOf, fuzzAssert, FUZZ_RUNS, FuzzStats, junk, problemsOf, WriteLog, type Answer } from "../helpers/fuzz";
import { baseUrl, randomClientIp } from "../helpers/http";
import { initialize } from "../helpers/mcp";
import { createTestOrder } from "../helpers/orders";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const stats = new FuzzStats();
afterAll(() => console.log(stats.report("MCP")));

interface Server {
  name: string;
  url: () => string;
  tools: ToolDefinition[];
  /** Authorization header values (agent server), most of them valid. */
  auth: fc.Arbitrary<string | undefined>;
  public: boolean;
  secrets: () => string[];
  known: Record<string, string[]>;
  /** The write tables' change log, for "a rejected write tool changed nothing". */
  writes?: () => WriteLog;
  /** Authorization for tools/list. */
  listAuth?: () => string;
}

const READ_TOOLS = new Set(["search_products", "get_product", "get_categories", "search_help", "get_help_article", "get_connection_guide", "get_profile", "get_cart", "list_orders", "get_order", "list_returns"]);

async function post(server: Server, body: string | undefined, headers: Record<string, string>, method = "POST"): Promise<Answer & { message: any }> {
  const res = await fetch(server.url(), {
    method,
    headers: { "X-Forwarded-For": randomClientIp(), ...headers },
    body: method === "GET" || method === "HEAD" ? undefined : body,
    signal: AbortSignal.timeout(25_000),
  });
  const text = await res.text();
  const raw = (res.headers.get("content-type") ?? "").startsWith("text/event-stream") ? text.split("\n").find((l) => l.startsWith("data: "))?.slice(6) : text;
  let json: any = null;
  try {
    json = raw ? JSON.parse(raw) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text, message: json };
}

const isJsonRpcError = (m: any) => m && typeof m === "object" && m.jsonrpc === "2.0" && typeof m.error?.code === "number" && typeof m.error?.message === "string";

/** The problems of an HTTP-level answer: a 4xx is a JSON-RPC error (or a list of them) or the API envelope. */
function httpProblems(server: Server, res: Answer): string[] {
  if (res.status >= 500) return [`status ${res.status}`];
  const problems: string[] = [];
  if (res.status >= 400) {
    const messages = Array.isArray(res.json) ? res.json : [res.json];
    if (!(res.json?.error?.request_id !== undefined || messages.every(isJsonRpcError))) problems.push("4xx that is neither a JSON-RPC error nor the envelope");
    if (res.json?.error?.request_id !== undefined) problems.push(...problemsOf(res, {}));
  }
  // Tool results only: tools/list describes fields (`quantity` of a cart-link line), it holds no data.
  const content = res.json?.result?.structuredContent;
  if (server.public && content) problems.push(...problemsOf({ ...res, json: content, status: 200 }, { public: true }));
  problems.push(...problemsOf({ ...res, status: 200 }, { secrets: server.secrets() }));
  return problems;
}

/** tools/call of `tool` with generated arguments, under FUZZ_RUNS runs. */
async function fuzzTool(server: Server, tool: ToolDefinition, inputSchema: unknown) {
  const schema = z.fromJSONSchema(inputSchema as never);
  const overrides = Object.fromEntries(Object.entries(server.known).map(([k, v]) => [k, fc.constantFrom(...v)]));
  const args = fc.oneof(
    { weight: 3, arbitrary: arbitraryOf(schema, { overrides }) },
    { weight: 1, arbitrary: arbitraryOf(schema, { overrides, mode: "edge" }) },
    { weight: 1, arbitrary: fc.tuple(arbitraryOf(schema, { overrides }), fc.constantFrom("unknown", "__proto__", "x".repeat(200)), junk).map(([a, k, v]) => ({ ...(a as object), [k]: v })) },
    { weight: 1, arbitrary: junk },
  );
  await fuzzAssert(
    fc.asyncProperty(args, server.auth, fc.oneof(fc.nat(), fc.constantFrom("id", "", 1e308, -1)), async (a, auth, id) => {
      const log = READ_TOOLS.has(tool.name) ? undefined : server.writes?.();
      const before = log ? await log.mark() : undefined;
      const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool.name, arguments: a } });
      const res = await post(server, body, { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(auth === undefined ? {} : { Authorization: auth }) });
      stats.record(`${server.name} tools/call`, res.status);
      const label = `${tool.name} ${body.slice(0, 400)}`;
      const problems = httpProblems(server, res);
      const result = res.message?.result;
      let rejected = res.status >= 400 || !result || result.isError === true;
      if (res.status < 400 && result) {
        const requestId = res.headers.get("x-request-id");
        if (result.isError) {
          const error = result.structuredContent?.error;
          // Unknown tools and the like are protocol errors with a text only; tool errors carry the envelope.
          if (error) problems.push(...problemsOf({ ...res, json: result.structuredContent, status: 400 }, { extraErrorKeys: ["rejected", "listing_id", "total_cents"] }).filter((p) => !p.startsWith("status 400 for code")));
          else if (!Array.isArray(result.content)) problems.push("tool error without content");
          stats.record(`${server.name} tool errors`, 400);
        } else {
          const parsed = await tool.outputSchema["~standard"].validate(result.structuredContent);
          if ("issues" in parsed && parsed.issues) problems.push(`structured content does not match the output schema: ${JSON.stringify(parsed.issues).slice(0, 400)}`);
          if (result.structuredContent?.meta?.request_id !== requestId) problems.push("meta.request_id is not X-Request-Id");
          if (result.structuredContent?.error) problems.push("a success carrying an error");
          stats.record(`${server.name} tool results`, 200);
        }
      } else if (res.message?.error) rejected = true;
      if (problems.length > 0) throw new Error(`${label} → ${res.status}: ${problems.join("; ")}\nbody: ${res.text.slice(0, 800)}`);
      if (log && before !== undefined && rejected) {
        const changed = await log.changedSince(before);
        if (changed.length > 0) throw new Error(`${label} was rejected but changed ${changed.join(", ")}`);
      }
    }),
  );
}

const jsonRpcJunk = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "2.0", "1.0", 2, null, ""),
    id: fc.oneof(fc.nat(), fc.constantFrom(null, "x", "", 1e308, -1, 2 ** 63, "x".repeat(10_000), {}, [], true)),
    method: fc.constantFrom("tools/list", "tools/call", "initialize", "ping", "server/discover", "notifications/initialized", "resources/list", "prompts/get", "nope", "", 5, null, "tools/call\u0000"),
    params: fc.oneof(fc.constant({}), junk, fc.record({ name: fc.constantFrom("search_products", "get_cart", "nope", "", "x".repeat(1000)), arguments: junk }), fc.constant(initialize().params)),
  },
  { requiredKeys: [] },
);

const rawBody = fc.oneof(
  { weight: 4, arbitrary: jsonRpcJunk.map((m) => JSON.stringify(m)) },
  { weight: 1, arbitrary: fc.array(jsonRpcJunk, { maxLength: 5 }).map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", "[[]]", '{"jsonrpc":"2.0"', "\u0000", "x".repeat(1_100_000), JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" })))) },
);

async function fuzzRaw(server: Server) {
  const headers = fc.record({
    contentType: fc.constantFrom("application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", undefined),
    accept: fc.constantFrom("application/json, text/event-stream", "application/json, text/event-stream", "application/json", "text/event-stream", "text/html", "*/*", undefined),
    version: fc.constantFrom(undefined, undefined, "2025-06-18", "2026-07-28", "1999-01-01", "x"),
    method: fc.constantFrom("POST", "POST", "POST", "POST", "GET", "DELETE", "PUT", "OPTIONS"),
  });
  await fuzzAssert(
    fc.asyncProperty(rawBody, headers, server.auth, async (body, h, auth) => {
      const sent: Record<string, string> = {};
      if (h.contentType) sent["Content-Type"] = h.contentType;
      if (h.accept) sent.Accept = h.accept;
      if (h.version) sent["Mcp-Protocol-Version"] = h.version;
      if (auth !== undefined) sent.Authorization = auth;
      const res = await post(server, body, sent, h.method);
      stats.record(`${server.name} raw JSON-RPC`, res.status);
      const problems = httpProblems(server, res);
      if (problems.length > 0) throw new Error(`${h.method} ${JSON.stringify(sent)} ${body.slice(0, 300)} → ${res.status}: ${problems.join("; ")}\nbody: ${res.text.slice(0, 800)}`);
    }),
    FUZZ_RUNS * 2,
  );
}

/** tools/list, checked against the registry, and a fuzz test per tool. */
function fuzzServer(server: Server) {
  const advertised = new Map<string, unknown>();
  beforeAll(async () => {
    const auth = server.listAuth?.();
    const res = await post(server, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }), {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(auth ? { Authorization: auth } : {}),
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    for (const tool of res.message.result.tools) advertised.set(tool.name, tool.inputSchema);
  });

  it("tools/list advertises exactly the registry's tools", () => {
    expect([...advertised.keys()].sort()).toEqual(server.tools.map((t) => t.name).sort());
  });
  for (const tool of server.tools) {
    it(`tools/call ${tool.name}`, () => fuzzTool(server, tool, advertised.get(tool.name)), 600_000);
  }
  it("raw JSON-RPC junk", () => fuzzRaw(server), 600_000);
}

describe("fuzz: public MCP server", () => {
  const known: Record<string, string[]> = { slug: ["fixture-mixed-offers", "fixture-backorder-only", "returns"], listing_id: [] };
  beforeAll(async () => {
    const res = await fetch(`${baseUrl()}/api/public/v1/products/fixture-mixed-offers`, { headers: { "X-Forwarded-For": randomClientIp() } });
    known.listing_id = ((await res.json()) as any).data.offers.map((o: { listing_id: string }) => o.listing_id);
  });
  fuzzServer({ name: "public MCP", url: () => baseUrl() + "/api/mcp/mcp", tools: PUBLIC_TOOLS, auth: fc.constant(undefined), public: true, secrets: () => [], known });
});

describe("fuzz: agent MCP server", () => {
  let app: IsolatedApp;
  let writeLog: WriteLog;
  let tokens: string[] = [];
  let partial: string[] = [];
  const secrets: string[] = [];
  const known: Record<string, string[]> = { slug: ["fixture-mixed-offers"], listing_id: [], id: [], order_id: [] };

  beforeAll(async () => {
    app = await startIsolatedApp("fuzz-mcp");
    writeLog = await WriteLog.install(app.pool);
    const alice = await createHolder(app.pool, "fuzz-mcp-alice");
    const bob = await createHolder(app.pool, "fuzz-mcp-bob");
    tokens = (await Promise.all(Array.from({ length: 8 }, () => token(app, alice.id, ALL_SCOPES, { resource: "agent_mcp" })))).map((t) => t.token);
    partial = (await Promise.all(ALL_SCOPES.map((s) => token(app, alice.id, [s], { resource: "agent_mcp" })))).map((t) => t.token);
    const apiToken = await token(app, alice.id, ALL_SCOPES);
    const bobToken = await token(app, bob.id, ALL_SCOPES, { resource: "agent_mcp" });
    known.listing_id = await Promise.all([createListing(app.pool, 1500), createListing(app.pool, 2500, 2)]);
    const orders = await Promise.all([alice, alice, bob].map((h) => createTestOrder(app.pool, { userId: h.id, email: h.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }], status: "delivered" })));
    known.id = known.order_id = orders.flatMap((o) => [o.id, o.number]);
    known.order_line_id = orders.flatMap((o) => o.lines.map((l) => l.id));
    known.listing_id.push(...orders.flatMap((o) => o.lines.map((l) => l.listingId)));
    secrets.push(...tokens, ...partial, apiToken.token, bobToken.token, bob.email, orders[2]!.paymentRef);
  });
  afterAll(async () => {
    await app?.stop();
  });

  fuzzServer({
    name: "agent MCP",
    url: () => app.baseUrl + "/api/agent/mcp",
    tools: AGENT_TOOLS,
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.nat().map((i) => `Bearer ${tokens[i % tokens.length]}`) },
      { weight: 2, arbitrary: fc.nat().map((i) => `Bearer ${partial[i % partial.length]}`) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, "", "Bearer", "Bearer x", "Basic dXNlcjpwYXNz", `Bearer ${"x".repeat(5000)}`) },
    ),
    public: false,
    listAuth: () => `Bearer ${tokens[0]}`,
    secrets: () => secrets,
    known,
    writes: () => writeLog,
  });
});
