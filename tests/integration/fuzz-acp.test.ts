/**
 * Fuzz of the ACP REST binding (app/api/acp, lib/protocols/acp): every operation with bodies
 * generated from its own request schema (valid, at the bounds, one change away, malformed JSON,
 * wrong content types), path ids known, foreign and junk, bearer keys, API-Version and
 * idempotency keys valid, missing and junk. Every answer: never a 5xx; an error is ACP's
 * `$defs/Error`; a success validates against the vendored schema; no card number is echoed; a
 * rejected write changed no row. FUZZ_SEED / FUZZ_RUNS: tests/helpers/fuzz.ts.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CancelRequest, CheckoutComplete, CheckoutCreate, CheckoutUpdate } from "@/lib/protocols/acp";
import { ACP_VERSION, acpClient, expectAcp, PLATFORM_KEY } from "../helpers/acp";
import { bodyArbitrary, fuzzAssert, FuzzStats, rarely, segmentArbitrary, WRITE_TABLES, WriteLog } from "../helpers/fuzz";
import { storeIdOf, startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const stats = new FuzzStats();
afterAll(() => console.log(stats.report("ACP")));

let app: IsolatedApp;
let writeLog: WriteLog;
const known = { sessions: [] as string[], items: [] as string[] };

beforeAll(async () => {
  app = await startIsolatedApp("fuzz-acp");
  writeLog = await WriteLog.install(app.pool, [...WRITE_TABLES, "checkout_sessions", "protocol_checkouts"]);
  const product = (await app.pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`)).rows[0].id;
  for (const [store, quantity] of [["fixture-store-a", 500], ["fixture-store-b", 500], ["fixture-store-a", 0]] as const) {
    const { rows } = await app.pool.query(
      `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
       VALUES ($1, $2, $3, 'new', 1500, 1500, $4, false, 'active', now()) RETURNING id`,
      [await storeIdOf(app.pool, store), product, `FACP-${randomBytes(3).toString("hex")}`, quantity],
    );
    known.items.push(rows[0].id);
  }
  known.items.push(randomUUID());
  const acp = acpClient(app);
  for (let i = 0; i < 3; i++) {
    const res = await acp.request("POST", "/checkout_sessions", { line_items: [{ id: known.items[i % 2] }], currency: "usd", capabilities: {} });
    expect(res.status, res.text).toBe(201);
    known.sessions.push(res.json.id);
  }
});

afterAll(() => app?.stop());

interface Operation {
  name: string;
  method: "GET" | "POST";
  path: (id: string) => string;
  body?: unknown;
  success?: { status: number; defs: string[] };
  write: boolean;
}

const OPERATIONS: Operation[] = [
  { name: "create", method: "POST", path: () => "/checkout_sessions", body: CheckoutCreate, success: { status: 201, defs: ["CheckoutSession"] }, write: true },
  { name: "get", method: "GET", path: (id) => `/checkout_sessions/${id}`, success: { status: 200, defs: ["CheckoutSession"] }, write: false },
  { name: "update", method: "POST", path: (id) => `/checkout_sessions/${id}`, body: CheckoutUpdate, success: { status: 200, defs: ["CheckoutSession"] }, write: true },
  { name: "complete", method: "POST", path: (id) => `/checkout_sessions/${id}/complete`, body: CheckoutComplete, success: { status: 200, defs: ["CheckoutSession"] }, write: true },
  { name: "cancel", method: "POST", path: (id) => `/checkout_sessions/${id}/cancel`, body: CancelRequest, success: { status: 200, defs: ["CheckoutSession"] }, write: true },
];

const bearer = fc.oneof({ weight: 8, arbitrary: fc.constant(`Bearer ${PLATFORM_KEY}`) }, { weight: 1, arbitrary: fc.constantFrom(undefined, "", "Bearer", "Basic abc", `Bearer ${"k".repeat(600)}`, "Bearer other-platform-key") });
const version = fc.oneof({ weight: 8, arbitrary: fc.constant(ACP_VERSION) }, { weight: 1, arbitrary: fc.constantFrom(undefined, "", "2025-09-29", "2099-01-01", "latest") });

describe("fuzz: ACP REST binding", () => {
  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path("{id}")}`, async () => {
      const overrides = {
        id: fc.constantFrom(...known.items),
        option_id: fc.constantFrom("fixture-store-a__standard", "fixture-store-b__standard", "nope__standard"),
        handler_id: fc.constantFrom("test_card", "other"),
        token: fc.constantFrom("4242424242424242", "4000000000000002", "1234"),
        currency: fc.constantFrom("usd", "USD", "eur"),
        reason_code: fc.constantFrom("shipping_cost", "other", "gravity"),
      };
      const body = op.body ? bodyArbitrary(op.body, overrides) : fc.constant({ contentType: "application/json", body: undefined, flavor: "valid" as const });
      const method = fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE") });
      const key = rarely(fc.oneof(fc.uuid(), fc.constantFrom("", "x".repeat(300), "same-key")), 8);
      const id = segmentArbitrary(known.sessions).filter((s) => !/^(\.|%2e)/i.test(s));
      await fuzzAssert(
        fc.asyncProperty(id, body, method, bearer, version, key, async (segment, b, m, auth, v, idempotencyKey) => {
          const headers: Record<string, string> = { "Request-Id": `req_${randomUUID()}` };
          if (auth !== undefined) headers.Authorization = auth;
          if (v !== undefined) headers["API-Version"] = v;
          if (b.contentType) headers["Content-Type"] = b.contentType;
          headers["Idempotency-Key"] = idempotencyKey ?? randomUUID();
          const path = op.path(segment);
          const sendsBody = m !== "GET" && b.body !== undefined;
          const before = op.write && m !== "GET" ? await writeLog.mark() : undefined;
          const res = await fetch(`${app.baseUrl}/api/acp${path}`, { method: m, headers: { "X-Forwarded-For": `10.${rnd()}.${rnd()}.${rnd()}`, ...headers }, body: sendsBody ? b.body : undefined });
          const text = await res.text();
          stats.record(op.name, res.status);
          const label = `${m} ${path.slice(0, 200)} [${b.flavor}] ${String(b.body).slice(0, 300)}`;
          const problems: string[] = [];
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            if (res.status !== 431) problems.push("not JSON");
          }
          if (res.status >= 500) problems.push(`status ${res.status}`);
          try {
            if (res.status >= 400 && res.status !== 431) expectAcp("Error", json);
            else if (res.status < 300 && m === op.method && op.success) {
              if (res.status !== op.success.status) problems.push(`success status ${res.status}`);
              expectAcp(op.success.defs[0]!, json);
            }
          } catch (err) {
            problems.push(String(err).slice(0, 800));
          }
          if (/4242424242424242|4000000000000002/.test(text)) problems.push("a card number is echoed");
          if (before !== undefined && res.status >= 400) {
            const changed = await writeLog.changedSince(before);
            if (changed.length) problems.push(`rejected but changed ${changed.join(", ")}`);
          }
          if (problems.length) throw new Error(`${label} → ${res.status}: ${problems.join("; ")}\nbody: ${text.slice(0, 800)}`);
        }),
      );
    }, 600_000);
  }

  it("junk paths under the base URL answer ACP's 404 or 405, never a 5xx", async () => {
    await fuzzAssert(
      fc.asyncProperty(fc.array(segmentArbitrary(["checkout_sessions", "complete", "cancel", "handlers"]).filter((s) => !/^(\.|%2e)/i.test(s)), { minLength: 1, maxLength: 4 }), fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"), async (segments, method) => {
        const res = await fetch(`${app.baseUrl}/api/acp/${segments.join("/")}`, { method, headers: { "X-Forwarded-For": `10.${rnd()}.${rnd()}.${rnd()}`, Authorization: `Bearer ${PLATFORM_KEY}`, "API-Version": ACP_VERSION, "Idempotency-Key": randomUUID(), "Content-Type": "application/json" }, body: method === "GET" ? undefined : "{}" });
        const text = await res.text();
        stats.record("junk paths", res.status);
        if (res.status >= 500) throw new Error(`${method} /${segments.join("/")} → ${res.status}`);
        if (res.status >= 400 && res.status !== 431) expectAcp("Error", JSON.parse(text));
      }),
    );
  }, 600_000);
});

const rnd = () => Math.floor(Math.random() * 250) + 1;
