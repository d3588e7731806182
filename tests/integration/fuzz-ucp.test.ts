/**
 * Fuzz of the UCP REST binding (app/api/ucp, lib/protocols/ucp): every operation with bodies
 * generated from its own request schema (valid, at the bounds, one change away, malformed JSON,
 * wrong content types), path ids known, foreign and junk, `UCP-Agent` headers valid, missing,
 * malformed and too new, idempotency keys repeated and junk. Every answer: never a 5xx; an error
 * is exactly UCP's shape; a success validates against the pinned @ucp-js/sdk schemas and loses no
 * field; no card number is ever echoed; and a rejected write changed no row. The MCP binding's
 * tools (/api/ucp/mcp) the same way, their arguments generated from their own schemas: every
 * answer a checkout or a JSON-RPC error carrying UCP's error object, never an internal error.
 * FUZZ_SEED / FUZZ_RUNS: tests/helpers/fuzz.ts.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckoutComplete, CheckoutCreate, CheckoutUpdate } from "@/lib/protocols/ucp";
import { UCP_TOOLS } from "@/lib/mcp/tools/ucp";
import { bodyArbitrary, fuzzAssert, FuzzStats, fuzzValue, rarely, segmentArbitrary, WRITE_TABLES, WriteLog } from "../helpers/fuzz";
import { randomClientIp } from "../helpers/http";
import { expectCheckout, expectValid, PLATFORM_PROFILE, UcpHarness } from "../helpers/ucp";

const { OrderSchema } = createRequire(import.meta.url)("@ucp-js/sdk") as typeof import("@ucp-js/sdk");

const stats = new FuzzStats();
afterAll(() => console.log(stats.report("UCP")));

let ucp: UcpHarness;
let writeLog: WriteLog;
const known = { sessions: [] as string[], orders: [] as string[], items: [] as string[] };

beforeAll(async () => {
  ucp = await UcpHarness.start("fuzz-ucp");
  writeLog = await WriteLog.install(ucp.app.pool, [...WRITE_TABLES, "checkout_sessions", "protocol_checkouts"]);
  const { item, second, third, outOfStock, nonExistent } = ucp.fixtures;
  known.items = [item.id, second.id, third.id, outOfStock.id, nonExistent.id];
  for (let i = 0; i < 3; i++) known.sessions.push((await ucp.createCheckout()).id);
  const { checkout, orderId } = await ucp.completedOrder();
  known.sessions.push(checkout.id);
  known.orders.push(orderId);
});

afterAll(() => ucp?.stop());

const agentHeader = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`profile="${PLATFORM_PROFILE}"`) },
  { weight: 1, arbitrary: fc.constantFrom(undefined, "", `profile="${PLATFORM_PROFILE}"; version="2099-01-01"`, 'profile=unquoted', '"', `profile="${"x".repeat(3000)}"`, 'profile="a", version="1"', "profile=\"%00\"") },
);

interface Operation {
  name: string;
  method: "GET" | "POST" | "PUT";
  path: (id: string) => string;
  ids: () => string[];
  body?: unknown;
  success?: { status: number; check: (json: unknown) => void };
  write: boolean;
}

const OPERATIONS: Operation[] = [
  { name: "create", method: "POST", path: () => "/checkout-sessions", ids: () => [""], body: CheckoutCreate, success: { status: 201, check: expectCheckout }, write: true },
  { name: "get", method: "GET", path: (id) => `/checkout-sessions/${id}`, ids: () => known.sessions, success: { status: 200, check: expectCheckout }, write: false },
  { name: "update", method: "PUT", path: (id) => `/checkout-sessions/${id}`, ids: () => known.sessions, body: CheckoutUpdate, success: { status: 200, check: expectCheckout }, write: true },
  { name: "complete", method: "POST", path: (id) => `/checkout-sessions/${id}/complete`, ids: () => known.sessions, body: CheckoutComplete, success: { status: 200, check: expectCheckout }, write: true },
  { name: "cancel", method: "POST", path: (id) => `/checkout-sessions/${id}/cancel`, ids: () => known.sessions, success: { status: 200, check: expectCheckout }, write: true },
  { name: "order", method: "GET", path: (id) => `/orders/${id}`, ids: () => known.orders, success: { status: 200, check: (json) => expectValid(OrderSchema, json, "order") }, write: false },
];

/** The UCP error shape, exactly. */
function errorProblems(json: any): string[] {
  if (!json || typeof json !== "object") return ["error body is not JSON"];
  const problems: string[] = [];
  if (Object.keys(json).sort().join() !== "code,detail,messages,status") problems.push(`error fields ${Object.keys(json).join(",")}`);
  if (json.status !== "error" || typeof json.code !== "string" || typeof json.detail !== "string" || !json.detail) problems.push("status/code/detail");
  if (!Array.isArray(json.messages) || json.messages.length === 0) problems.push("no messages");
  for (const m of json.messages ?? []) {
    if (m.type !== "error" || typeof m.code !== "string" || typeof m.content !== "string") problems.push("a message's type/code/content");
    if (!["recoverable", "requires_buyer_input", "requires_buyer_review"].includes(m.severity)) problems.push(`severity ${m.severity}`);
    if (m.path !== undefined && !String(m.path).startsWith("$")) problems.push(`path ${m.path}`);
  }
  return problems;
}

