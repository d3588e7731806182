/**
 * A stateful model of the seller API (fast-check `fc.commands` + `fc.asyncModelRun`).
 *
 * Each run is a fresh store of its own (and keys of it, so that no run meets another's rate-limit
 * bucket or Idempotency-Keys), one shipping template, and a model of its listings and templates.
 * Random sequences of commands run against both: listing creates (valid and invalid bodies),
 * updates (invalid fields, another store's id, ids in upper case), publishes, status changes
 * (allowed and forbidden moves), inventory batches (1-100 adjustments, all or none), template
 * creates and updates, idempotent retries (a replay changes nothing; the same key with another
 * request is 422; the key of a rejected write serves a new request; the same batch sent several
 * times at once applies once), two writes racing (either order, never both winning), reads and
 * paged lists, and a second store's key on the first store's rows (404, nothing changed); and
 * orders: buyers' orders of the store's listings (some with store B's lines too), shipped,
 * delivered and cancelled (allowed and forbidden moves, broken bodies, by number or id, store B's
 * key), listed.
 *
 * After each command: every answer is below 500 and in its envelope, the request id of which is
 * the X-Request-Id; an accepted write answers what the model predicts, and every listing it
 * touched reads back (GET) exactly as the model holds it; the store's listings in the database
 * are exactly the model's, each with as many stock adjustment rows as the model counted; a
 * rejected write or a replay leaves the stores' rows (listings, stock adjustments, templates,
 * rates, products, idempotency records) byte for byte as they were (an md5 of them read from the
 * database before and after). Every few commands, and in the list command, the whole list is
 * paged and compared with the model.
 *
 * SELLER_MODEL_SEED (default 20261125), SELLER_MODEL_RUNS (default 150) and
 * SELLER_MODEL_COMMANDS (most commands per run, default 30) change the run; a failure prints the
 * seed, the path and the shrunk command sequence.
 */
import { randomBytes, randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED } from "../setup/app";
import { expectErrorEnvelope } from "../helpers/http";
import { expectListing, type SeedIds, seedIds, uniqueSku } from "../helpers/listings";
import { createTestOrder } from "../helpers/orders";
import { createTestKey, type IsolatedApp, sellerRequest, type SellerResponse, startIsolatedApp } from "../helpers/seller";

const SEED = Number(process.env.SELLER_MODEL_SEED ?? 20261125);
const RUNS = Number(process.env.SELLER_MODEL_RUNS ?? 150);
const MAX_COMMANDS = Number(process.env.SELLER_MODEL_COMMANDS ?? 30);
const SCOPES = ["listings:read", "listings:write", "shipping:write", "orders:read", "orders:write"];
const QUANTITY_MAX = 1_000_000;
const PRICE_MAX = 100_000_000;

let app: IsolatedApp;
let ids: SeedIds;
let categorySlug: string;

beforeAll(async () => {
  app = await startIsolatedApp("seller-model");
  ids = await seedIds(app.pool);
  categorySlug = (await app.pool.query<{ slug: string }>("SELECT slug FROM categories WHERE active ORDER BY slug LIMIT 1")).rows[0]!.slug;
});

afterAll(async () => {
  await app?.stop();
});

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

type Status = "draft" | "active" | "inactive" | "archived";

