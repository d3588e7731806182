/**
 * Issue 15, fuzz: every operation of the public, seller and buyer API registries (so a new
 * endpoint is fuzzed without touching this file), with path segments, query strings and bodies
 * generated from the endpoint's own zod schemas (valid, at the bounds, one change away from valid,
 * undecodable percent-escapes in any path segment, malformed JSON, wrong content types, wrong methods, repeated parameters), plus junk paths under
 * every API prefix. Every answer: never a 5xx; an error is the exact envelope with
 * error.request_id = X-Request-Id; a success matches the schema openapi.json is generated from;
 * no inventory count on the public surface, no key secret or token, no other tenant's ids; and a
 * rejected write changed no row. The public API is fuzzed on the suite's shared app; the seller and
 * buyer APIs, which write, on an app of their own. FUZZ_SEED / FUZZ_RUNS: tests/helpers/fuzz.ts.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { BUYER_ENDPOINTS } from "@/lib/endpoints/buyer";
import { buyerOpenApiEndpoint } from "@/lib/endpoints/buyer/openapi";
import { PUBLIC_ENDPOINTS } from "@/lib/endpoints/public";
import { SELLER_ENDPOINTS } from "@/lib/endpoints/seller";
import { sellerOpenApiEndpoint } from "@/lib/endpoints/seller/openapi";
import type { Endpoint } from "@/lib/http/describe";
import { ALL_SCOPES, createHolder, createListing, token } from "../helpers/buyer";
import {
  bodyArbitrary,
  checkAnswer,
  FUZZ_RUNS,
  fuzzAssert,
  FuzzStats,
  queryArbitrary,
  rarely,
  segmentArbitrary,
  type Answer,
  type BodyCase,
  withUndecodableSegment,
  WriteLog,
} from "../helpers/fuzz";
import { api, baseUrl, randomClientIp } from "../helpers/http";
import { createTestOrder } from "../helpers/orders";
import { createTestKey, sellerRequest, startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const stats = new FuzzStats();
afterAll(() => console.log(stats.report("API")));

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Known values per field or path parameter name: the ids and slugs that reach the domain. */
type Known = Record<string, string[]>;

interface Surface {
  name: string;
  prefix: string;
  base: () => string;
  /** Authorization header values (most of them valid); none for the public API. */
  auth: fc.Arbitrary<string | undefined>;
  known: Known;
  public?: boolean;
  secrets: () => string[];
  /** Documented error fields of this surface beyond type, code, message, param and request_id. */
  extraErrorKeys?: string[];
  /** The write tables' change log, for "a rejected write changed nothing" (none on the shared app). */
  writes?: () => WriteLog;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  flavor: string;
}

