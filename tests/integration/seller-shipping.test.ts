/**
 * decisions.md "Seller API": shipping templates. `GET /api/v1/shipping-templates` (listings:read),
 * `POST /api/v1/shipping-templates` (shipping:write, 201), `PATCH /api/v1/shipping-templates/:id`
 * (shipping:write). Template `{ id, object, name, handling_days, rates: [{ region, service,
 * price_cents, free_over_cents, min_days, max_days }], created_at, updated_at }`; region an
 * ISO 3166-1 alpha-2 code or `*`; 1-50 rates; min_days <= max_days; cursor lists newest first;
 * a key sees only its own store; mutations take an Idempotency-Key. The buy box uses the US
 * (else `*`) standard rate.
 *
 * These tests write, so they run on an app and database of their own. Most requests use a key of
 * their own (`freshKey`), so the per-key bucket (60 at once) never decides an outcome.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually";
import { createTestKey, type IsolatedApp, sellerRequest, type SellerResponse, startIsolatedApp, storeIdOf } from "../helpers/seller";

const BASE = "/api/v1/shipping-templates";
const TEMPLATE_FIELDS = ["created_at", "handling_days", "id", "name", "object", "rates", "updated_at"];
const RATE_FIELDS = ["free_over_cents", "max_days", "min_days", "price_cents", "region", "service"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const STORE = "fixture-store-a";
const OTHER_STORE = "fixture-store-b";
const PAGING_STORE = "bargain-bay";

let app: IsolatedApp;

beforeAll(async () => {
  app = await startIsolatedApp("seller-shipping");
});

afterAll(async () => {
  await app?.stop();
});

async function freshKey(scopes: string[] = ["shipping:write", "listings:read"], store = STORE): Promise<string> {
  return (await createTestKey(app.pool, store, scopes)).key;
}

function rate(overrides: Record<string, unknown> = {}) {
  return { region: "US", service: "standard", price_cents: 499, free_over_cents: null, min_days: 3, max_days: 5, ...overrides };
}

function body(overrides: Record<string, unknown> = {}) {
  return { name: "Standard shipping", handling_days: 1, rates: [rate()], ...overrides };
}

async function post(payload: unknown, options: { key?: string; headers?: Record<string, string> } = {}): Promise<SellerResponse> {
  return sellerRequest(app.baseUrl, "POST", BASE, { key: options.key ?? (await freshKey()), body: payload, headers: options.headers });
}

async function patch(id: string, payload: unknown, options: { key?: string; headers?: Record<string, string> } = {}): Promise<SellerResponse> {
  return sellerRequest(app.baseUrl, "PATCH", `${BASE}/${id}`, { key: options.key ?? (await freshKey()), body: payload, headers: options.headers });
}

async function list(query = "", key?: string): Promise<SellerResponse> {
  return sellerRequest(app.baseUrl, "GET", `${BASE}${query}`, { key: key ?? (await freshKey(["listings:read"])) });
}

async function created(payload: unknown = body()): Promise<any> {
  const res = await post(payload);
  expect(res.status, res.text).toBe(201);
  return res.json.data;
}

function expectError(res: SellerResponse, status: number, code: string, param?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.json?.error?.code, res.text).toBe(code);
  if (param === undefined) expect(res.json.error.param).toBeUndefined();
  else expect(res.json.error.param).toBe(param);
  expect(res.json.error.request_id).toBe(res.headers.get("x-request-id"));
  expect(res.headers.get("access-control-allow-origin")).toBeNull();
}

async function templateCount(storeSlug: string): Promise<number> {
  const { rows } = await app.pool.query<{ n: string }>(
    "SELECT count(*) AS n FROM shipping_templates t JOIN stores s ON s.id = t.store_id WHERE s.slug = $1",
    [storeSlug],
  );
  return Number(rows[0]!.n);
}

describe("POST /api/v1/shipping-templates", () => {
  it("answers 201 with exactly the fields of a shipping template, rates in the order sent", async () => {
    const payload = {
      name: "Two services, three regions",
      handling_days: 2,
      rates: [
        rate({ region: "US", service: "standard", price_cents: 500, free_over_cents: 3500, min_days: 3, max_days: 6 }),
        rate({ region: "US", service: "expedited", price_cents: 1500, min_days: 1, max_days: 2 }),
        rate({ region: "DE", service: "standard", price_cents: 2500, min_days: 7, max_days: 14 }),
        rate({ region: "*", service: "standard", price_cents: 3500, min_days: 10, max_days: 30 }),
      ],
    };
    const res = await post(payload);
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.json).sort()).toEqual(["data", "meta"]);
    expect(res.json.meta).toEqual({ request_id: res.headers.get("x-request-id") });
    const t = res.json.data;
    expect(Object.keys(t).sort()).toEqual(TEMPLATE_FIELDS);
    expect(t.id).toMatch(UUID);
    expect(t.object).toBe("shipping_template");
    expect(t.name).toBe(payload.name);
    expect(t.handling_days).toBe(2);
    expect(t.created_at).toMatch(TIMESTAMP);
    expect(t.updated_at).toMatch(TIMESTAMP);
    for (const r of t.rates) expect(Object.keys(r).sort()).toEqual(RATE_FIELDS);
    expect(t.rates).toEqual(payload.rates);
  });

  it("defaults handling_days to 1 and free_over_cents to null, and trims the name", async () => {
    const t = await created({ name: "  Defaults  ", rates: [{ region: "*", service: "expedited", price_cents: 0, min_days: 0, max_days: 0 }] });
    expect(t.name).toBe("Defaults");
    expect(t.handling_days).toBe(1);
    expect(t.rates).toEqual([{ region: "*", service: "expedited", price_cents: 0, free_over_cents: null, min_days: 0, max_days: 0 }]);
  });

  it("carries no-store, X-Request-Id and the key's X-RateLimit-* headers, and no CORS", async () => {
    const res = await post(body());
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("60");
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("writes nothing when the body is refused", async () => {
    const before = await templateCount(STORE);
    const res = await post(body({ rates: [rate(), rate({ region: "CA" }), rate({ region: "CA" })] }));
    expectError(res, 400, "parameter_invalid", "rates[2]");
    expect(await templateCount(STORE)).toBe(before);
  });
});

describe("bounds: each at its edge (accepted) and past it (400 naming the field)", () => {
  const accepted: Array<[string, Record<string, unknown>]> = [
    ["name of 1 character", { name: "x" }],
    ["name of 100 characters", { name: "n".repeat(100) }],
    ["name with non-ASCII letters", { name: "Envío estándar 🚚" }],
    ["handling_days 0", { handling_days: 0 }],
    ["handling_days 30", { handling_days: 30 }],
    ["price_cents 0", { rates: [rate({ price_cents: 0 })] }],
    ["price_cents 100,000,000", { rates: [rate({ price_cents: 100_000_000 })] }],
    ["free_over_cents 0", { rates: [rate({ free_over_cents: 0 })] }],
    ["free_over_cents 100,000,000", { rates: [rate({ free_over_cents: 100_000_000 })] }],
    ["min_days 0", { rates: [rate({ min_days: 0 })] }],
    ["max_days 365", { rates: [rate({ max_days: 365 })] }],
    ["min_days = max_days = 365", { rates: [rate({ min_days: 365, max_days: 365 })] }],
    ["region *", { rates: [rate({ region: "*" })] }],
    ["region AX (a real, rarely used code)", { rates: [rate({ region: "AX" })] }],
    ["1 rate", { rates: [rate()] }],
    ["50 rates", { rates: fiftyRates() }],
    ["same region, both services", { rates: [rate(), rate({ service: "expedited" })] }],
  ];
  it.each(accepted)("%s: 201", async (_label, overrides) => {
    const payload = body(overrides);
    const res = await post(payload);
    expect(res.status, res.text).toBe(201);
    if ("rates" in overrides) expect(res.json.data.rates).toEqual((overrides.rates as object[]).map((r) => ({ free_over_cents: null, ...r })));
  });

  const refused: Array<[string, unknown, string, string?]> = [
    ["name empty", body({ name: "" }), "name"],
    ["name only spaces", body({ name: "   " }), "name"],
    ["name of 101 characters", body({ name: "n".repeat(101) }), "name"],
    ["name with a NUL byte", body({ name: "a\u0000b" }), "name"],
    ["name with a newline", body({ name: "a\nb" }), "name"],
    ["name not a string", body({ name: 5 }), "name"],
    ["handling_days -1", body({ handling_days: -1 }), "handling_days"],
    ["handling_days 31", body({ handling_days: 31 }), "handling_days"],
    ["handling_days 1.5", body({ handling_days: 1.5 }), "handling_days"],
    ["handling_days as a string", body({ handling_days: "1" }), "handling_days"],
    ["price_cents -1", body({ rates: [rate({ price_cents: -1 })] }), "rates[0].price_cents"],
    ["price_cents 100,000,001", body({ rates: [rate({ price_cents: 100_000_001 })] }), "rates[0].price_cents"],
    ["price_cents 1e300", body({ rates: [rate({ price_cents: 1e300 })] }), "rates[0].price_cents"],
    ["price_cents 4.99", body({ rates: [rate({ price_cents: 4.99 })] }), "rates[0].price_cents"],
    ["price_cents null", body({ rates: [rate({ price_cents: null })] }), "rates[0].price_cents"],
    ["free_over_cents -1", body({ rates: [rate({ free_over_cents: -1 })] }), "rates[0].free_over_cents"],
    ["free_over_cents 100,000,001", body({ rates: [rate({ free_over_cents: 100_000_001 })] }), "rates[0].free_over_cents"],
    ["min_days -1", body({ rates: [rate({ min_days: -1 })] }), "rates[0].min_days"],
    ["max_days 366", body({ rates: [rate({ max_days: 366 })] }), "rates[0].max_days"],
    ["min_days above max_days", body({ rates: [rate({ min_days: 6, max_days: 5 })] }), "rates[0].min_days"],
    ["min_days above max_days in the third rate", body({ rates: [rate(), rate({ region: "CA" }), rate({ region: "MX", min_days: 2, max_days: 1 })] }), "rates[2].min_days"],
    ["region lower case", body({ rates: [rate({ region: "us" })] }), "rates[0].region"],
    ["region not assigned (XK)", body({ rates: [rate({ region: "XK" })] }), "rates[0].region"],
    ["region UK (reserved, not GB)", body({ rates: [rate({ region: "UK" })] }), "rates[0].region"],
    ["region alpha-3", body({ rates: [rate({ region: "USA" })] }), "rates[0].region"],
    ["region empty", body({ rates: [rate({ region: "" })] }), "rates[0].region"],
    ["region **", body({ rates: [rate({ region: "**" })] }), "rates[0].region"],
    ["service unknown", body({ rates: [rate({ service: "overnight" })] }), "rates[0].service"],
    ["0 rates", body({ rates: [] }), "rates"],
    ["51 rates", body({ rates: [...fiftyRates(), rate({ region: "ZW", service: "expedited" })] }), "rates"],
    ["10,000 rates", body({ rates: Array.from({ length: 10_000 }, () => ({ region: "*", service: "standard", price_cents: 1, min_days: 1, max_days: 1 })) }), "rates"],
    ["rates not an array", body({ rates: { region: "US" } }), "rates"],
    ["a rate not an object", body({ rates: ["US"] }), "rates[0]"],
    ["duplicate (region, service): the second is named", body({ rates: [rate(), rate({ region: "DE" }), rate({ price_cents: 1 })] }), "rates[2]"],
    ["duplicate (*, expedited)", body({ rates: [rate({ region: "*", service: "expedited" }), rate({ region: "*", service: "expedited", price_cents: 9 })] }), "rates[1]"],
    ["unknown top-level field", { ...body(), colour: "red" }, "colour"],
    ["unknown rate field", body({ rates: [{ ...rate(), carrier: "ups" }] }), "rates[0].carrier"],
    ["id may not be sent", { ...body(), id: randomUUID() }, "id"],
    ["name missing", { rates: [rate()] }, "name", "parameter_missing"],
    ["rates missing", { name: "No rates" }, "rates", "parameter_missing"],
    ["service missing", body({ rates: [{ region: "US", price_cents: 1, min_days: 1, max_days: 2 }] }), "rates[0].service", "parameter_missing"],
    ["max_days missing", body({ rates: [{ region: "US", service: "standard", price_cents: 1, min_days: 1 }] }), "rates[0].max_days", "parameter_missing"],
  ];
  it.each(refused)("%s: 400 naming %s", async (_label, payload, param, code = "parameter_invalid") => {
    const res = await post(payload);
    expectError(res, 400, code, param);
    expect(res.json.error.type).toBe("invalid_request_error");
    expect(res.json.error.message).toContain(param);
  });

  it("a body that is not a JSON object is 400", async () => {
    for (const raw of ["[]", "null", "42", '"name"']) {
      const res = await sellerRequest(app.baseUrl, "POST", BASE, { key: await freshKey(), rawBody: raw, headers: { "Content-Type": "application/json" } });
      expectError(res, 400, "parameter_invalid");
    }
  });

  it("invalid JSON is 400 body_invalid_json; another content type is 415", async () => {
    const key = await freshKey();
    expectError(await sellerRequest(app.baseUrl, "POST", BASE, { key, rawBody: '{"name":', headers: { "Content-Type": "application/json" } }), 400, "body_invalid_json");
    expectError(await sellerRequest(app.baseUrl, "POST", BASE, { key, rawBody: JSON.stringify(body()), headers: { "Content-Type": "text/plain" } }), 415, "content_type_invalid");
    expectError(await sellerRequest(app.baseUrl, "POST", BASE, { key, rawBody: "name=x" , headers: { "Content-Type": "application/x-www-form-urlencoded" } }), 415, "content_type_invalid");
  });

  it("a body over 1 MiB is 413", async () => {
    const res = await post(body({ name: "x".repeat(1024 * 1024 + 10) }));
    expectError(res, 413, "body_too_large");
  });
});

function fiftyRates() {
  const regions = ["US", "CA", "MX", "GB", "DE", "FR", "IT", "ES", "NL", "BE", "AT", "CH", "SE", "NO", "DK", "FI", "IE", "PT", "PL", "CZ", "JP", "KR", "AU", "NZ", "*"];
  return regions.flatMap((region) => [rate({ region }), rate({ region, service: "expedited", price_cents: 1299, min_days: 1, max_days: 2 })]);
}

describe("GET /api/v1/shipping-templates", () => {
  it("lists the store's templates newest first, as the list envelope, each with exactly its fields", async () => {
    const first = await created(body({ name: "Listed first" }));
    const second = await created(body({ name: "Listed second" }));
    const res = await list("?limit=100");
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(["data", "meta", "next_cursor"]);
    expect(res.json.meta).toEqual({ request_id: res.headers.get("x-request-id") });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const ids = res.json.data.map((t: any) => t.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids.indexOf(second.id)).toBeGreaterThanOrEqual(0);
    for (const t of res.json.data) {
      expect(Object.keys(t).sort()).toEqual(TEMPLATE_FIELDS);
      for (const r of t.rates) expect(Object.keys(r).sort()).toEqual(RATE_FIELDS);
    }
    expect(res.json.data.find((t: any) => t.id === second.id)).toEqual(second);
  });

  it("shows only the key's own store", async () => {
    const other = await createTestKey(app.pool, OTHER_STORE, ["shipping:write", "listings:read"]);
    const mine = await created(body({ name: "Only mine" }));
    const res = await list("?limit=100", other.key);
    expect(res.status).toBe(200);
    expect(res.json.data.map((t: any) => t.id)).not.toContain(mine.id);
    const { rows } = await app.pool.query<{ id: string }>("SELECT id FROM shipping_templates WHERE store_id = $1", [await storeIdOf(app.pool, OTHER_STORE)]);
    expect(res.json.data.map((t: any) => t.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  describe("cursor paging", () => {
    let expected: string[];
    beforeAll(async () => {
      // 31 templates more, several sharing a creation instant, so ties are broken by id.
      const storeId = await storeIdOf(app.pool, PAGING_STORE);
      for (let i = 0; i < 31; i++) {
        const at = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3)));
        const { rows } = await app.pool.query<{ id: string }>(
          "INSERT INTO shipping_templates (store_id, name, handling_days, created_at, updated_at) VALUES ($1, $2, 1, $3, $3) RETURNING id",
          [storeId, `Paging ${i}`, at],
        );
        await app.pool.query(
          "INSERT INTO shipping_rates (template_id, region, service, price_cents, min_days, max_days) VALUES ($1, 'US', 'standard', 100, 1, 2)",
          [rows[0]!.id],
        );
      }
      const { rows } = await app.pool.query<{ id: string }>("SELECT id FROM shipping_templates WHERE store_id = $1 ORDER BY created_at DESC, id DESC", [storeId]);
      expected = rows.map((r) => r.id);
      expect(expected.length).toBeGreaterThan(25);
    });

    const pagingKey = () => freshKey(["listings:read"], PAGING_STORE);

    it("limit defaults to 25", async () => {
      const res = await list("", await pagingKey());
      expect(res.status).toBe(200);
      expect(res.json.data.map((t: any) => t.id)).toEqual(expected.slice(0, 25));
      expect(res.json.next_cursor).toEqual(expect.any(String));
    });

    it("pages of 4 walk every template once, newest first, ending with next_cursor null", async () => {
      const key = await pagingKey();
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 20; page++) {
        const res: SellerResponse = await list(`?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, key);
        expect(res.status, res.text).toBe(200);
        expect(res.json.data.length).toBeLessThanOrEqual(4);
        seen.push(...res.json.data.map((t: any) => t.id));
        cursor = res.json.next_cursor;
        if (cursor === null) break;
      }
      expect(cursor).toBeNull();
      expect(seen).toEqual(expected);
    });

    it("limit 100 and a page that ends exactly at the last row answer next_cursor null", async () => {
      const key = await pagingKey();
      const all = await list("?limit=100", key);
      expect(all.json.data.map((t: any) => t.id)).toEqual(expected);
      expect(all.json.next_cursor).toBeNull();
      const exact = await list(`?limit=${expected.length}`, key);
      expect(exact.json.data).toHaveLength(expected.length);
      expect(exact.json.next_cursor).toBeNull();
      const one = await list("?limit=1", key);
      expect(one.json.data.map((t: any) => t.id)).toEqual(expected.slice(0, 1));
    });

    it.each([["0"], ["101"], ["abc"], ["-1"], ["1.5"], [""], ["1e2"], ["99999999999999999999"]])("limit=%s is 400 naming limit", async (limit) => {
      expectError(await list(`?limit=${limit}`, await pagingKey()), 400, "parameter_invalid", "limit");
    });

    it("a repeated limit is 400 naming limit", async () => {
      expectError(await list("?limit=2&limit=3", await pagingKey()), 400, "parameter_invalid", "limit");
    });

    it.each([
      ["garbage", "garbage"],
      ["not base64url", "!!!***"],
      ["base64 of plain JSON with another kind", Buffer.from(JSON.stringify(["listings", Date.now(), randomUUID()])).toString("base64url")],
      ["a key that is not a UUID", Buffer.from(JSON.stringify(["shipping_templates", Date.now(), "x' OR 1=1 --"])).toString("base64url")],
      ["a time out of range", Buffer.from(JSON.stringify(["shipping_templates", 9_000_000_000_000_000, randomUUID()])).toString("base64url")],
      ["a time that is not a number", Buffer.from(JSON.stringify(["shipping_templates", "yesterday", randomUUID()])).toString("base64url")],
      ["too long", "A".repeat(600)],
      ["a NUL byte", "%00"],
    ])("a cursor with %s is 400 naming cursor", async (_label, cursor) => {
      expectError(await list(`?cursor=${cursor.startsWith("%") ? cursor : encodeURIComponent(cursor)}`, await pagingKey()), 400, "parameter_invalid", "cursor");
    });

    it("another store's cursor shows only the key's own store", async () => {
      const page = await list("?limit=2", await pagingKey());
      const res = await list(`?limit=100&cursor=${encodeURIComponent(page.json.next_cursor)}`, await freshKey(["listings:read"], OTHER_STORE));
      expect(res.status).toBe(200);
      for (const t of res.json.data) expect(expected).not.toContain(t.id);
    });
  });
});

describe("PATCH /api/v1/shipping-templates/:id", () => {
  it("changes only the fields sent and moves updated_at; rates replace every rate", async () => {
    const t = await created(body({ name: "Before", handling_days: 2, rates: [rate(), rate({ service: "expedited", price_cents: 1999 })] }));
    const renamed = await patch(t.id, { name: "After" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(Object.keys(renamed.json).sort()).toEqual(["data", "meta"]);
    expect(Object.keys(renamed.json.data).sort()).toEqual(TEMPLATE_FIELDS);
    expect(renamed.json.data).toMatchObject({ id: t.id, name: "After", handling_days: 2, rates: t.rates, created_at: t.created_at });
    expect(Date.parse(renamed.json.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(t.updated_at));

    const newRates = [rate({ region: "*", price_cents: 2000, min_days: 5, max_days: 20 }), rate({ region: "CA", service: "expedited", price_cents: 2500 })];
    const replaced = await patch(t.id, { rates: newRates, handling_days: 0 });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.json.data).toMatchObject({ name: "After", handling_days: 0, rates: newRates });
    const { rows } = await app.pool.query("SELECT region FROM shipping_rates WHERE template_id = $1", [t.id]);
    expect(rows.map((r) => r.region).sort()).toEqual(["*", "CA"]);

    const listed = await list("?limit=100");
    expect(listed.json.data.find((x: any) => x.id === t.id)).toEqual(replaced.json.data);
  });

  it("an empty body changes nothing and answers the template", async () => {
    const t = await created();
    const res = await patch(t.id, {});
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual(t);
  });

  it("validates as create does, naming the field, and writes nothing", async () => {
    const t = await created();
    expectError(await patch(t.id, { rates: [rate({ min_days: 9, max_days: 2 })] }), 400, "parameter_invalid", "rates[0].min_days");
    expectError(await patch(t.id, { rates: [] }), 400, "parameter_invalid", "rates");
    expectError(await patch(t.id, { rates: fiftyRates().concat([rate({ region: "ZA" })]) }), 400, "parameter_invalid", "rates");
    expectError(await patch(t.id, { name: "" }), 400, "parameter_invalid", "name");
    expectError(await patch(t.id, { name: null }), 400, "parameter_invalid", "name");
    expectError(await patch(t.id, { handling_days: 31 }), 400, "parameter_invalid", "handling_days");
    expectError(await patch(t.id, { object: "shipping_template" }), 400, "parameter_invalid", "object");
    expectError(await patch(t.id, { rates: [rate(), rate()] }), 400, "parameter_invalid", "rates[1]");
    const listed = await list("?limit=100");
    expect(listed.json.data.find((x: any) => x.id === t.id)).toEqual(t);
  });

  it("another store's template, an unknown id and a malformed id are 404 shipping_template_not_found", async () => {
    const { rows } = await app.pool.query<{ id: string }>("SELECT id FROM shipping_templates WHERE store_id = $1 LIMIT 1", [await storeIdOf(app.pool, OTHER_STORE)]);
    const othersId = rows[0]!.id;
    for (const id of [othersId, randomUUID(), "not-a-uuid", "1", encodeURIComponent("x'; DROP TABLE shipping_templates; --")]) {
      const res = await patch(id, { name: "Taken over" });
      expectError(res, 404, "shipping_template_not_found");
      expect(res.json.error.type).toBe("not_found_error");
    }
    const after = await app.pool.query<{ name: string }>("SELECT name FROM shipping_templates WHERE id = $1", [othersId]);
    expect(after.rows[0]!.name).not.toBe("Taken over");
  });

  it("two updates of one template at once both succeed, one after the other", async () => {
    const t = await created();
    const a = [rate({ region: "FR" }), rate({ region: "IT" })];
    const b = [rate({ region: "FR" }), rate({ region: "ES" })];
    const [ra, rb] = await Promise.all([patch(t.id, { rates: a }), patch(t.id, { rates: b })]);
    expect(ra.status, ra.text).toBe(200);
    expect(rb.status, rb.text).toBe(200);
    const { rows } = await app.pool.query<{ region: string }>("SELECT region FROM shipping_rates WHERE template_id = $1 ORDER BY position", [t.id]);
    expect([a.map((r) => r.region), b.map((r) => r.region)]).toContainEqual(rows.map((r) => r.region));
  });
});

describe("keys and scopes", () => {
  let template: any;
  let revoked: string;
  let suspended: string;
  beforeAll(async () => {
    template = await created();
    const r = await createTestKey(app.pool, STORE, ["shipping:write", "listings:read"]);
    await app.pool.query("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [r.id]);
    revoked = r.key;
    suspended = (await createTestKey(app.pool, "fixture-suspended-store", ["shipping:write", "listings:read"])).key;
  });

  const routes = [
    { label: "GET list", method: "GET", path: () => BASE, scope: "listings:read", body: undefined as unknown },
    { label: "POST create", method: "POST", path: () => BASE, scope: "shipping:write", body: body() },
    { label: "PATCH update", method: "PATCH", path: () => `${BASE}/${template.id}`, scope: "shipping:write", body: { name: "Scoped" } },
  ];

  for (const r of routes) {
    describe(r.label, () => {
      const send = (options: { key?: string; headers?: Record<string, string> }) =>
        sellerRequest(app.baseUrl, r.method, r.path(), { ...options, body: r.body });

      it("no Authorization header: 401 api_key_missing", async () => {
        expectError(await send({}), 401, "api_key_missing");
      });
      it("Basic credentials, a garbage bearer, a wrong secret: 401 api_key_invalid", async () => {
        const good = await freshKey();
        for (const authorization of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer garbage", `Bearer ${good.slice(0, -2)}xx`, good]) {
          const res = await send({ headers: { Authorization: authorization } });
          expectError(res, 401, "api_key_invalid");
          expect(res.json.error.type).toBe("authentication_error");
        }
      });
      it("a revoked key: 401 api_key_revoked", async () => {
        expectError(await send({ key: revoked }), 401, "api_key_revoked");
      });
      it("a key of a suspended store: 403 store_inactive", async () => {
        expectError(await send({ key: suspended }), 403, "store_inactive");
      });
      it(`a key without ${r.scope}: 403 scope_missing naming it`, async () => {
        const others = ["listings:read", "listings:write", "shipping:write"].filter((s) => s !== r.scope);
        for (const scopes of [others, []]) {
          const res = await send({ key: await freshKey(scopes) });
          expectError(res, 403, "scope_missing");
          expect(res.json.error.type).toBe("permission_error");
          expect(res.json.error.message).toContain(r.scope);
        }
      });
      it(`a key with only ${r.scope} passes`, async () => {
        const res = await send({ key: await freshKey([r.scope]) });
        expect(res.status, res.text).toBe(r.method === "POST" ? 201 : 200);
      });
    });
  }
});

describe("Idempotency-Key", () => {
  it("a retried create replays the first answer and creates one template", async () => {
    const key = await freshKey();
    const idem = `create-${randomUUID()}`;
    const before = await templateCount(STORE);
    const first = await post(body({ name: "Once" }), { key, headers: { "Idempotency-Key": idem } });
    const second = await post(body({ name: "Once" }), { key, headers: { "Idempotency-Key": idem } });
    expect(first.status, first.text).toBe(201);
    expect(second.status, second.text).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.json.data).toEqual(first.json.data);
    expect(second.json.meta.request_id).toBe(second.headers.get("x-request-id"));
    expect(second.json.meta.request_id).not.toBe(first.json.meta.request_id);
    expect(await templateCount(STORE)).toBe(before + 1);
  });

  it("the same key with another body is 422 idempotency_key_reused; another API key has its own keys", async () => {
    const key = await freshKey();
    const idem = `reuse-${randomUUID()}`;
    expect((await post(body({ name: "First body" }), { key, headers: { "Idempotency-Key": idem } })).status).toBe(201);
    const reused = await post(body({ name: "Second body" }), { key, headers: { "Idempotency-Key": idem } });
    expectError(reused, 422, "idempotency_key_reused", "Idempotency-Key");
    expect(reused.json.error.type).toBe("idempotency_error");
    const elsewhere = await post(body({ name: "Second body" }), { headers: { "Idempotency-Key": idem } });
    expect(elsewhere.status).toBe(201);
  });

  it("a retried update replays; the same key on another template is 422", async () => {
    const key = await freshKey();
    const t = await created();
    const other = await created();
    const idem = `update-${randomUUID()}`;
    const first = await patch(t.id, { name: "Patched once" }, { key, headers: { "Idempotency-Key": idem } });
    expect(first.status, first.text).toBe(200);
    await patch(t.id, { name: "Changed in between" });
    const again = await patch(t.id, { name: "Patched once" }, { key, headers: { "Idempotency-Key": idem } });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.data).toEqual(first.json.data);
    expectError(await patch(other.id, { name: "Patched once" }, { key, headers: { "Idempotency-Key": idem } }), 422, "idempotency_key_reused", "Idempotency-Key");
  });

  it("a refused request is not stored: the same key works once the body is fixed", async () => {
    const key = await freshKey();
    const idem = `fix-${randomUUID()}`;
    expectError(await post(body({ handling_days: 99 }), { key, headers: { "Idempotency-Key": idem } }), 400, "parameter_invalid", "handling_days");
    expect((await post(body(), { key, headers: { "Idempotency-Key": idem } })).status).toBe(201);
  });

  it.each([["empty", ""], ["256 characters", "k".repeat(256)], ["non-ASCII", "clé-é"], ["a control character", "a\tb"]])(
    "a key that is %s is 400 naming Idempotency-Key",
    async (_label, idem) => {
      const headers = new Headers();
      try {
        headers.set("Idempotency-Key", idem);
      } catch {
        return; // fetch itself refuses to send this header value
      }
      expectError(await post(body(), { headers: { "Idempotency-Key": idem } }), 400, "parameter_invalid", "Idempotency-Key");
    },
  );
});

describe("other methods and paths", () => {
  it("methods a route does not serve are 405 with Allow, without CORS", async () => {
    const key = await freshKey();
    for (const [method, path, allow] of [
      ["DELETE", BASE, "GET, POST, OPTIONS"],
      ["PUT", BASE, "GET, POST, OPTIONS"],
      ["GET", `${BASE}/${randomUUID()}`, "PATCH, OPTIONS"],
      ["DELETE", `${BASE}/${randomUUID()}`, "PATCH, OPTIONS"],
    ] as const) {
      const res = await sellerRequest(app.baseUrl, method, path, { key });
      expectError(res, 405, "method_not_allowed");
      expect(res.headers.get("allow")).toBe(allow);
    }
  });

  it("a CORS preflight gets Allow and no CORS headers", async () => {
    const res = await sellerRequest(app.baseUrl, "OPTIONS", BASE, { headers: { Origin: "https://example.org", "Access-Control-Request-Method": "POST" } });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, POST, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
  });

  it("an unknown path under /api/v1 is the 404 envelope, without CORS", async () => {
    const res = await sellerRequest(app.baseUrl, "GET", "/api/v1/shipping-templates/a/b");
    expectError(res, 404, "route_not_found");
    const res2 = await sellerRequest(app.baseUrl, "POST", "/api/v1/no-such-thing", { body: {} });
    expectError(res2, 404, "route_not_found");
    expect(res2.headers.get("x-ratelimit-limit")).toBeTruthy();
  });
});

describe("the buy box uses the listing's US (else *) standard rate", () => {
  // docs/fixtures.md: MIX-NEW-A (store A, 10000) and MIX-NEW-B (store B, 9800, landed 10300).
  async function buyBox(): Promise<string | null> {
    const res = await sellerRequest(app.baseUrl, "GET", "/api/public/v1/products/fixture-mixed-offers");
    expect(res.status).toBe(200);
    return res.json.data.buy_box_listing_id;
  }
  async function listingId(sku: string): Promise<string> {
    const { rows } = await app.pool.query<{ id: string }>("SELECT id FROM listings WHERE sku = $1", [sku]);
    return rows[0]!.id;
  }
  async function useTemplate(sku: string, templateId: string) {
    await app.pool.query("UPDATE listings SET shipping_template_id = $2 WHERE sku = $1", [sku, templateId]);
  }

  /** The buy box once the app has heard of the change just written (its product cache forgets it then). */
  const buyBoxBecomes = (expected: string) => eventually(buyBox, (id) => id === expected);

  it("counts the US standard rate, not a cheaper expedited or foreign rate", async () => {
    const a = await listingId("MIX-NEW-A");
    const b = await listingId("MIX-NEW-B");
    expect(await buyBox()).toBe(a);
    // US standard 600: A lands at 10600, above B's 10300, though its other rates are free.
    const t = await created(
      body({ rates: [rate({ region: "DE", price_cents: 0 }), rate({ region: "US", service: "expedited", price_cents: 0 }), rate({ region: "US", price_cents: 600 }), rate({ region: "*", price_cents: 0 })] }),
    );
    await useTemplate("MIX-NEW-A", t.id);
    expect(await buyBoxBecomes(b)).toBe(b);
  });

  it("falls back to the * standard rate when there is no US rate", async () => {
    const a = await listingId("MIX-NEW-A");
    const b = await listingId("MIX-NEW-B");
    const expensive = await created(body({ rates: [rate({ region: "*", price_cents: 400 }), rate({ region: "CA", price_cents: 0 })] }));
    await useTemplate("MIX-NEW-A", expensive.id); // 10400 > 10300
    expect(await buyBoxBecomes(b)).toBe(b);
    const cheap = await created(body({ rates: [rate({ region: "*", price_cents: 200 }), rate({ region: "*", service: "expedited", price_cents: 5000 })] }));
    await useTemplate("MIX-NEW-A", cheap.id); // 10200 < 10300
    expect(await buyBoxBecomes(a)).toBe(a);
  });
});