/** A listing exactly as GET /listings/{id} must answer it. */
interface Listing {
  id: string;
  object: "listing";
  product_id: string;
  product_slug: string;
  sku: string;
  condition: string;
  price_cents: number;
  list_price_cents: number;
  currency: "USD";
  quantity: number;
  allow_backorder: boolean;
  shipping_template_id: string | null;
  status: Status;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

interface Rate {
  region: string;
  service: string;
  price_cents: number;
  free_over_cents: number | null;
  min_days: number;
  max_days: number;
}

/** A shipping template exactly as the API answers it. */
interface Template {
  id: string;
  object: "shipping_template";
  name: string;
  handling_days: number;
  rates: Rate[];
  created_at: string;
  updated_at: string;
}

/** An accepted write sent with an Idempotency-Key: what a retry must replay. */
interface Write {
  key: string;
  idem: string;
  method: string;
  path: string;
  body: unknown;
  status: number;
  data: unknown;
  requestId: string;
  /** The same key with another request (422): another body on the same path, or undefined. */
  otherBody?: unknown;
}

/** The run's store's part of an order, as far as the model follows it. */
interface OrderPart {
  id: string;
  number: string;
  status: "placed" | "shipped" | "delivered" | "cancelled";
  carrier: string | null;
  tracking_number: string | null;
}

interface Model {
  listings: Listing[];
  orders: OrderPart[];
  /** Orders that hold store B's lines too (store B's key may move its own part of them). */
  shared: Set<string>;
  /** Stock adjustment rows of each listing, and its quantity at creation (their deltas add up). */
  stock: Map<string, { rows: number; initial: number }>;
  templates: Template[];
  writes: Write[];
  /** Idempotency-Keys of rejected writes (nothing is stored for them: they may be used again). */
  failedKeys: { key: string; idem: string }[];
}

interface Real {
  storeId: string;
  storeSlug: string;
  /** Keys of the run's store: the current one is replaced every 40 requests (a bucket holds 60). */
  keyA: { key: string; uses: number };
  keyB: string;
  commands: number;
}

// ---------------------------------------------------------------------------------------------
// Requests: every answer checked for the general properties, statuses counted for the report
// ---------------------------------------------------------------------------------------------

const seen = new Map<string, number>();
let commandsRun = 0;
let runsStarted = 0;
let rateLimited = 0;

const UUID_IN_PATH = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

interface Call {
  key: string;
  method: string;
  path: string;
  body?: unknown;
  idem?: string;
}

/**
 * One request. Never a 5xx; an error is exactly the envelope, a success carries its request id,
 * both equal to X-Request-Id. A 429 (the run outpaced its key's bucket) is checked, then the
 * request is sent again once Retry-After has passed: the limit is taken before anything else.
 */
async function call(c: Call): Promise<SellerResponse> {
  for (let attempt = 0; ; attempt++) {
    const res = await sellerRequest(app.baseUrl, c.method, `/api/v1${c.path}`, {
      key: c.key,
      body: c.body,
      headers: c.idem ? { "Idempotency-Key": c.idem } : {},
    });
    const what = `${c.method} ${c.path} ${JSON.stringify(c.body ?? null).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 500)}`;
    expect(res.status, what).toBeLessThan(500);
    const requestId = res.headers.get("x-request-id");
    expect(requestId, what).toBeTruthy();
    if (res.status >= 400) {
      expect(Object.keys(res.json ?? {}), what).toEqual(["error"]);
      const err = res.json.error;
      expect(Object.keys(err).filter((k) => !["type", "code", "message", "param", "request_id"].includes(k)), what).toEqual([]);
      for (const field of ["type", "code", "message", "request_id"]) expect(err[field], what).toBeTypeOf("string");
      expect(err.request_id, what).toBe(requestId);
    } else {
      expect(res.json?.meta?.request_id, what).toBe(requestId);
    }
    const outcome = res.status >= 400 ? ` ${res.json.error.code}` : res.headers.get("idempotent-replayed") ? " replayed" : "";
    const label = `${c.method} ${c.path.split("?")[0]!.replace(UUID_IN_PATH, "{id}").replace(/\/M-[0-9]+/, "/{number}")} ${res.status}${outcome}`;
    seen.set(label, (seen.get(label) ?? 0) + 1);
    if (res.status !== 429) return res;
    rateLimited++;
    expectErrorEnvelope(res, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    expect(attempt, "still rate limited after 30 waits").toBeLessThan(30);
    const seconds = Number(res.headers.get("retry-after"));
    expect(seconds).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

async function keyA(r: Real): Promise<string> {
  if (r.keyA.uses >= 40) r.keyA = { key: (await createTestKey(app.pool, r.storeSlug, SCOPES, "model")).key, uses: 0 };
  r.keyA.uses++;
  return r.keyA.key;
}

/**
 * An md5 of every row a write of the run's store could touch: its listings, their stock
 * adjustments, its templates and their rates, the products it described, its parts of orders and
 * their orders' events, the idempotency records of its keys; and store B's (seeded) listing and templates, which no request of store A may reach.
 */
async function fingerprint(storeId: string): Promise<string> {
  const { rows } = await app.pool.query<{ fp: string }>(
    `SELECT md5(coalesce(string_agg(r, E'\\n' ORDER BY r), '')) AS fp FROM (
       SELECT row_to_json(l)::text AS r FROM listings l WHERE l.store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(s)::text FROM stock_adjustments s JOIN listings l ON l.id = s.listing_id WHERE l.store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(t)::text FROM shipping_templates t WHERE t.store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(x)::text FROM shipping_rates x JOIN shipping_templates t ON t.id = x.template_id WHERE t.store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(p)::text FROM products p WHERE p.created_by_store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(o)::text FROM order_stores o WHERE o.store_id = ANY($1::uuid[])
       UNION ALL SELECT row_to_json(e)::text FROM order_events e WHERE e.order_id IN (SELECT order_id FROM order_stores WHERE store_id = ANY($1::uuid[]))
       UNION ALL SELECT row_to_json(i)::text FROM idempotency_keys i
         WHERE i.owner IN (SELECT 'api_key:' || k.id FROM api_keys k WHERE k.store_id = ANY($1::uuid[]))
     ) AS everything`,
    [[storeId, ids.storeB]],
  );
  return rows[0]!.fp;
}

// ---------------------------------------------------------------------------------------------
// Expected outcomes
// ---------------------------------------------------------------------------------------------

/** An error the contract names: status, type, code and the `param` it carries (if any). */
interface Failure {
  status: number;
  type: string;
  code: string;
  param?: string;
}

const invalid = (param: string): Failure => ({ status: 400, type: "invalid_request_error", code: "parameter_invalid", param });
const missing = (param: string): Failure => ({ status: 400, type: "invalid_request_error", code: "parameter_missing", param });
const listingNotFound = (param?: string): Failure => ({ status: 404, type: "not_found_error", code: "listing_not_found", param });
const templateNotFound = (param?: string): Failure => ({ status: 404, type: "not_found_error", code: "shipping_template_not_found", param });
const transition: Failure = { status: 409, type: "state_error", code: "invalid_transition" };
const archived = (param?: string): Failure => ({ status: 409, type: "state_error", code: "listing_archived", param });
const skuTaken: Failure = { status: 409, type: "conflict_error", code: "sku_taken", param: "sku" };
const keyReused: Failure = { status: 422, type: "idempotency_error", code: "idempotency_key_reused", param: "Idempotency-Key" };

/**
 * A write: the fingerprint before it; the request (with a fresh Idempotency-Key when `idem`); a
 * predicted failure is checked (envelope, code, param) and must have changed nothing; an accepted
 * write sent with a key is remembered for the retry commands. Answers the response.
 */
async function write(m: Model, r: Real, c: Omit<Call, "key" | "idem"> & { idem: boolean; otherBody?: unknown }, expected: Failure | number): Promise<SellerResponse> {
  const before = await fingerprint(r.storeId);
  const key = await keyA(r);
  const idem = c.idem ? randomUUID() : undefined;
  const res = await call({ key, method: c.method, path: c.path, body: c.body, idem });
  if (typeof expected === "number") {
    expect(res.status, `${c.method} ${c.path}: ${res.text.slice(0, 500)}`).toBe(expected);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    if (idem) m.writes.push({ key, idem, method: c.method, path: c.path, body: c.body, status: res.status, data: res.json.data, requestId: res.json.meta.request_id, otherBody: c.otherBody });
  } else {
    expectErrorEnvelope(res, expected);
    expect(await fingerprint(r.storeId), "a rejected write changed nothing").toBe(before);
    if (idem) m.failedKeys.push({ key, idem });
  }
  return res;
}

/** Every listing in `touched` reads back (GET) exactly as the model holds it. */
async function verifyListings(m: Model, r: Real, touched: Iterable<string>): Promise<void> {
  for (const id of new Set(touched)) {
    const res = await call({ key: await keyA(r), method: "GET", path: `/listings/${id}` });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(m.listings.find((l) => l.id === id));
  }
}

/**
 * After every command, straight from the database: the store holds exactly the model's listings
 * (archived ones included), each with the model's values, and as many stock adjustment rows as
 * the model counted, whose deltas add up to the change since creation: no write reached a listing
 * it should not have, none was applied twice. Every few commands, the whole list (GET) as well.
 */
async function afterCommand(m: Model, r: Real): Promise<void> {
  commandsRun++;
  const { rows } = await app.pool.query(
    `SELECT l.id::text AS id, l.sku, l.condition::text AS condition, l.price_cents, l.list_price_cents, l.quantity, l.allow_backorder,
            l.shipping_template_id::text AS shipping_template_id, l.status::text AS status,
            (SELECT count(*)::int FROM stock_adjustments s WHERE s.listing_id = l.id) AS adjustments,
            (SELECT coalesce(sum(s.delta), 0)::int FROM stock_adjustments s WHERE s.listing_id = l.id) AS adjusted
     FROM listings l WHERE l.store_id = $1 ORDER BY l.id`,
    [r.storeId],
  );
  const expected = [...m.listings]
    .sort((x, y) => (x.id < y.id ? -1 : 1))
    .map((l) => ({
      id: l.id,
      sku: l.sku,
      condition: l.condition,
      price_cents: l.price_cents,
      list_price_cents: l.list_price_cents,
      quantity: l.quantity,
      allow_backorder: l.allow_backorder,
      shipping_template_id: l.shipping_template_id,
      status: l.status,
      adjustments: m.stock.get(l.id)!.rows,
      adjusted: l.quantity - m.stock.get(l.id)!.initial,
    }));
  expect(rows, "the store's listings in the database").toEqual(expected);
  const parts = await app.pool.query(
    `SELECT o.id, o.number, p.status::text AS status, p.carrier, p.tracking_number FROM order_stores p JOIN orders o ON o.id = p.order_id WHERE p.store_id = $1 ORDER BY o.id`,
    [r.storeId],
  );
  expect(parts.rows, "the store's parts of orders in the database").toEqual([...m.orders].sort((x, y) => (x.id < y.id ? -1 : 1)));
  if (++r.commands % 6 === 0) await verifyList(m, r, 10, undefined);
}

/** GET /listings (status filter or not), paged with `limit`: the model's listings, newest first. */
async function verifyList(m: Model, r: Real, limit: number, status: Status | undefined): Promise<void> {
  const expected = m.listings
    .filter((l) => (status === undefined ? l.status !== "archived" : l.status === status))
    .sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1));
  const got: Listing[] = [];
  let cursor: string | null = null;
  for (let page = 0; page === 0 || cursor; page++) {
    expect(page, "pages").toBeLessThanOrEqual(expected.length + 1);
    const params = new URLSearchParams({ limit: String(limit), ...(status ? { status } : {}), ...(cursor ? { cursor } : {}) });
    const res = await call({ key: await keyA(r), method: "GET", path: `/listings?${params}` });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["data", "meta", "next_cursor"]);
    expect(res.json.data.length).toBeLessThanOrEqual(limit);
    got.push(...res.json.data);
    cursor = res.json.next_cursor;
  }
  expect(got).toEqual(expected);
}

/** An accepted listing answer: the contract's shape, the model's values; `updated_at` moves iff a field changed. */
function acceptListing(m: Model, expected: Listing, got: Listing, changed: boolean): void {
  expectListing(got);
  const before = m.listings.find((l) => l.id === expected.id);
  if (before) {
    if (changed) expect(got.updated_at >= before.updated_at, `updated_at ${got.updated_at} >= ${before.updated_at}`).toBe(true);
    else expect(got.updated_at).toBe(before.updated_at);
  }
  const next = { ...expected, updated_at: changed || !before ? got.updated_at : before.updated_at };
  expect(got).toEqual(next);
  if (before) Object.assign(before, next);
  else m.listings.push(next);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries shared by the commands
// ---------------------------------------------------------------------------------------------

/** `arbitrary` in one case out of `oneIn`, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const CONDITIONS = ["new", "like_new", "very_good", "good", "acceptable", "refurbished", "used", "for_parts"] as const;
const condition = fc.constantFrom(...CONDITIONS);
const price = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 100_000 }) }, { weight: 1, arbitrary: fc.constantFrom(1, PRICE_MAX) });
/** One of the model's listings or templates (by index), its id sent in upper case or not. */
const own = fc.record({ own: fc.nat(), upper: fc.boolean() });
/** Which listing: one of the model's, another store's, or an id no listing has. */
type Target = { own: number; upper: boolean } | "other" | "unknown";
const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 8, arbitrary: own },
  { weight: 1, arbitrary: fc.constantFrom<Target>("other", "unknown") },
);
type TemplateRef = { own: number; upper: boolean } | null | "other" | "unknown";
const templateRef: fc.Arbitrary<TemplateRef> = fc.oneof(
  { weight: 6, arbitrary: own },
  { weight: 1, arbitrary: fc.constantFrom<TemplateRef>(null, "other", "unknown") },
);