describe("fuzz: UCP REST binding", () => {
  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path("{id}")}`, async () => {
      const overrides = { id: fc.constantFrom(...known.items, ...known.sessions, "instr_1", "test_card"), handler_id: fc.constantFrom("test_card", "google_pay"), number: fc.constantFrom("4242424242424242", "4000000000000002", "1234"), token: fc.constantFrom("4242424242424242", "4000000000000002", "success_token"), currency: fc.constantFrom("USD", "usd", "EUR") };
      const body = op.body ? bodyArbitrary(op.body, overrides) : fc.constantFrom({ contentType: "application/json", body: undefined, flavor: "valid" as const }, { contentType: "application/json", body: "{}", flavor: "valid" as const });
      const method = fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") });
      const key = rarely(fc.oneof(fc.uuid(), fc.constantFrom("", "x".repeat(300), "same-key")), 3);
      await fuzzAssert(
        fc.asyncProperty(segmentArbitrary(op.ids()), body, method, agentHeader, key, async (id, b, m, agent, idempotencyKey) => {
          const headers: Record<string, string> = { "Request-Id": randomUUID() };
          if (agent !== undefined) headers["UCP-Agent"] = agent;
          if (b.contentType) headers["Content-Type"] = b.contentType;
          if (idempotencyKey !== null) headers["Idempotency-Key"] = idempotencyKey;
          const path = op.path(op.path("x") === op.path("y") ? "" : id);
          const sendsBody = m !== "GET" && b.body !== undefined;
          const before = op.write && m !== "GET" ? await writeLog.mark() : undefined;
          const res = await ucp.request(m, path, sendsBody ? b.body : undefined, headers);
          stats.record(op.name, res.status);
          const label = `${m} ${path.slice(0, 200)} [${b.flavor}] agent=${String(agent).slice(0, 60)} ${String(b.body).slice(0, 300)}`;
          const problems: string[] = [];
          if (res.status >= 500) problems.push(`status ${res.status}`);
          if (res.status >= 400 && res.status !== 431) problems.push(...errorProblems(res.json));
          if (res.status < 300 && m === op.method && op.success) {
            if (res.status !== op.success.status) problems.push(`success status ${res.status}`);
            try {
              op.success.check(res.json);
            } catch (err) {
              problems.push(String(err).slice(0, 600));
            }
          }
          if (/4242424242424242|4000000000000002/.test(res.text)) problems.push("a card number is echoed");
          if (before !== undefined && res.status >= 400) {
            const changed = await writeLog.changedSince(before);
            if (changed.length) problems.push(`rejected but changed ${changed.join(", ")}`);
          }
          if (problems.length) throw new Error(`${label} → ${res.status}: ${problems.join("; ")}\nbody: ${res.text.slice(0, 800)}`);
        }),
      );
      expect(stats.count(op.name)).toBeGreaterThan(0);
    }, 600_000);
  }

  it("junk paths under the endpoint answer UCP's 404 or 405, never a 5xx", async () => {
    await fuzzAssert(
      // A dot segment leaves the endpoint (`/api/ucp/../x` is /api/x): not UCP's to answer.
      fc.asyncProperty(fc.array(segmentArbitrary(["checkout-sessions", "orders", "complete", "cancel", "handlers"]).filter((s) => !/^(\.|%2e)/i.test(s)), { minLength: 1, maxLength: 4 }), fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"), async (segments, method) => {
        const res = await ucp.request(method, `/${segments.join("/")}`, method === "GET" ? undefined : "{}", ucp.headers());
        stats.record("junk paths", res.status);
        if (res.status >= 500) throw new Error(`${method} /${segments.join("/")} → ${res.status}`);
        if (res.status >= 400 && res.status !== 431 && errorProblems(res.json).length) throw new Error(`${method} /${segments.join("/")} → ${res.status}: ${errorProblems(res.json).join("; ")} ${res.text.slice(0, 300)}`);
      }),
    );
  }, 600_000);
});

describe("fuzz: UCP MCP binding", () => {
  const isObject = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  const rpc = async (body: unknown) => {
    const res = await fetch(`${ucp.app.baseUrl}/api/ucp/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": randomClientIp() },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const line = text.split("\n").find((l) => l.startsWith("data: "));
    let message: any = null;
    try {
      message = JSON.parse(line ? line.slice(6) : text);
    } catch {
      message = null;
    }
    return { status: res.status, text, message };
  };

  for (const tool of UCP_TOOLS) {
    it(`tools/call ${tool.name}`, async () => {
      const overrides = {
        id: fc.constantFrom(...known.items, ...known.sessions, "instr_1", "card-1"),
        handler_id: fc.constantFrom("test_card", "google_pay"),
        idempotency_key: fc.oneof({ weight: 4, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom("same-key", "") }),
        quantity: fc.integer({ min: 1, max: 3 }),
        currency: fc.constantFrom("USD", "USD", "usd", "EUR"),
        profile: fc.constantFrom(PLATFORM_PROFILE, "x"),
        version: fc.constantFrom("2026-01-11", "2026-01-11", "2025-12-01", "2099-01-01", "next"),
      };
      await fuzzAssert(
        fc.asyncProperty(fuzzValue(tool.arguments, overrides), async ({ flavor, value }) => {
          const before = tool.name === "get_checkout" ? undefined : await writeLog.mark();
          const res = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool.name, arguments: value, _meta: { ucp: { profile: PLATFORM_PROFILE } } } });
          stats.record(`mcp ${tool.name}`, res.message?.error?.code ?? res.status);
          const label = `${tool.name} [${flavor}] ${JSON.stringify(value).slice(0, 400)}`;
          const problems: string[] = [];
          if (res.status !== 200) problems.push(`HTTP ${res.status}`);
          const { result, error } = res.message ?? {};
          if (result) {
            try {
              expectCheckout(result.structuredContent);
            } catch (err) {
              problems.push(String(err).slice(0, 600));
            }
          } else if (error && !isObject(value)) {
            // MCP's own rule (tools/call arguments are an object), answered by the MCP layer.
            if (error.code !== -32602) problems.push(`JSON-RPC code ${error.code} for arguments that are not an object`);
          } else if (error) {
            if (error.code !== -32602 && error.code !== -32603) problems.push(`JSON-RPC code ${error.code}`);
            problems.push(...errorProblems(error.data));
            if (error.data?.code === "internal_error" || error.data?.code === "service_unavailable") problems.push(`an internal error: ${error.data.code}`);
          } else {
            problems.push("neither a result nor an error");
          }
          if (/4242424242424242|4000000000000002/.test(res.text)) problems.push("a card number is echoed");
          if (before !== undefined && error) {
            const changed = await writeLog.changedSince(before);
            if (changed.length) problems.push(`refused but changed ${changed.join(", ")}`);
          }
          if (problems.length) throw new Error(`${label} → ${problems.join("; ")}\nbody: ${res.text.slice(0, 800)}`);
        }),
      );
      expect(stats.count(`mcp ${tool.name}`)).toBeGreaterThan(0);
    }, 600_000);
  }
});