/** A request to `endpoint`: its method most of the time, generated path, query and body. */
function requestArbitrary(surface: Surface, endpoint: Endpoint): fc.Arbitrary<FuzzRequest> {
  const overrides = Object.fromEntries(Object.entries(surface.known).map(([k, v]) => [k, fc.constantFrom(...v)]));
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const segments = fc.tuple(...names.map((n) => segmentArbitrary(surface.known[n] ?? []))) as fc.Arbitrary<string[]>;
  const query = endpoint.query ? queryArbitrary(endpoint.query, overrides) : fc.constantFrom("", "?unknown=1", "?a=%ZZ");
  const body: fc.Arbitrary<BodyCase | undefined> = endpoint.body ? bodyArbitrary(endpoint.body, overrides) : fc.constantFrom(undefined, { contentType: "application/json", body: "{}", flavor: "valid" as const });
  const method = fc.oneof({ weight: 9, arbitrary: fc.constant(endpoint.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
  const idempotencyKey = rarely(fc.oneof(fc.uuid(), fc.constantFrom("", "x".repeat(300), "ÿ-\u00a0key")), 4);
  return fc.tuple(method, segments, query, body, surface.auth, idempotencyKey).chain(([m, segs, q, b, auth, key]) => {
    let p = endpoint.path;
    names.forEach((n, i) => (p = p.replace(`{${n}}`, segs[i]!)));
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.Authorization = auth;
    if (b?.contentType) headers["Content-Type"] = b.contentType;
    if (key !== null) headers["Idempotency-Key"] = key;
    const sendsBody = m !== "GET" && m !== "OPTIONS" && b?.body !== undefined;
    // Any segment of the endpoint's path (not of the surface's prefix) may be undecodable.
    return withUndecodableSegment(p).map((path) => ({ method: m, path: surface.prefix + path + q, headers, body: sendsBody ? b!.body : undefined, flavor: b?.flavor ?? "valid" }));
  });
}

/** One generated request, from an address of its own (a header it carries is replaced). */
function send(surface: Surface, req: FuzzRequest): Promise<Answer> {
  const headers = new Headers(req.headers);
  headers.set("X-Forwarded-For", randomClientIp());
  return api(surface.base() + req.path, { method: req.method, headers, body: req.body });
}

/** The property of one endpoint over FUZZ_RUNS generated requests. */
async function fuzzEndpoint(surface: Surface, endpoint: Endpoint, runs = FUZZ_RUNS) {
  await fuzzAssert(
    fc.asyncProperty(requestArbitrary(surface, endpoint), async (req) => {
      const log = req.method !== "GET" && req.method !== "OPTIONS" ? surface.writes?.() : undefined;
      const before = log ? await log.mark() : undefined;
      const res = await send(surface, req);
      stats.record(surface.name, res.status);
      const label = `${req.method} ${req.path.slice(0, 300)} [${req.flavor}] ${req.body?.slice(0, 300) ?? ""}`;
      const secrets = surface.secrets().filter((s) => !req.path.includes(s) && !(req.body ?? "").includes(s));
      checkAnswer(label, res, {
        success: req.method === endpoint.method ? endpoint.success : undefined,
        // The OpenAPI documents describe count fields; they are not data.
        public: surface.public && endpoint.path !== "/openapi.json",
        secrets,
        extraErrorKeys: surface.extraErrorKeys,
      });
      if (log && before !== undefined && res.status >= 400) {
        const changed = await log.changedSince(before);
        if (changed.length > 0) throw new Error(`${label} → ${res.status} was rejected but changed ${changed.join(", ")}`);
      }
    }),
    runs,
  );
}

// ---------------------------------------------------------------------------------------------
// Which routes the fuzz reaches
// ---------------------------------------------------------------------------------------------

/** Every app/api route file, as a path pattern (`/api/v1/listings/[id]`). */
function apiRoutes(dir = path.join(process.cwd(), "app/api"), prefix = "/api"): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === "route.ts") out.push(prefix);
    if (entry.isDirectory()) out.push(...apiRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`));
  }
  return out;
}

const asRoute = (prefix: string, e: Endpoint) => prefix + e.path.replace(/\{(\w+)\}/g, "[$1]");

/** Routes outside the registries, and the fuzz file that covers each. */
const OTHER_ROUTES: Record<string, string> = {
  "/api/[...path]": "fuzz-api (junk paths)",
  "/api/public/v1/[[...path]]": "fuzz-api (junk paths)",
  "/api/v1/[...path]": "fuzz-api (junk paths)",
  "/api/v1/buyer/[[...path]]": "fuzz-api (junk paths)",
  "/api/agent/[[...path]]": "fuzz-api (junk paths)",
  "/api/mcp/[[...path]]": "fuzz-api (junk paths)",
  "/api/mcp/mcp": "fuzz-mcp",
  "/api/health": "health (it reads no input: GET, and 405 for other methods)",
  "/api/agent/mcp": "fuzz-mcp",
  "/api/mcp/mcp/server-card": "mcp-server-cards (it reads no input: GET, and 405 for other methods)",
  "/api/agent/mcp/server-card": "mcp-server-cards (it reads no input: GET, and 405 for other methods)",
  "/api/auth/[...nextauth]": "fuzz-oauth-forms (NextAuth: the storefront's sign-in goes through /signin/*)",
  "/api/ucp/checkout-sessions": "fuzz-ucp",
  "/api/ucp/checkout-sessions/[id]": "fuzz-ucp",
  "/api/ucp/checkout-sessions/[id]/complete": "fuzz-ucp",
  "/api/ucp/checkout-sessions/[id]/cancel": "fuzz-ucp",
  "/api/ucp/orders/[id]": "fuzz-ucp",
  "/api/ucp/[[...path]]": "fuzz-ucp (junk paths)",
  "/api/ucp/mcp": "fuzz-ucp (MCP binding)",
  "/api/acp/checkout_sessions": "fuzz-acp",
  "/api/acp/checkout_sessions/[id]": "fuzz-acp",
  "/api/acp/checkout_sessions/[id]/complete": "fuzz-acp",
  "/api/acp/checkout_sessions/[id]/cancel": "fuzz-acp",
  "/api/acp/[[...path]]": "fuzz-acp (junk paths)",
  "/api/acp/handlers/test-card": "acp (a static document: GET, 405 otherwise)",
  "/api/acp/handlers/test-card/config.json": "acp (a static document: GET, 405 otherwise)",
  "/api/acp/handlers/test-card/instrument.json": "acp (a static document: GET, 405 otherwise)",
  "/api/ucp/handlers/test-card": "ucp-conformance/protocol (a static document: GET, 405 otherwise)",
  "/api/ucp/handlers/test-card/config.json": "ucp-conformance/protocol (a static document: GET, 405 otherwise)",
};

describe("route coverage", () => {
  it("every app/api route is an endpoint of a fuzzed registry or listed with the fuzz file that covers it", () => {
    const covered = new Set([
      ...PUBLIC_ENDPOINTS.map((e) => asRoute("/api/public/v1", e)),
      ...[...SELLER_ENDPOINTS, sellerOpenApiEndpoint].map((e) => asRoute("/api/v1", e)),
      ...[...BUYER_ENDPOINTS, buyerOpenApiEndpoint].map((e) => asRoute("/api/v1/buyer", e)),
      ...Object.keys(OTHER_ROUTES),
    ]);
    const routes = apiRoutes();
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Public API (shared app)
// ---------------------------------------------------------------------------------------------

describe("fuzz: public API", () => {
  const known: Known = { slug: [], listing_id: [], category: [], brand: [] };
  const surface: Surface = { name: "public API", prefix: "/api/public/v1", base: baseUrl, auth: fc.constant(undefined), known, public: true, secrets: () => [], extraErrorKeys: ["rejected"] };

  beforeAll(async () => {
    const found = await api("/search?page_size=20");
    expect(found.status).toBe(200);
    known.slug = ["fixture-mixed-offers", "fixture-backorder-only", ...found.json.data.map((c: { slug: string }) => c.slug)];
    const product = await api("/products/fixture-mixed-offers");
    known.listing_id = product.json.data.offers.map((o: { listing_id: string }) => o.listing_id);
    known.category = found.json.meta.facets.category.map((f: { value: string }) => f.value);
    known.brand = found.json.meta.facets.brand.map((f: { value: string }) => f.value);
  });

  for (const endpoint of PUBLIC_ENDPOINTS) {
    it(`${endpoint.method} ${endpoint.path}`, () => fuzzEndpoint(surface, endpoint), 600_000);
  }
});

// ---------------------------------------------------------------------------------------------
// Seller and buyer APIs (an app of their own)
// ---------------------------------------------------------------------------------------------

describe("fuzz: seller and buyer APIs", () => {
  let app: IsolatedApp;
  let writeLog: WriteLog;
  const sellerKnown: Known = { id: [], listing_id: [], product_id: [], shipping_template_id: [], sku: [], region: ["US", "CA", "*"], number: [], endpoint_id: [] };
  const buyerKnown: Known = { id: [], listing_id: [] };
  const sellerSecrets: string[] = [];
  const buyerSecrets: string[] = [];
  let sellerKeys: string[] = [];
  let buyerTokens: string[] = [];

  /** Bearer values: valid ones in rotation (each key or grant has its own bucket), and junk. */
  const authArbitrary = (valid: () => string[], partial: () => string[]) =>
    fc.oneof(
      { weight: 12, arbitrary: fc.nat().map((i) => `Bearer ${valid()[i % valid().length]}`) },
      { weight: 2, arbitrary: fc.nat().map((i) => `Bearer ${partial()[i % partial().length]}`) },
      { weight: 1, arbitrary: fc.constantFrom(undefined, "", "Bearer", "Bearer mk_live_x.y", "Basic dXNlcjpwYXNz", "Bearer %00", `Bearer ${"x".repeat(5000)}`, "bearer  a b") },
    );
  let sellerPartial: string[] = [];
  let buyerPartial: string[] = [];

  const seller: Surface = {
    name: "seller API",
    prefix: "/api/v1",
    base: () => app.baseUrl,
    auth: authArbitrary(() => sellerKeys, () => sellerPartial),
    known: sellerKnown,
    secrets: () => sellerSecrets,
    writes: () => writeLog,
  };
  const buyerSurface: Surface = {
    name: "buyer API",
    prefix: "/api/v1/buyer",
    base: () => app.baseUrl,
    auth: authArbitrary(() => buyerTokens, () => buyerPartial),
    known: buyerKnown,
    secrets: () => buyerSecrets,
    extraErrorKeys: ["listing_id", "total_cents"],
    writes: () => writeLog,
  };

  beforeAll(async () => {
    app = await startIsolatedApp("fuzz-api");
    writeLog = await WriteLog.install(app.pool);
    const q = async (sql: string, params: unknown[] = []) => (await app.pool.query(sql, params)).rows;
    // Seller: store A's keys; store B's ids are the other tenant's.
    const keys = await Promise.all(Array.from({ length: 8 }, () => createTestKey(app.pool, "fixture-store-a", [...SELLER_SCOPES])));
    const partial = await Promise.all(SELLER_SCOPES.map((s) => createTestKey(app.pool, "fixture-store-a", [s])));
    const other = await createTestKey(app.pool, "fixture-store-b", [...SELLER_SCOPES]);
    sellerKeys = keys.map((k) => k.key);
    sellerPartial = partial.map((k) => k.key);
    const storeListings = async (slug: string) => q(`SELECT l.id, l.sku, l.product_id FROM listings l JOIN stores s ON s.id = l.store_id WHERE s.slug = $1 ORDER BY l.sku LIMIT 12`, [slug]);
    const templates = async (slug: string) => (await q(`SELECT t.id FROM shipping_templates t JOIN stores s ON s.id = t.store_id WHERE s.slug = $1`, [slug])).map((r) => r.id as string);
    const own = await storeListings("fixture-store-a");
    const foreign = await storeListings("fixture-store-b");
    const ownTemplates = await templates("fixture-store-a");
    const foreignTemplates = await templates("fixture-store-b");
    sellerKnown.id = [...own.map((r) => r.id), ...ownTemplates, ...foreign.slice(0, 3).map((r) => r.id), ...foreignTemplates.slice(0, 1)];
    sellerKnown.listing_id = [...own.map((r) => r.id), foreign[0]!.id];
    sellerKnown.sku = own.map((r) => r.sku);
    sellerKnown.product_id = [...new Set([...own, ...foreign].map((r) => r.product_id as string))];
    sellerKnown.shipping_template_id = [...ownTemplates, ...foreignTemplates];
    // Secrets: every key's secret (the key string only ever appears where it is issued, never in
    // an API body); the other store's SKUs and listing ids (those the caller sent aside: an error
    // may name what it was given).
    sellerSecrets.push(...[...keys, ...partial, other].map((k) => k.key.split(".")[1]!), ...foreign.map((r) => r.sku as string).filter((s) => s.length >= 8), ...foreign.slice(3).map((r) => r.id as string));
    // Orders: store A's own (to ship and deliver), one of A and B, and one of store B only, whose
    // buyer's e-mail and payment store A must never see.
    const ownOrders = await Promise.all([0, 1, 2].map(() => createTestOrder(app.pool, { userId: null, email: "fuzz-a@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }] })));
    const shared = await createTestOrder(app.pool, { userId: null, email: "fuzz-ab@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }, { store: "fixture-store-b", lines: [{ quantity: 1 }] }] });
    const foreignOrder = await createTestOrder(app.pool, { userId: null, email: "fuzz-only-b@example.com", parts: [{ store: "fixture-store-b", lines: [{ quantity: 1 }] }] });
    sellerKnown.number = [...[...ownOrders, shared].flatMap((o) => [o.number, o.id]), foreignOrder.number, foreignOrder.id];
    // Returns: two of store A's lines (to approve, receive, refund, reject), one of store B's.
    const delivered = await Promise.all(
      ["fixture-store-a", "fixture-store-a", "fixture-store-b"].map((store) =>
        createTestOrder(app.pool, { userId: null, email: "fuzz-returner@example.com", parts: [{ store, lines: [{ quantity: 2 }] }], status: "delivered" }),
      ),
    );
    for (const o of delivered) {
      const [ret] = await q(`INSERT INTO returns (order_id, store_id) VALUES ($1, $2) RETURNING id`, [o.id, o.lines[0]!.storeId]);
      await q(`INSERT INTO return_lines (return_id, order_line_id, quantity, reason) VALUES ($1, $2, 1, 'damaged')`, [ret.id, o.lines[0]!.id]);
      sellerKnown.id.push(ret.id as string);
    }
    sellerSecrets.push("fuzz-only-b@example.com", ...[...ownOrders, shared, foreignOrder].map((o) => o.paymentRef));
    // Webhooks: an endpoint of each store (a public address the fuzz never reaches: its events are
    // ones the fuzz does not cause), each with one delivery to list, read and replay.
    for (const key of [keys[0]!.key, other.key]) {
      const made = await sellerRequest(app.baseUrl, "POST", "/api/v1/webhook-endpoints", { key, body: { url: "https://93.184.215.14/hook", events: ["listing.sold_out"] } });
      expect(made.status, made.text).toBe(201);
      sellerSecrets.push(made.json.data.secret.slice("whsec_".length));
      const [event] = await q(`INSERT INTO webhook_events (id, store_id, type, body) SELECT gen_random_uuid(), store_id, 'listing.sold_out', '{}' FROM webhook_endpoints WHERE id = $1 RETURNING id`, [made.json.data.id]);
      const [delivery] = await q(
        `INSERT INTO webhook_deliveries (id, channel, destination, event_type, event_id, endpoint_id, body, status) VALUES (gen_random_uuid(), 'seller', $1::text, 'listing.sold_out', $2::uuid, $1::uuid, '{}', 'failed') RETURNING id`,
        [made.json.data.id, event.id],
      );
      sellerKnown.id.push(made.json.data.id, delivery.id);
      sellerKnown.endpoint_id = [...(sellerKnown.endpoint_id ?? []), made.json.data.id];
    }

    // Buyer: alice's tokens; bob's orders are the other tenant's.
    const alice = await createHolder(app.pool, "fuzz-alice");
    const bob = await createHolder(app.pool, "fuzz-bob");
    const minted = await Promise.all(Array.from({ length: 8 }, () => token(app, alice.id, ALL_SCOPES)));
    const partialTokens = await Promise.all(ALL_SCOPES.map((s) => token(app, alice.id, [s])));
    const bobToken = await token(app, bob.id, ALL_SCOPES);
    buyerTokens = minted.map((t) => t.token);
    buyerPartial = partialTokens.map((t) => t.token);
    const listings = await Promise.all([createListing(app.pool, 1500), createListing(app.pool, 2500, 2), createListing(app.pool, 900, 0)]);
    const aliceOrders = await Promise.all(
      [0, 1].map(() => createTestOrder(app.pool, { userId: alice.id, email: alice.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }], status: "delivered" })),
    );
    const bobOrder = await createTestOrder(app.pool, { userId: bob.id, email: bob.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }], status: "delivered" });
    buyerKnown.id = [...aliceOrders.map((o) => o.id), ...aliceOrders.map((o) => o.number), bobOrder.id, bobOrder.number];
    buyerKnown.listing_id = [...listings, ...aliceOrders.flatMap((o) => o.lines.map((l) => l.listingId))];
    buyerKnown.order_line_id = aliceOrders.flatMap((o) => o.lines.map((l) => l.id));
    buyerSecrets.push(...[...minted, ...partialTokens, bobToken].map((t) => t.token), bob.email, bobOrder.paymentRef);
  });

  afterAll(async () => {
    await app?.stop();
  });

  it("the write log notes committed row changes only (what \"a rejected write changed nothing\" relies on)", async () => {
    const listing = sellerKnown.listing_id![0]!;
    const key = (await app.pool.query(`SELECT id FROM api_keys ORDER BY created_at LIMIT 1`)).rows[0].id as string;
    let mark = await writeLog.mark();
    await app.pool.query(`UPDATE api_keys SET name = name, last_used_at = now() WHERE id = $1`, [key]);
    const client = await app.pool.connect();
    await client.query("BEGIN");
    await client.query(`UPDATE listings SET quantity = quantity + 1 WHERE id = $1`, [listing]);
    await client.query("ROLLBACK");
    client.release();
    expect(await writeLog.changedSince(mark)).toEqual([]);
    await app.pool.query(`UPDATE listings SET quantity = quantity + 1 WHERE id = $1`, [listing]);
    await app.pool.query(`UPDATE listings SET quantity = quantity - 1 WHERE id = $1`, [listing]);
    expect(await writeLog.changedSince(mark)).toEqual(["listings (update)"]);
    mark = await writeLog.mark();
    await app.pool.query(`UPDATE api_keys SET name = name || '!' WHERE id = $1`, [key]);
    await app.pool.query(`UPDATE api_keys SET name = left(name, -1) WHERE id = $1`, [key]);
    expect(await writeLog.changedSince(mark)).toEqual(["api_keys (update)"]);
  });

  for (const endpoint of [...SELLER_ENDPOINTS, sellerOpenApiEndpoint]) {
    it(`seller ${endpoint.method} ${endpoint.path}`, () => fuzzEndpoint(seller, endpoint), 600_000);
  }
  for (const endpoint of [...BUYER_ENDPOINTS, buyerOpenApiEndpoint]) {
    it(`buyer ${endpoint.method} ${endpoint.path}`, () => fuzzEndpoint(buyerSurface, endpoint), 600_000);
  }
});

// ---------------------------------------------------------------------------------------------
// Junk paths under every API prefix (the catch-all routes)
// ---------------------------------------------------------------------------------------------

describe("fuzz: unknown API paths", () => {
  it("answer the envelope (404/405/401), never a 5xx", async () => {
    const prefixes = ["/api", "/api/public/v1", "/api/v1", "/api/v1/buyer", "/api/agent", "/api/mcp"];
    const arbitrary = fc.tuple(fc.constantFrom(...prefixes), fc.array(segmentArbitrary(["listings", "products", "cart", "orders", "mcp", "openapi.json"]), { minLength: 1, maxLength: 4 }), fc.constantFrom(...METHODS));
    await fuzzAssert(
      // A leading dot segment right under /api/ leaves the API (`/api/%2e%2e/x` is the page /x).
      fc.asyncProperty(arbitrary.filter(([prefix, segments]) => prefix !== "/api" || !/^(\.|%2e)/i.test(segments[0]!)), async ([prefix, segments, method]) => {
        const req = { method, path: `${prefix}/${segments.join("/")}`, headers: { "Content-Type": "application/json" }, body: method === "GET" || method === "OPTIONS" ? undefined : "{}", flavor: "junk path" };
        const res = await send({ base: baseUrl } as Surface, req);
        stats.record("unknown paths", res.status);
        // Paths that happen to name a real route are answered by it (the fuzz of its surface checks those).
        if (res.status < 400) return;
        checkAnswer(`${method} ${req.path.slice(0, 300)}`, res, { public: true });
      }),
      Math.max(FUZZ_RUNS, 50),
    );
  }, 600_000);
});