const ownListing = (m: Model, t: Target): Listing | undefined => (typeof t === "object" && m.listings.length > 0 ? m.listings[t.own % m.listings.length] : undefined);
/** The id a target sends (ids are case-insensitive: the API answers them in lower case). */
function listingPath(m: Model, t: Target): string {
  const listing = ownListing(m, t);
  if (listing) return typeof t === "object" && t.upper ? listing.id.toUpperCase() : listing.id;
  return t === "other" ? ids.listingB : randomUUID();
}
/** The template id a reference sends (undefined: none to send). */
function templateId(m: Model, ref: TemplateRef): string | null | undefined {
  if (ref === null) return null;
  if (ref === "other") return ids.templateB;
  if (ref === "unknown") return randomUUID();
  if (m.templates.length === 0) return undefined;
  const id = m.templates[ref.own % m.templates.length]!.id;
  return ref.upper ? id.toUpperCase() : id;
}
const isOwnTemplate = (m: Model, id: string | null | undefined) => typeof id === "string" && m.templates.some((t) => t.id === id.toLowerCase());

const rates: fc.Arbitrary<Rate[]> = fc
  .uniqueArray(
    fc.record({
      region: fc.constantFrom("US", "DE", "*"),
      service: fc.constantFrom("standard", "expedited"),
      price_cents: fc.integer({ min: 0, max: 2_000 }),
      free_over_cents: fc.option(fc.integer({ min: 0, max: 10_000 })),
      min_days: fc.integer({ min: 0, max: 5 }),
      span: fc.integer({ min: 0, max: 5 }),
    }),
    { selector: (rate) => `${rate.region} ${rate.service}`, minLength: 1, maxLength: 3 },
  )
  .map((list) => list.map(({ span, ...rate }) => ({ ...rate, max_days: rate.min_days + span })));
/** A SKU no listing has: plain, or of up to 64 characters beyond ASCII (astral ones counted once). */
type Fresh = "fresh" | "unicode";
const freshSku = fc.constantFrom<Fresh>("fresh", "fresh", "unicode");
const newSku = (kind: Fresh) => (kind === "unicode" ? `Größe ✓ 𝄞 ${randomBytes(4).toString("hex")} ${"é".repeat(42)}` : uniqueSku("M"));

/** A template name as sent (sometimes with spaces around it) and as stored (trimmed). */
const templateName = fc.tuple(fc.constantFrom("Standard", "Express", "Bulky", "Zone 2"), fc.nat({ max: 999 })).map(([n, i]) => `${n} ${i}`);

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/** One command: its label (shown in a counterexample), when it applies, what it does. */
class Step implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly applies: (m: Readonly<Model>) => boolean,
    readonly action: (m: Model, r: Real) => Promise<void>,
  ) {}
  check(m: Readonly<Model>): boolean {
    return this.applies(m);
  }
  async run(m: Model, r: Real): Promise<void> {
    await this.action(m, r);
    await afterCommand(m, r);
  }
  toString(): string {
    return this.label;
  }
}
const always = () => true;
const hasListings = (m: Readonly<Model>) => m.listings.length > 0;
/** An "own" listing target needs a listing in the model; another store's or an unknown id does not. */
const reaches = (t: Target) => (m: Readonly<Model>) => typeof t !== "object" || m.listings.length > 0;

// Create a listing ---------------------------------------------------------------------------

/** Ways to break a create body: what the API must answer for each. */
const CREATE_BREAKS: Record<string, { apply: (body: Record<string, unknown>) => void; failure: Failure }> = {
  unknown_field: { apply: (b) => (b.colour = "red"), failure: invalid("colour") },
  price_zero: { apply: (b) => (b.price_cents = 0), failure: invalid("price_cents") },
  price_string: { apply: (b) => (b.price_cents = "12"), failure: invalid("price_cents") },
  price_too_high: { apply: (b) => (b.price_cents = 100_000_001), failure: invalid("price_cents") },
  sku_empty: { apply: (b) => (b.sku = ""), failure: invalid("sku") },
  sku_too_long: { apply: (b) => (b.sku = "S".repeat(65)), failure: invalid("sku") },
  sku_missing: { apply: (b) => delete b.sku, failure: missing("sku") },
  quantity_negative: { apply: (b) => (b.quantity = -1), failure: invalid("quantity") },
  quantity_fraction: { apply: (b) => (b.quantity = 2.5), failure: invalid("quantity") },
  quantity_too_high: { apply: (b) => (b.quantity = QUANTITY_MAX + 1), failure: invalid("quantity") },
  condition_unknown: { apply: (b) => (b.condition = "mint"), failure: invalid("condition") },
  currency_eur: { apply: (b) => (b.currency = "EUR"), failure: invalid("currency") },
  backorder_string: { apply: (b) => (b.allow_backorder = "yes"), failure: invalid("allow_backorder") },
  no_product: { apply: (b) => delete b.product_id, failure: missing("product_id") },
  two_products: { apply: (b) => (b.gtin = ids.productGtin), failure: invalid("gtin") },
  list_price_below: { apply: (b) => (b.list_price_cents = (b.price_cents as number) - 1), failure: invalid("list_price_cents") },
};

const createListing = fc
  .record({
    product: fc.constantFrom("product_id", "gtin", "new", "unknown_gtin"),
    sku: fc.oneof({ weight: 6, arbitrary: freshSku }, { weight: 1, arbitrary: fc.nat().map((taken) => ({ taken })) }),
    condition,
    price,
    listPriceExtra: fc.option(fc.integer({ min: 0, max: 5_000 })),
    quantity: fc.option(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(QUANTITY_MAX))),
    backorder: fc.option(fc.boolean()),
    template: fc.option(templateRef),
    broken: sometimes(fc.constantFrom(...Object.keys(CREATE_BREAKS)), 4),
    idem: fc.boolean(),
  })
  .map((p) => new Step(`create ${JSON.stringify(p)}`, always, async (m, r) => {
    const existingSku = typeof p.sku === "object" && m.listings.length > 0 ? m.listings[p.sku.taken % m.listings.length]!.sku : undefined;
    const sku = existingSku ?? newSku(p.sku as Fresh);
    const template = p.template === null ? undefined : templateId(m, p.template) ?? undefined;
    const body: Record<string, unknown> = { sku, condition: p.condition, price_cents: p.price };
    if (p.product === "product_id") body.product_id = ids.productId;
    if (p.product === "gtin") body.gtin = ids.productGtin;
    if (p.product === "unknown_gtin") body.gtin = "00000000";
    if (p.product === "new") body.product = { title: `Model product ${randomBytes(4).toString("hex")}`, category: categorySlug };
    if (p.listPriceExtra !== null) body.list_price_cents = p.price + p.listPriceExtra;
    if (p.quantity !== null) body.quantity = p.quantity;
    if (p.backorder !== null) body.allow_backorder = p.backorder;
    if (template !== undefined) body.shipping_template_id = template;
    let failure: Failure | undefined;
    if (p.broken) {
      // Breaks are checked by the schema, before anything else: keep the rest of the body valid.
      if (p.broken === "no_product" || p.broken === "two_products") {
        delete body.gtin;
        delete body.product;
        body.product_id = ids.productId;
      }
      if ((body.list_price_cents as number) > PRICE_MAX) delete body.list_price_cents;
      CREATE_BREAKS[p.broken]!.apply(body);
      failure = CREATE_BREAKS[p.broken]!.failure;
    } else if (p.price + (p.listPriceExtra ?? 0) > PRICE_MAX) {
      failure = invalid("list_price_cents");
    } else if (p.product === "unknown_gtin") {
      failure = { status: 400, type: "invalid_request_error", code: "product_not_found", param: "gtin" };
    } else if (template !== undefined && !isOwnTemplate(m, template)) {
      failure = templateNotFound("shipping_template_id");
    } else if (existingSku !== undefined) {
      failure = skuTaken;
    }
    const res = await write(m, r, { method: "POST", path: "/listings", body, idem: p.idem, otherBody: { ...body, sku: uniqueSku("M") } }, failure ?? 201);
    if (failure) return;
    const got = res.json.data as Listing;
    const expected: Listing = {
      id: got.id,
      object: "listing",
      product_id: p.product === "new" ? got.product_id : ids.productId,
      product_slug: p.product === "new" ? got.product_slug : "fixture-mixed-offers",
      sku,
      condition: p.condition,
      price_cents: p.price,
      list_price_cents: p.price + (p.listPriceExtra ?? 0),
      currency: "USD",
      quantity: p.quantity ?? 0,
      allow_backorder: p.backorder ?? false,
      shipping_template_id: template?.toLowerCase() ?? null,
      status: "draft",
      created_at: got.created_at,
      updated_at: got.created_at,
      published_at: null,
    };
    expect(m.listings.some((l) => l.id === got.id)).toBe(false);
    acceptListing(m, expected, got, false);
    m.stock.set(got.id, { rows: 0, initial: expected.quantity });
    await verifyListings(m, r, [got.id]);
  }));

// Update a listing (PATCH) --------------------------------------------------------------------

const PATCH_BREAKS: Record<string, { apply: (body: Record<string, unknown>) => void; failure: Failure }> = {
  unknown_field: { apply: (b) => (b.status = "active"), failure: invalid("status") },
  price_negative: { apply: (b) => (b.price_cents = -5), failure: invalid("price_cents") },
  quantity_fraction: { apply: (b) => (b.quantity = 1.5), failure: invalid("quantity") },
  sku_empty: { apply: (b) => (b.sku = ""), failure: invalid("sku") },
  template_number: { apply: (b) => (b.shipping_template_id = 42), failure: invalid("shipping_template_id") },
  currency: { apply: (b) => (b.currency = "USD"), failure: invalid("currency") },
};

const updateListing = fc
  .record({
    target,
    sku: fc.option(fc.oneof(freshSku, fc.nat().map((taken) => ({ taken })))),
    condition: fc.option(condition),
    price: fc.option(price),
    listPrice: fc.option(price),
    quantity: fc.option(fc.integer({ min: 0, max: 60 })),
    backorder: fc.option(fc.boolean()),
    template: fc.option(templateRef),
    broken: sometimes(fc.constantFrom(...Object.keys(PATCH_BREAKS)), 6),
    idem: fc.boolean(),
  })
  .map((p) => new Step(`update ${JSON.stringify(p)}`, reaches(p.target), async (m, r) => {
    const listing = ownListing(m, p.target);
    const body: Record<string, unknown> = {};
    if (p.sku !== null) body.sku = typeof p.sku !== "object" || m.listings.length === 0 ? newSku(typeof p.sku === "object" ? "fresh" : p.sku) : m.listings[p.sku.taken % m.listings.length]!.sku;
    if (p.condition !== null) body.condition = p.condition;
    if (p.price !== null) body.price_cents = p.price;
    if (p.listPrice !== null) body.list_price_cents = p.listPrice;
    if (p.quantity !== null) body.quantity = p.quantity;
    if (p.backorder !== null) body.allow_backorder = p.backorder;
    const template = p.template === null ? undefined : templateId(m, p.template);
    if (template !== undefined) body.shipping_template_id = template;

    // What the API must answer, in the order it checks.
    const next = listing && { ...listing };
    if (next) {
      if (typeof body.sku === "string") next.sku = body.sku;
      if (p.condition !== null) next.condition = p.condition;
      if (p.price !== null) next.price_cents = p.price;
      if (p.listPrice !== null) next.list_price_cents = p.listPrice;
      if (p.quantity !== null) next.quantity = p.quantity;
      if (p.backorder !== null) next.allow_backorder = p.backorder;
      if (template !== undefined) next.shipping_template_id = template?.toLowerCase() ?? null;
    }
    let failure: Failure | undefined;
    if (p.broken) {
      PATCH_BREAKS[p.broken]!.apply(body);
      failure = PATCH_BREAKS[p.broken]!.failure;
    } else if (!listing || !next) failure = listingNotFound();
    else if (listing.status === "archived") failure = archived();
    else if (next.list_price_cents < next.price_cents) failure = invalid(p.listPrice !== null ? "list_price_cents" : "price_cents");
    else if (template === null && listing.status !== "draft") failure = invalid("shipping_template_id");
    else if (typeof template === "string" && !isOwnTemplate(m, template)) failure = templateNotFound("shipping_template_id");
    else if (next.sku !== listing.sku && m.listings.some((l) => l.sku === next.sku)) failure = skuTaken;

    const other = { ...body, condition: body.condition === "used" ? "new" : "used" };
    const res = await write(m, r, { method: "PATCH", path: `/listings/${listingPath(m, p.target)}`, body, idem: p.idem, otherBody: other }, failure ?? 200);
    if (failure || !listing || !next) return;
    const changed = (Object.keys(next) as (keyof Listing)[]).some((k) => next[k] !== listing[k]);
    if (next.quantity !== listing.quantity) m.stock.get(listing.id)!.rows++;
    acceptListing(m, next, res.json.data, changed);
    await verifyListings(m, r, [listing.id]);
  }));

// Publish and status ---------------------------------------------------------------------------

const publishListing = fc.record({ target, idem: fc.boolean() }).map((p) => new Step(`publish ${JSON.stringify(p)}`, reaches(p.target), async (m, r) => {
  const listing = ownListing(m, p.target);
  let failure: Failure | undefined;
  if (!listing) failure = listingNotFound();
  else if (listing.status !== "draft") failure = transition;
  else if (!listing.shipping_template_id) failure = { status: 400, type: "invalid_request_error", code: "listing_incomplete", param: "shipping_template_id" };
  const res = await write(m, r, { method: "POST", path: `/listings/${listingPath(m, p.target)}/publish`, idem: p.idem }, failure ?? 200);
  if (failure) {
    if (failure === transition) expect(res.json.error.message).toContain(`is ${listing!.status}`);
    return;
  }
  const got = res.json.data as Listing;
  // published_at is set at the first publish (in the same transaction as updated_at) and kept after.
  const publishedAt = listing!.published_at ?? got.updated_at;
  acceptListing(m, { ...listing!, status: "active", published_at: publishedAt }, got, true);
  await verifyListings(m, r, [listing!.id]);
}));

const setStatus = fc
  .record({ target, to: fc.oneof({ weight: 6, arbitrary: fc.constantFrom("active", "inactive", "archived") }, { weight: 1, arbitrary: fc.constant("draft") }), idem: fc.boolean() })
  .map((p) => new Step(`status ${JSON.stringify(p)}`, reaches(p.target), async (m, r) => {
    const listing = ownListing(m, p.target);
    const from = listing?.status;
    const allowed = from !== undefined && from !== "archived" && (p.to === "archived" || (from === "active" && p.to === "inactive") || (from === "inactive" && p.to === "active"));
    let failure: Failure | undefined;
    if (p.to === "draft") failure = invalid("status");
    else if (!listing) failure = listingNotFound();
    else if (!allowed) failure = transition;
    const other = { status: p.to === "archived" ? "inactive" : "archived" };
    const res = await write(m, r, { method: "POST", path: `/listings/${listingPath(m, p.target)}/status`, body: { status: p.to }, idem: p.idem, otherBody: other }, failure ?? 200);
    if (failure) {
      if (failure === transition) expect(res.json.error.message).toContain(`is ${from}`);
      return;
    }
    acceptListing(m, { ...listing!, status: p.to as Status }, res.json.data, true);
    await verifyListings(m, r, [listing!.id]);
  }));

// Inventory batch ------------------------------------------------------------------------------

type Op = { delta: number } | { set: number };
interface Line {
  target: Target | "not_a_uuid";
  upper: boolean;
  op: Op;
  expect: "none" | "right" | "wrong";
}
const line: fc.Arbitrary<Line> = fc.record({
  target: fc.oneof({ weight: 12, arbitrary: own as fc.Arbitrary<Line["target"]> }, { weight: 1, arbitrary: fc.constantFrom<Line["target"]>("other", "unknown", "not_a_uuid") }),
  upper: fc.boolean(),
  op: fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: -5, max: 10 }).map((delta) => ({ delta })) },
    { weight: 1, arbitrary: fc.constantFrom(-1_000, 999_999).map((delta) => ({ delta })) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 50 }).map((set) => ({ set })) },
  ),
  expect: fc.constantFrom("none", "none", "right", "wrong"),
});
const BATCH_BREAKS: Record<string, { apply: (line: Record<string, unknown>) => void; field: string; code: "parameter_invalid" | "parameter_missing" }> = {
  both: { apply: (l) => ("delta" in l ? (l.set_quantity = 1) : (l.delta = 1)), field: "set_quantity", code: "parameter_invalid" },
  neither: { apply: (l) => (delete l.delta, delete l.set_quantity), field: "delta", code: "parameter_missing" },
  unknown_field: { apply: (l) => (l.reason = "count"), field: "reason", code: "parameter_invalid" },
  fraction: { apply: (l) => (delete l.set_quantity, (l.delta = 0.5)), field: "delta", code: "parameter_invalid" },
  negative_expected: { apply: (l) => (l.expected_quantity = -1), field: "expected_quantity", code: "parameter_invalid" },
};

/** Lines of one batch; half the batches are "clean" (own listings, no stale count, nothing taken below zero), most of which apply. */
const lines = fc
  .record({
    clean: fc.boolean(),
    lines: fc.oneof({ weight: 8, arbitrary: fc.array(line, { minLength: 1, maxLength: 6 }) }, { weight: 1, arbitrary: fc.array(line, { minLength: 90, maxLength: 100 }) }),
  })
  .map(({ clean, lines }) =>
    clean
      ? lines.map((l): Line => ({
          ...l,
          target: typeof l.target === "object" ? l.target : { own: 0, upper: false },
          op: "delta" in l.op ? { delta: Math.abs(l.op.delta) % 1_000 } : l.op,
          expect: l.expect === "wrong" ? "right" : l.expect,
        }))
      : lines,
  );

const inventoryBatch = fc
  .record({
    lines,
    broken: sometimes(fc.record({ at: fc.nat(), how: fc.constantFrom(...Object.keys(BATCH_BREAKS)) }), 6),
    size: sometimes(fc.constantFrom(0, 101), 25),
    idem: fc.boolean(),
  })
  .map((p) => new Step(`batch ${JSON.stringify({ ...p, lines: p.lines.length > 6 ? `${p.lines.length} lines` : p.lines })}`, (m) => m.listings.length > 0 || p.lines.every((l) => typeof l.target !== "object"), async (m, r) => {
    const running = new Map(m.listings.map((l) => [l.id, l.quantity]));
    let failure: Failure | undefined;
    const answers: { listing_id: string; delta: number; quantity_after: number }[] = [];
    const body = p.lines.map((l, i) => {
      const listing = l.target === "not_a_uuid" ? undefined : ownListing(m, l.target);
      const id = listing?.id ?? (l.target === "other" ? ids.listingB : l.target === "not_a_uuid" ? "1 OR 1=1" : randomUUID());
      const out: Record<string, unknown> = { listing_id: l.upper ? id.toUpperCase() : id };
      const field = "delta" in l.op ? "delta" : "set_quantity";
      out[field] = "delta" in l.op ? l.op.delta : l.op.set;
      const held = listing ? running.get(listing.id)! : 0;
      if (l.expect === "right") out.expected_quantity = held;
      if (l.expect === "wrong") out.expected_quantity = held === 0 ? 1 : held - 1;
      if (failure) return out;
      const at = (f: string) => `adjustments[${i}].${f}`;
      if (!listing) failure = listingNotFound(at("listing_id"));
      else if (listing.status === "archived") failure = archived(at("listing_id"));
      else if (l.expect === "wrong") failure = { status: 409, type: "conflict_error", code: "stale_quantity", param: at("expected_quantity") };
      else {
        const after = "delta" in l.op ? held + l.op.delta : l.op.set;
        if (after < 0) failure = { status: 400, type: "invalid_request_error", code: "quantity_negative", param: at(field) };
        else if (after > QUANTITY_MAX) failure = invalid(at(field));
        else {
          running.set(listing.id, after);
          answers.push({ listing_id: listing.id, delta: after - held, quantity_after: after });
        }
      }
      return out;
    });
    let adjustments: unknown[] = body;
    if (p.size !== null) {
      adjustments = Array.from({ length: p.size }, (_, i) => body[i % body.length]);
      failure = invalid("adjustments");
    } else if (p.broken) {
      const i = p.broken.at % body.length;
      const broken = BATCH_BREAKS[p.broken.how]!;
      broken.apply(body[i]!);
      failure = { status: 400, type: "invalid_request_error", code: broken.code, param: `adjustments[${i}].${broken.field}` };
    }
    const request = { adjustments };
    const other = { adjustments: [...adjustments.slice(0, 99), { listing_id: randomUUID(), delta: 0 }] };
    const res = await write(m, r, { method: "POST", path: "/inventory/batch", body: request, idem: p.idem, otherBody: other }, failure ?? 200);
    if (failure) return;
    // One stock adjustment per line, in order; each line's delta and the quantity after it.
    expect(res.json.data.map((a: any) => ({ listing_id: a.listing_id, delta: a.delta, quantity_after: a.quantity_after }))).toEqual(answers);
    for (const a of res.json.data) expect(a).toMatchObject({ object: "stock_adjustment", reason: "batch" });
    const touched = new Set(answers.map((a) => a.listing_id));
    for (const id of touched) {
      const listing = m.listings.find((l) => l.id === id)!;
      m.stock.get(id)!.rows += answers.filter((a) => a.listing_id === id).length;
      const quantity = running.get(id)!;
      // A listing the batch leaves at its quantity is not rewritten.
      const changed = quantity !== listing.quantity;
      const got = (await call({ key: await keyA(r), method: "GET", path: `/listings/${id}` })).json.data;
      acceptListing(m, { ...listing, quantity }, got, changed);
    }
    await verifyListings(m, r, touched);
  }));

// Shipping templates ---------------------------------------------------------------------------

const TEMPLATE_BREAKS: Record<string, { apply: (body: Record<string, unknown>) => void; failure: Failure }> = {
  min_over_max: { apply: (b) => (b.rates = [{ region: "US", service: "standard", price_cents: 100, min_days: 5, max_days: 2 }]), failure: invalid("rates[0].min_days") },
  region_lowercase: { apply: (b) => (b.rates = [{ region: "usa", service: "standard", price_cents: 100, min_days: 1, max_days: 2 }]), failure: invalid("rates[0].region") },
  no_rates: { apply: (b) => (b.rates = []), failure: invalid("rates") },
  repeated_rate: {
    apply: (b) => (b.rates = [{ region: "*", service: "standard", price_cents: 1, min_days: 1, max_days: 2 }, { region: "*", service: "standard", price_cents: 2, min_days: 1, max_days: 2 }]),
    failure: invalid("rates[1]"),
  },
  handling_too_long: { apply: (b) => (b.handling_days = 31), failure: invalid("handling_days") },
  blank_name: { apply: (b) => (b.name = "   "), failure: invalid("name") },
  unknown_field: { apply: (b) => (b.currency = "USD"), failure: invalid("currency") },
};

const withDefaults = (list: Rate[]) => list.map((rate) => ({ ...rate, free_over_cents: rate.free_over_cents ?? null }));

/** A template answer: the contract's fields, the model's values; `updated_at` moves when a field was sent. */
function acceptTemplate(m: Model, expected: Template, got: Template, changed: boolean): void {
  expect(Object.keys(got).sort()).toEqual(["created_at", "handling_days", "id", "name", "object", "rates", "updated_at"]);
  const before = m.templates.find((t) => t.id === expected.id);
  if (before && changed) expect(got.updated_at >= before.updated_at).toBe(true);
  const next = { ...expected, updated_at: changed || !before ? got.updated_at : before.updated_at };
  expect(got).toEqual(next);
  if (before) Object.assign(before, next);
  else m.templates.push(next);
}

const createTemplate = fc
  .record({ name: templateName, pad: fc.boolean(), handling: fc.option(fc.integer({ min: 0, max: 30 })), rates, broken: sometimes(fc.constantFrom(...Object.keys(TEMPLATE_BREAKS)), 5), idem: fc.boolean() })
  .map((p) => new Step(`create template ${JSON.stringify(p)}`, always, async (m, r) => {
    const body: Record<string, unknown> = { name: p.pad ? `  ${p.name} ` : p.name, rates: p.rates.map((rate) => (rate.free_over_cents === null ? { ...rate, free_over_cents: undefined } : rate)) };
    if (p.handling !== null) body.handling_days = p.handling;
    const failure = p.broken ? TEMPLATE_BREAKS[p.broken]!.failure : undefined;
    if (p.broken) TEMPLATE_BREAKS[p.broken]!.apply(body);
    const res = await write(m, r, { method: "POST", path: "/shipping-templates", body, idem: p.idem, otherBody: { ...body, name: `${p.name} b` } }, failure ?? 201);
    if (failure) return;
    const got = res.json.data as Template;
    acceptTemplate(m, { id: got.id, object: "shipping_template", name: p.name, handling_days: p.handling ?? 1, rates: withDefaults(p.rates), created_at: got.created_at, updated_at: got.created_at }, got, false);
    expect(got.updated_at).toBe(got.created_at);
  }));

const updateTemplate = fc
  .record({
    which: fc.oneof({ weight: 6, arbitrary: own as fc.Arbitrary<TemplateRef> }, { weight: 1, arbitrary: fc.constantFrom<TemplateRef>("other", "unknown") }),
    name: fc.option(templateName),
    pad: fc.boolean(),
    handling: fc.option(fc.integer({ min: 0, max: 30 })),
    rates: fc.option(rates),
    broken: sometimes(fc.constantFrom(...Object.keys(TEMPLATE_BREAKS).filter((k) => k !== "no_rates")), 6),
    idem: fc.boolean(),
  })
  .map((p) => new Step(`update template ${JSON.stringify(p)}`, (m) => typeof p.which !== "object" || m.templates.length > 0, async (m, r) => {
    const id = templateId(m, p.which) ?? randomUUID();
    const template = m.templates.find((t) => t.id === id.toLowerCase());
    const body: Record<string, unknown> = {};
    if (p.name !== null) body.name = p.pad ? `  ${p.name} ` : p.name;
    if (p.handling !== null) body.handling_days = p.handling;
    if (p.rates !== null) body.rates = p.rates;
    let failure: Failure | undefined;
    if (p.broken) {
      TEMPLATE_BREAKS[p.broken]!.apply(body);
      failure = TEMPLATE_BREAKS[p.broken]!.failure;
    } else if (!template) failure = templateNotFound();
    const res = await write(m, r, { method: "PATCH", path: `/shipping-templates/${id}`, body, idem: p.idem, otherBody: { ...body, handling_days: p.handling === 3 ? 4 : 3 } }, failure ?? 200);
    if (failure || !template) return;
    const next = { ...template, name: p.name ?? template.name, handling_days: p.handling ?? template.handling_days, rates: p.rates ? withDefaults(p.rates) : template.rates };
    acceptTemplate(m, next, res.json.data, Object.keys(body).length > 0);
  }));

// Idempotent retries ---------------------------------------------------------------------------

const hasWrites = (m: Readonly<Model>) => m.writes.length > 0;

const retry = fc.nat().map((pick) => new Step(`retry write #${pick}`, hasWrites, async (m, r) => {
  const w = m.writes[pick % m.writes.length]!;
  const before = await fingerprint(r.storeId);
  const res = await call({ key: w.key, method: w.method, path: w.path, body: w.body, idem: w.idem });
  // The first answer again (its status and data), under this request's own id; nothing done twice.
  expect(res.status).toBe(w.status);
  expect(res.headers.get("idempotent-replayed")).toBe("true");
  expect(res.json.data).toEqual(w.data);
  expect(res.json.meta.request_id).not.toBe(w.requestId);
  expect(await fingerprint(r.storeId), "a replay changed nothing").toBe(before);
}));

const reuseKey = fc.record({ pick: fc.nat(), samePath: fc.boolean() }).map((p) => new Step(`reuse key of write #${p.pick} ${p.samePath ? "with another body" : "on another path"}`, hasWrites, async (m, r) => {
  const w = m.writes[p.pick % m.writes.length]!;
  const before = await fingerprint(r.storeId);
  const other: Call =
    p.samePath && w.otherBody !== undefined
      ? { key: w.key, method: w.method, path: w.path, body: w.otherBody, idem: w.idem }
      : { key: w.key, method: "POST", path: "/inventory/batch", body: { adjustments: [{ listing_id: randomUUID(), delta: 0 }] }, idem: w.idem };
  expectErrorEnvelope(await call(other), keyReused);
  expect(await fingerprint(r.storeId), "a reused key changed nothing").toBe(before);
}));

/**
 * The same batch sent 2-4 times at once with one Idempotency-Key (a client retrying before its
 * first attempt answered): exactly one applies; each other copy is its replay or a 409
 * `idempotency_key_in_use` (with Retry-After), whichever the timing gives; the stock moves once.
 */
const canTake = (l: Listing, delta: number) => l.status !== "archived" && l.quantity + delta <= QUANTITY_MAX;
const concurrentCopies = fc
  .record({ copies: fc.integer({ min: 2, max: 4 }), pick: fc.nat(), delta: fc.integer({ min: 1, max: 9 }) })
  .map((p) => new Step(`the same batch sent ${p.copies} times at once ${JSON.stringify(p)}`, (m) => m.listings.some((l) => canTake(l, p.delta)), async (m, r) => {
    const open = m.listings.filter((l) => canTake(l, p.delta));
    const listing = open[p.pick % open.length]!;
    const key = await keyA(r);
    const c: Call = { key, method: "POST", path: "/inventory/batch", body: { adjustments: [{ listing_id: listing.id, delta: p.delta }] }, idem: randomUUID() };
    const answers = await Promise.all(Array.from({ length: p.copies }, () => call(c)));
    const applied = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") === null);
    expect(applied, answers.map((a) => `${a.status} ${a.text.slice(0, 200)}`).join("\n")).toHaveLength(1);
    const first = applied[0]!;
    expect(first.json.data).toMatchObject([{ listing_id: listing.id, delta: p.delta, quantity_after: listing.quantity + p.delta }]);
    for (const other of answers.filter((a) => a !== first)) {
      if (other.status === 200) {
        expect(other.headers.get("idempotent-replayed")).toBe("true");
        expect(other.json.data).toEqual(first.json.data);
      } else {
        expectErrorEnvelope(other, { status: 409, type: "idempotency_error", code: "idempotency_key_in_use", param: "Idempotency-Key" });
        expect(other.headers.get("retry-after")).toBeTruthy();
      }
    }
    m.writes.push({ key, idem: c.idem!, method: c.method, path: c.path, body: c.body, status: 200, data: first.json.data, requestId: first.json.meta.request_id });
    m.stock.get(listing.id)!.rows++;
    const got = (await call({ key: await keyA(r), method: "GET", path: `/listings/${listing.id}` })).json.data;
    acceptListing(m, { ...listing, quantity: listing.quantity + p.delta }, got, true);
  }));

/** The key of a rejected write, on a new valid request: it runs (201), as nothing was stored for the key. */
const reuseFailedKey = fc.record({ pick: fc.nat(), name: templateName }).map((p) => new Step(`new request with the key of rejected write #${p.pick}`, (m) => m.failedKeys.length > 0, async (m) => {
  const { key, idem } = m.failedKeys[p.pick % m.failedKeys.length]!;
  m.failedKeys = m.failedKeys.filter((f) => f.idem !== idem);
  const body = { name: p.name, rates: [{ region: "*", service: "standard", price_cents: 999, min_days: 3, max_days: 9 }] };
  const res = await call({ key, method: "POST", path: "/shipping-templates", body, idem });
  expect(res.status, res.text.slice(0, 300)).toBe(201);
  expect(res.headers.get("idempotent-replayed")).toBeNull();
  const got = res.json.data as Template;
  acceptTemplate(m, { id: got.id, object: "shipping_template", name: p.name, handling_days: 1, rates: withDefaults(body.rates as Rate[]), created_at: got.created_at, updated_at: got.created_at }, got, false);
  m.writes.push({ key, idem, method: "POST", path: "/shipping-templates", body, status: 201, data: got, requestId: res.json.meta.request_id, otherBody: { ...body, name: `${p.name} b` } });
}));

// Reads ----------------------------------------------------------------------------------------

const getListing = target.map((t) => new Step(`get ${JSON.stringify(t)}`, reaches(t), async (m, r) => {
  const listing = ownListing(m, t);
  const res = await call({ key: await keyA(r), method: "GET", path: `/listings/${listingPath(m, t)}` });
  if (listing) {
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual(listing);
  } else expectErrorEnvelope(res, listingNotFound());
}));

/** Paging asked for wrongly: a 400 naming the parameter. */
const BAD_PAGING: Record<string, { query: string; param: string }> = {
  limit_zero: { query: "limit=0", param: "limit" },
  limit_too_high: { query: "limit=101", param: "limit" },
  limit_word: { query: "limit=ten", param: "limit" },
  cursor_forged: { query: "cursor=eyJ4IjoxfQ", param: "cursor" },
  status_unknown: { query: "status=deleted", param: "status" },
};

const listListings = fc
  .record({
    limit: fc.integer({ min: 1, max: 10 }),
    status: fc.option(fc.constantFrom<Status>("draft", "active", "inactive", "archived")),
    bad: sometimes(fc.constantFrom(...Object.keys(BAD_PAGING)), 6),
  })
  .map((p) => new Step(`list ${JSON.stringify(p)}`, always, async (m, r) => {
    if (p.bad) {
      const { query, param } = BAD_PAGING[p.bad]!;
      expectErrorEnvelope(await call({ key: await keyA(r), method: "GET", path: `/listings?${query}` }), invalid(param));
      return;
    }
    await verifyList(m, r, p.limit, p.status ?? undefined);
  }));

const listTemplates = fc.integer({ min: 1, max: 5 }).map((limit) => new Step(`list templates limit ${limit}`, always, async (m, r) => {
  const expected = [...m.templates].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1));
  const got: Template[] = [];
  let cursor: string | null = null;
  for (let page = 0; page === 0 || cursor; page++) {
    expect(page).toBeLessThanOrEqual(expected.length + 1);
    const res = await call({ key: await keyA(r), method: "GET", path: `/shipping-templates?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}` });
    expect(res.status).toBe(200);
    got.push(...res.json.data);
    cursor = res.json.next_cursor;
  }
  expect(got).toEqual(expected);
}));

// Races ----------------------------------------------------------------------------------------

/**
 * Two writes at once whose outcome depends on which runs first. Either order is fine; the answers
 * must agree with one of them (never a 5xx, never both winning) and the store must then hold
 * what that order leaves.
 */
type Race = "same_sku_patch" | "same_sku_create" | "publish_twice" | "archive_and_patch";
const race = fc
  .record({ kind: fc.constantFrom<Race>("same_sku_patch", "same_sku_create", "publish_twice", "archive_and_patch"), a: fc.nat(), b: fc.nat(), price })
  .map((p) => new Step(`race ${JSON.stringify(p)}`, (m) => m.listings.some((l) => l.status !== "archived"), async (m, r) => {
    const open = m.listings.filter((l) => l.status !== "archived");
    const x = open[p.a % open.length]!;
    const y = open[p.b % open.length]!;
    const key = await keyA(r);
    const send = (c: Omit<Call, "key">) => call({ ...c, key });
    const winnerOf = (answers: SellerResponse[], ok: number, failure: Failure) => {
      const won = answers.filter((a) => a.status === ok);
      expect(won, answers.map((a) => `${a.status} ${a.text.slice(0, 200)}`).join("\n")).toHaveLength(1);
      for (const lost of answers.filter((a) => a.status !== ok)) expectErrorEnvelope(lost, failure);
      return answers.indexOf(won[0]!);
    };
    const refresh = async (listing: Listing, values: Partial<Listing>) => {
      const got = (await send({ method: "GET", path: `/listings/${listing.id}` })).json.data;
      acceptListing(m, { ...listing, ...values }, got, true);
    };
    switch (p.kind) {
      case "same_sku_patch": {
        if (x === y) return;
        const sku = uniqueSku("R");
        const answers = await Promise.all([x, y].map((l) => send({ method: "PATCH", path: `/listings/${l.id}`, body: { sku } })));
        await refresh([x, y][winnerOf(answers, 200, skuTaken)]!, { sku });
        break;
      }
      case "same_sku_create": {
        const body = { product_id: ids.productId, sku: uniqueSku("R"), condition: "new", price_cents: p.price };
        const answers = await Promise.all([0, 1].map(() => send({ method: "POST", path: "/listings", body })));
        const got = answers[winnerOf(answers, 201, skuTaken)]!.json.data as Listing;
        const expected: Listing = {
          ...got,
          product_id: ids.productId,
          product_slug: "fixture-mixed-offers",
          sku: body.sku,
          condition: "new",
          price_cents: p.price,
          list_price_cents: p.price,
          quantity: 0,
          allow_backorder: false,
          shipping_template_id: null,
          status: "draft",
          updated_at: got.created_at,
          published_at: null,
        };
        acceptListing(m, expected, got, false);
        m.stock.set(got.id, { rows: 0, initial: 0 });
        break;
      }
      case "publish_twice": {
        const answers = await Promise.all([0, 1].map(() => send({ method: "POST", path: `/listings/${x.id}/publish` })));
        if (x.status !== "draft") {
          for (const a of answers) expectErrorEnvelope(a, transition);
        } else if (!x.shipping_template_id) {
          for (const a of answers) expectErrorEnvelope(a, { status: 400, type: "invalid_request_error", code: "listing_incomplete", param: "shipping_template_id" });
        } else {
          const got = answers[winnerOf(answers, 200, transition)]!.json.data as Listing;
          acceptListing(m, { ...x, status: "active", published_at: got.updated_at }, got, true);
        }
        break;
      }
      case "archive_and_patch": {
        const [archivedAnswer, patched] = await Promise.all([
          send({ method: "POST", path: `/listings/${x.id}/status`, body: { status: "archived" } }),
          send({ method: "PATCH", path: `/listings/${x.id}`, body: { price_cents: p.price, list_price_cents: Math.max(p.price, x.list_price_cents) } }),
        ]);
        expect(archivedAnswer.status, archivedAnswer.text.slice(0, 300)).toBe(200);
        // The PATCH ran first (200, and the archived listing has its price) or second (409, nothing changed).
        if (patched.status === 200) {
          expect(archivedAnswer.json.data.price_cents).toBe(p.price);
          await refresh(x, { status: "archived", price_cents: p.price, list_price_cents: Math.max(p.price, x.list_price_cents) });
        } else {
          expectErrorEnvelope(patched, archived());
          expect(archivedAnswer.json.data.price_cents).toBe(x.price_cents);
          await refresh(x, { status: "archived" });
        }
        break;
      }
    }
  }));

// Orders ---------------------------------------------------------------------------------------

/** A buyer's order of one of the store's listings; sometimes with a line of store B too, which the store never sees. */
const placeOrder = fc.boolean().map((shared) => new Step(`place order ${shared ? "(with store B)" : ""}`, hasListings, async (m, r) => {
  const parts = [{ store: r.storeSlug, lines: [{ quantity: 1 }] }, ...(shared ? [{ store: "fixture-store-b", lines: [{ quantity: 2 }] }] : [])];
  const order = await createTestOrder(app.pool, { userId: null, email: "model-buyer@example.com", parts });
  m.orders.push({ id: order.id, number: order.number, status: "placed", carrier: null, tracking_number: null });
  if (shared) m.shared.add(order.id);
}));

/** Ways to break a ship body: what the API must answer for each (before it looks for the order). */
const SHIP_BREAKS: Record<string, { apply: (body: Record<string, unknown>) => void; failure: Failure }> = {
  blank: { apply: (b) => (b.tracking_number = "  "), failure: missing("tracking_number") },
  missing: { apply: (b) => delete b.tracking_number, failure: missing("tracking_number") },
  too_long: { apply: (b) => (b.tracking_number = "9".repeat(65)), failure: invalid("tracking_number") },
  nul: { apply: (b) => (b.tracking_number = "1Z\u0000"), failure: invalid("tracking_number") },
  carrier_unicode: { apply: (b) => (b.carrier = "Почта"), failure: invalid("carrier") },
  unknown_field: { apply: (b) => (b.note = "leave at door"), failure: invalid("note") },
};

const orderNotFound: Failure = { status: 404, type: "not_found_error", code: "order_not_found" };
const orderTransition: Failure = { status: 409, type: "state_error", code: "order_transition_invalid" };

/** Ways to break a cancel body. */
const CANCEL_BREAKS: Record<string, { apply: (body: Record<string, unknown>) => void; failure: Failure }> = {
  missing: { apply: (b) => delete b.reason, failure: missing("reason") },
  unknown: { apply: (b) => (b.reason = "changed_my_mind"), failure: invalid("reason") },
  extra: { apply: (b) => (b.refund_cents = 1), failure: invalid("refund_cents") },
};

/** Ship, deliver or cancel: the store's own part (by number or id), store B's key on it, or an order that does not exist. */
const fulfil = fc
  .record({
    pick: fc.nat(),
    action: fc.constantFrom("ship", "ship", "deliver", "cancel"),
    target: fc.constantFrom("own", "own", "own", "own_by_id", "store_b_key", "unknown"),
    carrier: fc.option(fc.constantFrom("UPS", " DHL Express ", "USPS")),
    broken: sometimes(fc.constantFrom(...Object.keys(SHIP_BREAKS)), 5),
    reason: fc.constantFrom("out_of_stock", "cannot_ship", "buyer_request", "other"),
    idem: fc.boolean(),
  })
  .map((p) => new Step(`fulfil ${JSON.stringify(p)}`, (m) => m.orders.length > 0, async (m, r) => {
    const order = m.orders[p.pick % m.orders.length]!;
    const ref = p.target === "unknown" ? "M-999999999" : p.target === "own_by_id" ? order.id : order.number;
    const tracking = `T-${p.pick % 100_000}`;
    const body: Record<string, unknown> | undefined =
      p.action === "ship" ? { tracking_number: ` ${tracking} `, ...(p.carrier ? { carrier: p.carrier } : {}) } : p.action === "cancel" ? { reason: p.reason } : undefined;
    const breaks = p.action === "ship" ? SHIP_BREAKS : p.action === "cancel" ? CANCEL_BREAKS : {};
    const broken = p.broken ? (breaks[p.broken] ?? null) : null;
    if (broken) broken.apply(body!);
    const path = `/orders/${ref}/${p.action}`;
    if (p.target === "store_b_key") {
      // Store B moves its own part of a shared order: only orders of the run's store alone here.
      if (m.shared.has(order.id)) return;
      const before = await fingerprint(r.storeId);
      const res = await call({ key: r.keyB, method: "POST", path, body });
      expectErrorEnvelope(res, broken ? broken.failure : orderNotFound);
      expect(await fingerprint(r.storeId), "another store's key changed nothing").toBe(before);
      return;
    }
    const from = p.action === "deliver" ? "shipped" : "placed";
    const expected: Failure | number = broken ? broken.failure : p.target === "unknown" ? orderNotFound : order.status !== from ? orderTransition : 200;
    const res = await write(m, r, { method: "POST", path, body, idem: p.idem }, expected);
    if (expected !== 200) return;
    if (p.action === "ship") Object.assign(order, { status: "shipped", tracking_number: tracking, carrier: p.carrier?.trim() ?? null });
    else if (p.action === "cancel") order.status = "cancelled";
    else order.status = "delivered";
    expect(res.json.data).toMatchObject(order);
    if (p.action === "cancel") expect(res.json.data).toMatchObject({ cancel_reason: p.reason, refund_cents: res.json.data.total_cents });
    const read = await call({ key: await keyA(r), method: "GET", path: `/orders/${order.number}` });
    expect(read.json.data).toEqual(res.json.data);
  }));

/** GET /orders, paged: exactly the model's parts, newest first. */
const listOrders = fc.integer({ min: 1, max: 7 }).map((limit) => new Step(`list orders (limit ${limit})`, always, async (m, r) => {
  const got: { id: string; number: string; status: string; carrier: string | null; tracking_number: string | null; created_at: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page === 0 || cursor; page++) {
    expect(page, "pages").toBeLessThanOrEqual(m.orders.length + 1);
    const res = await call({ key: await keyA(r), method: "GET", path: `/orders?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}` });
    expect(res.status).toBe(200);
    got.push(...res.json.data);
    cursor = res.json.next_cursor;
  }
  const newestFirst = [...got].sort((x, y) => (x.created_at === y.created_at ? (x.id < y.id ? 1 : -1) : x.created_at < y.created_at ? 1 : -1));
  expect(got.map((o) => o.id)).toEqual(newestFirst.map((o) => o.id));
  const pick = ({ id, number, status, carrier, tracking_number }: (typeof got)[number]) => ({ id, number, status, carrier, tracking_number });
  expect(got.map(pick).sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([...m.orders].sort((x, y) => (x.id < y.id ? -1 : 1)));
}));

// Another store's key --------------------------------------------------------------------------

const otherStore = fc
  .record({ pick: fc.nat(), action: fc.constantFrom("get", "patch", "publish", "status", "batch", "template", "list") })
  .map((p) => new Step(`store B ${JSON.stringify(p)}`, hasListings, async (m, r) => {
    const listing = m.listings[p.pick % m.listings.length]!;
    const before = await fingerprint(r.storeId);
    const as = (c: Omit<Call, "key">) => call({ ...c, key: r.keyB });
    switch (p.action) {
      case "get":
        expectErrorEnvelope(await as({ method: "GET", path: `/listings/${listing.id}` }), listingNotFound());
        break;
      case "patch":
        expectErrorEnvelope(await as({ method: "PATCH", path: `/listings/${listing.id}`, body: { price_cents: 1 } }), listingNotFound());
        break;
      case "publish":
        expectErrorEnvelope(await as({ method: "POST", path: `/listings/${listing.id}/publish` }), listingNotFound());
        break;
      case "status":
        expectErrorEnvelope(await as({ method: "POST", path: `/listings/${listing.id}/status`, body: { status: "archived" } }), listingNotFound());
        break;
      case "batch": {
        const res = await as({ method: "POST", path: "/inventory/batch", body: { adjustments: [{ listing_id: listing.id, set_quantity: 0 }] } });
        expectErrorEnvelope(res, listingNotFound("adjustments[0].listing_id"));
        break;
      }
      case "template": {
        const id = m.templates[p.pick % Math.max(1, m.templates.length)]?.id ?? randomUUID();
        expectErrorEnvelope(await as({ method: "PATCH", path: `/shipping-templates/${id}`, body: { name: "Taken over" } }), templateNotFound());
        break;
      }
      case "list": {
        const res = await as({ method: "GET", path: "/listings?limit=100&status=" + listing.status });
        expect(res.status).toBe(200);
        const mine = new Set(m.listings.map((l) => l.id));
        expect(res.json.data.filter((l: Listing) => mine.has(l.id))).toEqual([]);
        break;
      }
    }
    expect(await fingerprint(r.storeId), "another store's key changed nothing").toBe(before);
    await verifyListings(m, r, [listing.id]);
  }));

const COMMANDS = [
  createListing,
  createListing,
  createListing,
  updateListing,
  updateListing,
  publishListing,
  publishListing,
  setStatus,
  setStatus,
  inventoryBatch,
  inventoryBatch,
  inventoryBatch,
  createTemplate,
  updateTemplate,
  retry,
  retry,
  reuseKey,
  reuseFailedKey,
  concurrentCopies,
  race,
  getListing,
  listListings,
  listTemplates,
  otherStore,
  placeOrder,
  placeOrder,
  placeOrder,
  fulfil,
  fulfil,
  fulfil,
  fulfil,
  fulfil,
  fulfil,
  listOrders,
];

/** A run: a store of its own (slug `model-...`) with keys of its own and one shipping template, in the model too. */
async function setup(): Promise<{ model: Model; real: Real }> {
  runsStarted++;
  const slug = `model-${randomBytes(6).toString("hex")}`;
  const storeId = (await app.pool.query<{ id: string }>("INSERT INTO stores (slug, name) VALUES ($1, $2) RETURNING id", [slug, `Model store ${slug}`])).rows[0]!.id;
  const keyB = (await createTestKey(app.pool, "fixture-store-b", SCOPES, "model B")).key;
  const real: Real = { storeId, storeSlug: slug, keyA: { key: (await createTestKey(app.pool, slug, SCOPES, "model")).key, uses: 0 }, keyB, commands: 0 };
  // One template to start from, so that listings can be published from the first commands on.
  const rate = { region: "US", service: "standard", price_cents: 499, free_over_cents: null, min_days: 2, max_days: 4 };
  const res = await call({ key: await keyA(real), method: "POST", path: "/shipping-templates", body: { name: "Standard", rates: [rate] } });
  expect(res.status).toBe(201);
  return { model: { listings: [], orders: [], shared: new Set(), stock: new Map(), templates: [res.json.data], writes: [], failedKeys: [] }, real };
}

describe(`the seller API against a model (fast-check seed ${SEED}, ${RUNS} runs of up to ${MAX_COMMANDS} commands)`, () => {
  it("every command answers what the model predicts; a rejected write changes nothing; a retry never doubles", async () => {
    const started = Date.now();
    try {
      await fc.assert(
        fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: MAX_COMMANDS, size: "max" }), async (commands) => {
          await fc.asyncModelRun(setup, commands);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    } catch (err) {
      throw new Error(`seller model failed (SELLER_MODEL_SEED=${SEED}, SELLER_MODEL_RUNS=${RUNS}): ${(err as Error).message}`, { cause: err });
    } finally {
      const statuses = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `  ${k}: ${n}`);
      console.log(
        `[seller-model] ${EMBEDDED ? "embedded" : "PostgreSQL"} mode: ${runsStarted} runs, ${commandsRun} commands, ` +
          `${[...seen.values()].reduce((a, b) => a + b, 0)} requests (${rateLimited} rate limited) in ${Math.round((Date.now() - started) / 1000)} s\n${statuses.join("\n")}`,
      );
    }
  }, 900_000);
});
