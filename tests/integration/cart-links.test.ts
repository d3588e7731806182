/**
 * Spec 2.6, 4.4, 7 and 8, decisions.md "Wire conventions" and "Cart links and carts":
 * POST /cart-links against the shared app, proven with the named seed fixtures of
 * docs/fixtures.md. Listing ids come from GET /products/{slug} (public offers) and, for offers the
 * public API never shows, from the database, read-only: this file writes cart links and never a
 * catalog row.
 */
import { createHash, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  api,
  baseUrl,
  expectErrorEnvelope,
  expectExactKeys,
  expectSuccessEnvelope,
  findInventoryLeak,
  randomClientIp,
  type ApiResponse,
} from "../helpers/http";

const pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
afterAll(() => pool.end());

const DAY_MS = 24 * 60 * 60 * 1000;
const RFC3339_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const ONE_MIB = 1024 * 1024;

type Item = { listing_id: string; quantity: number };

/**
 * POST /cart-links with `body` (serialised unless it is a string already). Every answer, whatever
 * the input, is checked for what must never happen: a 5xx, or a key that looks like a stock count.
 */
async function postLinks(
  body: unknown,
  headers: Record<string, string> = { "Content-Type": "application/json" },
  init: RequestInit = {},
): Promise<ApiResponse> {
  const res = await api("/cart-links", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
  expect(res.status, `never a 5xx (body: ${res.text.slice(0, 300)})`).toBeLessThan(500);
  expect(findInventoryLeak(res.json)).toEqual([]);
  return res;
}

function mint(items: Item[]) {
  return postLinks({ items });
}

/** The token of a minted link's url. */
function tokenOf(url: string): string {
  const token = url.split("/").pop()!;
  expect(token).toMatch(TOKEN);
  return token;
}

/** The stored lines of a link, found by the SHA-256 of its token (lib/cart/token.ts). */
async function storedLink(url: string) {
  const hash = createHash("sha256").update(tokenOf(url)).digest();
  const link = await pool.query<{ id: string; expires_at: Date }>(
    "SELECT id::text, expires_at FROM cart_links WHERE token_hash = $1",
    [hash],
  );
  expect(link.rowCount, "one stored link per token").toBe(1);
  const lines = await pool.query<{ listing_id: string; quantity: number; position: number; price_cents: number }>(
    "SELECT listing_id::text, quantity, position, price_cents FROM cart_link_lines WHERE link_id = $1::uuid ORDER BY position",
    [link.rows[0]!.id],
  );
  return { expiresAt: link.rows[0]!.expires_at, lines: lines.rows };
}

/**
 * What a wrongly written link would leave: a line for one of `listingIds`, or a link without any
 * line. No correct request ever writes either for ids that are refused, so the count stays put
 * even while other files mint links of their own in the same database.
 */
async function writesTouching(listingIds: string[]): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM cart_link_lines WHERE listing_id = ANY($1::uuid[]))::int
          + (SELECT count(*) FROM cart_links c
             WHERE NOT EXISTS (SELECT 1 FROM cart_link_lines x WHERE x.link_id = c.id))::int AS n`,
    [listingIds],
  );
  return rows[0]!.n;
}

/**
 * POST /cart-links over node:http with a chunked body (no Content-Length), through `agent`.
 * Answers within 3 s or fails: a connection left stalled would only free up at the server's
 * keep-alive timeout.
 */
function rawPost(
  agent: http.Agent,
  chunks: Buffer[],
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(`${baseUrl()}/api/public/v1/cart-links`);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent,
      timeout: 3_000,
      headers: { "Content-Type": "application/json", "X-Forwarded-For": randomClientIp() },
    });
    req.on("timeout", () => req.destroy(new Error("no answer within 3 s")));
    req.on("error", reject);
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** Listing ids of the named fixtures, by SKU (docs/fixtures.md). */
const ids: Record<string, string> = {};
/** A purchasable listing of the generated catalog with a distinctive stock count, no backorder. */
let deep: { id: string; quantity: number };
/** A purchasable listing used only by the validation cases, to prove they write nothing. */
let spare: string;

beforeAll(async () => {
  const { rows } = await pool.query<{ sku: string; id: string }>(
    "SELECT sku, id::text FROM listings WHERE sku = ANY($1)",
    [
      [
        "MIX-NEW-A",
        "MIX-NEW-B",
        "MIX-USED-B",
        "MIX-BACKORDER-A",
        "MIX-DRAFT",
        "MIX-INACTIVE",
        "MIX-ARCHIVED",
        "MIX-SOLDOUT",
        "MIX-SUSPENDED",
        "UNLISTED-A",
        "DRAFT-ONLY-A",
        "BACKORDER-ONLY-B",
        "SUSPENDED-ONLY",
      ],
    ],
  );
  for (const r of rows) ids[r.sku] = r.id;
  expect(Object.keys(ids)).toHaveLength(13);

  // The public offers are the ones product retrieval hands out (spec 4.4 rule 1).
  const product = await api("/products/fixture-mixed-offers");
  expect(product.status).toBe(200);
  const offered = product.json.data.offers.map((o: any) => o.listing_id).sort();
  expect(offered).toEqual([ids["MIX-NEW-A"], ids["MIX-NEW-B"], ids["MIX-USED-B"], ids["MIX-BACKORDER-A"]].sort());

  const purchasable = `l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND NOT l.allow_backorder`;
  const deepRow = await pool.query<{ id: string; quantity: number }>(
    `SELECT l.id::text, l.quantity FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE ${purchasable} AND l.quantity BETWEEN 30 AND 98 ORDER BY l.quantity DESC, l.id LIMIT 1`,
  );
  expect(deepRow.rowCount, "the seed has a listing with 30..98 units").toBe(1);
  deep = deepRow.rows[0]!;
  const spareRow = await pool.query<{ id: string }>(
    `SELECT l.id::text FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE ${purchasable} AND l.quantity >= 20 AND l.id <> $1::uuid ORDER BY l.id DESC LIMIT 1`,
    [deep.id],
  );
  spare = spareRow.rows[0]!.id;
});

describe("POST /cart-links: a successful mint", () => {
  let res: ApiResponse;
  let before: number;
  let after: number;
  beforeAll(async () => {
    before = Date.now();
    res = await mint([{ listing_id: ids["MIX-NEW-A"]!, quantity: 2 }]);
    after = Date.now();
  });

  it("answers 200 { data: { url, expires_at, accepted, rejected }, meta: { request_id } }", () => {
    expectSuccessEnvelope(res);
    expectExactKeys(res.json.data, ["url", "expires_at", "accepted", "rejected"], "cart link result");
    expectExactKeys(res.json.meta, ["request_id"], "meta");
    expect(res.json.data.accepted).toBe(1);
    expect(res.json.data.rejected).toEqual([]);
  });

  it("url is {PUBLIC_BASE_URL}/cart/l/<43 base64url characters>", () => {
    const escaped = baseUrl().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    expect(res.json.data.url).toMatch(new RegExp(`^${escaped}/cart/l/[A-Za-z0-9_-]{43}$`));
  });

  it("expires_at is RFC 3339 UTC with milliseconds, 7 days from now, as stored", async () => {
    const expiresAt: string = res.json.data.expires_at;
    expect(expiresAt).toMatch(RFC3339_MS_UTC);
    const t = Date.parse(expiresAt);
    expect(t).toBeGreaterThanOrEqual(before + 7 * DAY_MS - 60_000);
    expect(t).toBeLessThanOrEqual(after + 7 * DAY_MS + 60_000);
    const stored = await storedLink(res.json.data.url);
    expect(stored.expiresAt.toISOString()).toBe(expiresAt);
    expect(stored.lines).toEqual([
      { listing_id: ids["MIX-NEW-A"], quantity: 2, position: 0, price_cents: 10000 },
    ]);
  });

  it("is never cached, carries X-Request-Id = meta.request_id, the cart-links bucket and CORS *", () => {
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toBe(res.json.meta.request_id);
    expect(res.headers.get("x-ratelimit-limit")).toBe("10");
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(10);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("every link gets its own token, and the database keeps only its hash", async () => {
    const again = await mint([{ listing_id: ids["MIX-NEW-A"]!, quantity: 2 }]);
    expectSuccessEnvelope(again);
    const [a, b] = [tokenOf(res.json.data.url), tokenOf(again.json.data.url)];
    expect(a).not.toBe(b);
    const plain = await pool.query("SELECT 1 FROM cart_links WHERE encode(token_hash, 'escape') = $1 OR encode(token_hash, 'base64') = $1", [a]);
    expect(plain.rowCount).toBe(0);
  });

  it("accepts `Content-Type: application/json; charset=utf-8`", async () => {
    const r = await postLinks(
      { items: [{ listing_id: ids["MIX-USED-B"]!, quantity: 1 }] },
      { "Content-Type": "application/json; charset=utf-8" },
    );
    expectSuccessEnvelope(r);
    expect(r.json.data.accepted).toBe(1);
  });
});

describe("POST /cart-links: repeated listing ids are summed (rule 2)", () => {
  it("the same id twice, once upper-cased, is one accepted line with the summed quantity", async () => {
    const id = ids["MIX-NEW-A"]!;
    const res = await mint([
      { listing_id: id, quantity: 1 },
      { listing_id: id.toUpperCase(), quantity: 2 },
      { listing_id: id, quantity: 1 },
    ]);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(1);
    expect(res.json.data.rejected).toEqual([]);
    const stored = await storedLink(res.json.data.url);
    expect(stored.lines.map((l) => [l.listing_id, l.quantity])).toEqual([[id, 4]]);
  });

  it("lines keep the order of first appearance", async () => {
    const [a, b, c] = [ids["MIX-USED-B"]!, ids["MIX-BACKORDER-A"]!, ids["MIX-NEW-A"]!];
    const res = await mint([
      { listing_id: a, quantity: 1 },
      { listing_id: b, quantity: 1 },
      { listing_id: a, quantity: 1 },
      { listing_id: c, quantity: 1 },
      { listing_id: b.toUpperCase(), quantity: 3 },
    ]);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(3);
    const stored = await storedLink(res.json.data.url);
    expect(stored.lines.map((l) => [l.listing_id, l.quantity])).toEqual([
      [a, 2],
      [b, 4],
      [c, 1],
    ]);
  });

  it("a sum of exactly 99 is accepted", async () => {
    const id = ids["BACKORDER-ONLY-B"]!;
    const res = await mint([
      { listing_id: id, quantity: 50 },
      { listing_id: id, quantity: 49 },
    ]);
    expectSuccessEnvelope(res);
    const stored = await storedLink(res.json.data.url);
    expect(stored.lines.map((l) => l.quantity)).toEqual([99]);
  });

  it("a sum above 99 is 400 naming the item that pushes it over, and writes nothing", async () => {
    const id = ids["BACKORDER-ONLY-B"]!;
    const other = ids["MIX-BACKORDER-A"]!;
    const writes = await writesTouching([id, other]);
    const res = await mint([
      { listing_id: id, quantity: 50 },
      { listing_id: other, quantity: 99 },
      { listing_id: id.toUpperCase(), quantity: 49 },
      { listing_id: other, quantity: 1 },
      { listing_id: id, quantity: 1 },
    ]);
    expectErrorEnvelope(res, {
      status: 400,
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "items[3].quantity",
    });
    expect(await writesTouching([id, other])).toBe(writes);
  });
});

describe("POST /cart-links: lines that cannot be bought are rejected with a generic reason (rule 3)", () => {
  const UNAVAILABLE: [string, () => string][] = [
    ["an unknown UUID", () => UNKNOWN],
    ["the draft listing of fixture-draft-only", () => ids["DRAFT-ONLY-A"]!],
    ["a listing of the suspended store (fixture-suspended-only)", () => ids["SUSPENDED-ONLY"]!],
    ["a listing of the suspended store (MIX-SUSPENDED)", () => ids["MIX-SUSPENDED"]!],
    ["an in-stock listing of the unlisted product", () => ids["UNLISTED-A"]!],
    ["an inactive listing (MIX-INACTIVE)", () => ids["MIX-INACTIVE"]!],
    ["a draft listing (MIX-DRAFT)", () => ids["MIX-DRAFT"]!],
    ["an archived listing (MIX-ARCHIVED)", () => ids["MIX-ARCHIVED"]!],
    ["an out-of-stock listing without backorder (MIX-SOLDOUT)", () => ids["MIX-SOLDOUT"]!],
  ];
  const UNKNOWN = randomUUID();

  it.each(UNAVAILABLE)("%s -> unavailable (alone: 400 no_purchasable_lines)", async (_, id) => {
    const res = await mint([{ listing_id: id(), quantity: 1 }]);
    expectErrorEnvelope(res, { status: 400, type: "invalid_request_error", code: "no_purchasable_lines", rejected: true });
    expect(res.json.error.rejected).toEqual([{ listing_id: id(), reason: "unavailable" }]);
  });

  it.each(UNAVAILABLE)("%s -> unavailable (next to a good line: 200)", async (_, id) => {
    const res = await mint([
      { listing_id: id(), quantity: 1 },
      { listing_id: ids["MIX-USED-B"]!, quantity: 1 },
    ]);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(1);
    expect(res.json.data.rejected).toEqual([{ listing_id: id(), reason: "unavailable" }]);
  });

  it("asking for one more unit than a listing holds (no backorder) -> insufficient_stock", async () => {
    // MIX-NEW-A holds 5 units (docs/fixtures.md).
    const res = await mint([{ listing_id: ids["MIX-NEW-A"]!, quantity: 6 }]);
    expectErrorEnvelope(res, { status: 400, type: "invalid_request_error", code: "no_purchasable_lines", rejected: true });
    expect(res.json.error.rejected).toEqual([{ listing_id: ids["MIX-NEW-A"], reason: "insufficient_stock" }]);
  });

  it("asking for exactly what it holds is accepted", async () => {
    const res = await mint([{ listing_id: ids["MIX-NEW-A"]!, quantity: 5 }]);
    expectSuccessEnvelope(res);
    expect(res.json.data).toMatchObject({ accepted: 1, rejected: [] });
  });

  it("stock is checked against the summed quantity", async () => {
    const res = await mint([
      { listing_id: ids["MIX-NEW-A"]!, quantity: 3 },
      { listing_id: ids["MIX-NEW-A"]!, quantity: 3 },
      { listing_id: ids["MIX-USED-B"]!, quantity: 1 },
    ]);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(1);
    expect(res.json.data.rejected).toEqual([{ listing_id: ids["MIX-NEW-A"], reason: "insufficient_stock" }]);
  });

  it("backorder listings are accepted for any quantity up to 99", async () => {
    const res = await mint([
      { listing_id: ids["BACKORDER-ONLY-B"]!, quantity: 99 },
      { listing_id: ids["MIX-BACKORDER-A"]!, quantity: 7 },
    ]);
    expectSuccessEnvelope(res);
    expect(res.json.data).toMatchObject({ accepted: 2, rejected: [] });
    const stored = await storedLink(res.json.data.url);
    expect(stored.lines.map((l) => [l.listing_id, l.quantity, l.price_cents])).toEqual([
      [ids["BACKORDER-ONLY-B"], 99, 8900],
      [ids["MIX-BACKORDER-A"], 7, 7000],
    ]);
  });
});

describe("POST /cart-links: a mixed request, and the same request with nothing purchasable (rules 4 and 5)", () => {
  let unknown: string;
  let refused: Item[];
  let expectedRejected: Array<{ listing_id: string; reason: string }>;
  beforeAll(() => {
    unknown = randomUUID();
    // Rejected lines in order of first appearance, ids lower-cased, repeats summed into one.
    refused = [
      { listing_id: unknown.toUpperCase(), quantity: 1 },
      { listing_id: ids["MIX-INACTIVE"]!, quantity: 2 },
      { listing_id: ids["MIX-NEW-B"]!, quantity: 2 }, // holds 3: 2 + 2 is too many
      { listing_id: unknown, quantity: 1 },
      { listing_id: ids["UNLISTED-A"]!.toUpperCase(), quantity: 1 },
      { listing_id: ids["MIX-NEW-B"]!, quantity: 2 },
      { listing_id: ids["MIX-SOLDOUT"]!, quantity: 1 },
    ];
    expectedRejected = [
      { listing_id: unknown, reason: "unavailable" },
      { listing_id: ids["MIX-INACTIVE"]!, reason: "unavailable" },
      { listing_id: ids["MIX-NEW-B"]!, reason: "insufficient_stock" },
      { listing_id: ids["UNLISTED-A"]!, reason: "unavailable" },
      { listing_id: ids["MIX-SOLDOUT"]!, reason: "unavailable" },
    ];
  });

  it("mixed: 200 with the accepted count and the rejected lines in order of first appearance", async () => {
    const items: Item[] = [
      refused[0]!,
      { listing_id: ids["MIX-USED-B"]!, quantity: 1 },
      ...refused.slice(1, 4),
      { listing_id: ids["MIX-BACKORDER-A"]!, quantity: 1 },
      ...refused.slice(4),
      { listing_id: ids["MIX-USED-B"]!, quantity: 1 },
    ];
    const res = await mint(items);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(2);
    expect(res.json.data.rejected).toEqual(expectedRejected);
    const stored = await storedLink(res.json.data.url);
    expect(stored.lines.map((l) => [l.listing_id, l.quantity])).toEqual([
      [ids["MIX-USED-B"], 2], // 1 + 1: MIX-USED-B holds 2
      [ids["MIX-BACKORDER-A"], 1],
    ]);
  });

  it("none purchasable: 400 { type, code: no_purchasable_lines, message, rejected, request_id }, the same list, nothing written", async () => {
    const touched = [...new Set(refused.map((i) => i.listing_id.toLowerCase()))];
    const writes = await writesTouching(touched);
    const res = await mint(refused);
    expectErrorEnvelope(res, { status: 400, type: "invalid_request_error", code: "no_purchasable_lines", rejected: true });
    expect(res.json.error.param).toBeUndefined();
    expect(res.json.error.rejected).toEqual(expectedRejected);
    for (const line of res.json.error.rejected) expectExactKeys(line, ["listing_id", "reason"], "rejected line");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-ratelimit-limit")).toBe("10");
    expect(await writesTouching(touched)).toBe(writes);
  });
});

describe("POST /cart-links: invalid bodies are 400/413/415 in the error envelope and write nothing", () => {
  const uuid = () => spare;
  const item = (over: Record<string, unknown> = {}) => ({ listing_id: uuid(), quantity: 1, ...over });
  const itemWithout = (key: "listing_id" | "quantity") => {
    const i: Record<string, unknown> = item();
    delete i[key];
    return i;
  };
  const many = (n: number, make: () => unknown) => Array.from({ length: n }, make);

  type Case = [name: string, body: () => string, code: "parameter_invalid" | "parameter_missing" | "body_invalid_json", param?: string];
  const json = (v: () => unknown) => () => JSON.stringify(v());
  const CASES: Case[] = [
    ["body not JSON", () => '{"items": [', "body_invalid_json"],
    ["an empty body", () => "", "body_invalid_json"],
    ["a JSON array", json(() => [item()]), "parameter_invalid"],
    ["JSON null", () => "null", "parameter_invalid"],
    ["a JSON number", () => "42", "parameter_invalid"],
    ["a JSON string", () => '"items"', "parameter_invalid"],
    ["{}", () => "{}", "parameter_missing", "items"],
    ["items an object", json(() => ({ items: item() })), "parameter_invalid", "items"],
    ["items a string", json(() => ({ items: "x" })), "parameter_invalid", "items"],
    ["items null", json(() => ({ items: null })), "parameter_invalid", "items"],
    ["0 items", json(() => ({ items: [] })), "parameter_invalid", "items"],
    ["21 items", json(() => ({ items: many(21, () => item()) })), "parameter_invalid", "items"],
    ["10,000 items", json(() => ({ items: many(10_000, () => 1) })), "parameter_invalid", "items"],
    ["10,000 valid-looking items", json(() => ({ items: many(10_000, () => item()) })), "parameter_invalid", "items"],
    ["an item null", json(() => ({ items: [item(), null] })), "parameter_invalid", "items[1]"],
    ["listing_id missing", json(() => ({ items: [item(), itemWithout("listing_id")] })), "parameter_missing", "items[1].listing_id"],
    ["listing_id a number", json(() => ({ items: [item({ listing_id: 12345 })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id null", json(() => ({ items: [item({ listing_id: null })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id not a UUID", json(() => ({ items: [item({ listing_id: "not-a-uuid" })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id a UUID without dashes", json(() => ({ items: [item({ listing_id: uuid().replace(/-/g, "") })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id with SQL", json(() => ({ items: [item(), item({ listing_id: "' OR 1=1--" })] })), "parameter_invalid", "items[1].listing_id"],
    ["listing_id a UUID with SQL appended", json(() => ({ items: [item({ listing_id: `${uuid()}' OR '1'='1` })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id unicode", json(() => ({ items: [item({ listing_id: "\u00e9\u{1F600}\u0000\u202e" })] })), "parameter_invalid", "items[0].listing_id"],
    ["listing_id a 10 kB string", json(() => ({ items: [item({ listing_id: "a".repeat(10_240) })] })), "parameter_invalid", "items[0].listing_id"],
    ["quantity 0", json(() => ({ items: [item({ quantity: 0 })] })), "parameter_invalid", "items[0].quantity"],
    ["quantity 100", json(() => ({ items: [item(), item({ quantity: 100 })] })), "parameter_invalid", "items[1].quantity"],
    ["quantity -1", json(() => ({ items: [item({ quantity: -1 })] })), "parameter_invalid", "items[0].quantity"],
    ["quantity 1.5", json(() => ({ items: [item({ quantity: 1.5 })] })), "parameter_invalid", "items[0].quantity"],
    ['quantity "2"', json(() => ({ items: [item({ quantity: "2" })] })), "parameter_invalid", "items[0].quantity"],
    ["quantity 1e308", () => `{"items":[{"listing_id":"${uuid()}","quantity":1e308}]}`, "parameter_invalid", "items[0].quantity"],
    ["quantity null", json(() => ({ items: [item({ quantity: null })] })), "parameter_invalid", "items[0].quantity"],
    ["quantity true", json(() => ({ items: [item({ quantity: true })] })), "parameter_invalid", "items[0].quantity"],
    ["quantity missing", json(() => ({ items: [itemWithout("quantity")] })), "parameter_missing", "items[0].quantity"],
    ["an unknown top-level field", json(() => ({ items: [item()], extra: 1 })), "parameter_invalid", "extra"],
    ["an unknown item field", json(() => ({ items: [item({ extra: true })] })), "parameter_invalid", "items[0].extra"],
    ["an unknown field on a later item", json(() => ({ items: [item(), item(), item({ price_cents: 1 })] })), "parameter_invalid", "items[2].price_cents"],
    ["a __proto__ field", () => `{"items":[{"listing_id":"${uuid()}","quantity":1}],"__proto__":{"admin":true}}`, "parameter_invalid", "__proto__"],
  ];

  const TABLE = CASES.map(([name, body, code, param]) => ({ name, body, code, param: param ?? "none" }));
  it.each(TABLE)("$name -> 400 $code (param: $param)", async ({ body, code, param }) => {
    const writes = await writesTouching([uuid()]);
    const res = await postLinks(body());
    expectErrorEnvelope(res, {
      status: 400,
      type: "invalid_request_error",
      code,
      param: param === "none" ? undefined : param,
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await writesTouching([uuid()])).toBe(writes);
  });

  const valid = () => JSON.stringify({ items: [item()] });
  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["none", undefined],
  ])("Content-Type %s -> 415 content_type_invalid", async (_, type) => {
    const writes = await writesTouching([uuid()]);
    const res = await postLinks(valid(), type ? { "Content-Type": type } : {}, {
      body: type ? valid() : new TextEncoder().encode(valid()),
    });
    expectErrorEnvelope(res, { status: 415, type: "invalid_request_error", code: "content_type_invalid" });
    expect(await writesTouching([uuid()])).toBe(writes);
  });

  it("a body over 1 MiB -> 413 body_too_large", async () => {
    const writes = await writesTouching([uuid()]);
    const body = JSON.stringify({ items: [item()], pad: "x".repeat(ONE_MIB) });
    const res = await postLinks(body);
    expectErrorEnvelope(res, { status: 413, type: "invalid_request_error", code: "body_too_large" });
    expect(await writesTouching([uuid()])).toBe(writes);
  });

  it("a chunked body over 1 MiB (no Content-Length) -> 413, and the connection stays usable", async () => {
    // One socket for both requests: the second one goes where the first one's unread bytes were.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const chunks = [Buffer.from(valid()), ...Array.from({ length: 18 }, () => Buffer.alloc(64 * 1024, " "))];
      const first = await rawPost(agent, chunks);
      expect(first.status).toBe(413);
      expect(JSON.parse(first.text).error.code).toBe("body_too_large");
      expect(findInventoryLeak(JSON.parse(first.text))).toEqual([]);
      const second = await rawPost(agent, [Buffer.from(valid())]);
      expect(second.status).toBe(200);
      expect(JSON.parse(second.text).data.accepted).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it("a body just under 1 MiB is read (and judged on its content)", async () => {
    const body = JSON.stringify({ items: [item()] }) + " ".repeat(ONE_MIB - 200);
    const res = await postLinks(body);
    expectSuccessEnvelope(res);
    expect(res.json.data.accepted).toBe(1);
  });
});

describe("POST /cart-links: nothing tells a client how many units exist", () => {
  it("responses about a listing of known stock never carry that number", async () => {
    const q = deep.quantity;
    const requests: Item[][] = [
      [{ listing_id: deep.id, quantity: q }],
      [{ listing_id: deep.id, quantity: q + 1 }],
      [
        { listing_id: deep.id, quantity: q },
        { listing_id: deep.id, quantity: 1 },
        { listing_id: ids["MIX-USED-B"]!, quantity: 1 },
      ],
      [{ listing_id: deep.id, quantity: 99 }],
    ];
    const statuses: number[] = [];
    for (const items of requests) {
      const res = await mint(items);
      statuses.push(res.status);
      // Drop what is random (token, request id, timestamps) before looking for the number.
      const scrubbed = res.text
        .replace(/\/cart\/l\/[A-Za-z0-9_-]{43}/g, "/cart/l/TOKEN")
        .replace(/"request_id":"[^"]*"/g, '"request_id":"ID"')
        .replace(/"expires_at":"[^"]*"/g, '"expires_at":"T"')
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "UUID");
      expect(scrubbed, `stock ${q} in ${scrubbed}`).not.toMatch(new RegExp(`(?<![0-9])${q}(?![0-9])`));
      const reasons = res.json.data?.rejected ?? res.json.error?.rejected ?? [];
      for (const r of reasons) expect(["unavailable", "insufficient_stock"]).toContain(r.reason);
    }
    expect(statuses).toEqual([200, 400, 200, 400]);
  });
});

describe("/cart-links: other methods and CORS preflight", () => {
  it.each(["GET", "PUT", "PATCH", "DELETE"])("%s -> 405 with Allow: POST, OPTIONS", async (method) => {
    const res = await api("/cart-links", { method });
    expectErrorEnvelope(res, { status: 405, type: "method_not_allowed_error", code: "method_not_allowed" });
    expect(res.headers.get("allow")).toBe("POST, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("OPTIONS preflight allows POST with Content-Type from any origin", async () => {
    const res = await api("/cart-links", {
      method: "OPTIONS",
      headers: {
        Origin: "https://agent.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect([200, 204]).toContain(res.status);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const methods = (res.headers.get("access-control-allow-methods") ?? "").split(/\s*,\s*/);
    expect(methods).toContain("POST");
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(/\s*,\s*/);
    expect(allowed).toContain("content-type");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
  });
});

describe("/cart-links: rate limit (spec 8: burst 10, then 1 per second, per client IP)", () => {
  it("the 11th quick request from one address is 429 with Retry-After, in the error envelope", async () => {
    const ip = `10.250.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
    // Refused bodies cost the same token as good ones, and write nothing.
    const results = await Promise.all(
      Array.from({ length: 14 }, () =>
        api("/cart-links", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "x" }, { clientIp: ip }),
      ),
    );
    const limited = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 415).length).toBeLessThanOrEqual(11);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    for (const r of limited) {
      expectErrorEnvelope(r, { status: 429, type: "rate_limit_error", code: "rate_limited" });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get("x-ratelimit-limit")).toBe("10");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    }
    // Other addresses are not affected.
    const other = await mint([{ listing_id: ids["MIX-USED-B"]!, quantity: 1 }]);
    expectSuccessEnvelope(other);
  });
});

describe("openapi.json documents POST /cart-links", () => {
  let doc: any;
  beforeAll(async () => {
    const res = await api("/openapi.json");
    expect(res.status).toBe(200);
    doc = res.json;
  });
  const resolve = (node: any): any => {
    if (node?.$ref) {
      const path = String(node.$ref).replace(/^#\//, "").split("/");
      return resolve(path.reduce((n: any, k: string) => n?.[k], doc));
    }
    return node;
  };

  it("with the request schema: items 1..20, listing_id a string, quantity an integer 1..99, no other fields", () => {
    const op = doc.paths["/cart-links"]?.post;
    expect(op, "POST /cart-links").toBeDefined();
    expect(op.requestBody.required).toBe(true);
    const body = resolve(op.requestBody.content["application/json"].schema);
    expect(body.type).toBe("object");
    expect(body.required).toEqual(["items"]);
    expect(body.additionalProperties).toBe(false);
    const items = resolve(body.properties.items);
    expect(items.type).toBe("array");
    expect(items.minItems).toBe(1);
    expect(items.maxItems).toBe(20);
    const item = resolve(items.items);
    expect(item.type).toBe("object");
    expect([...item.required].sort()).toEqual(["listing_id", "quantity"]);
    expect(item.additionalProperties).toBe(false);
    expect(resolve(item.properties.quantity)).toMatchObject({ type: "integer", minimum: 1, maximum: 99 });
    expect(resolve(item.properties.listing_id).type).toBe("string");
  });

  it("a listing_id pattern, if given, accepts real listing ids (lower- and upper-case) and refuses others", () => {
    const listingId = resolve(resolve(resolve(resolve(doc.paths["/cart-links"].post.requestBody.content["application/json"].schema).properties.items).items).properties.listing_id);
    if (listingId.pattern === undefined) return;
    // JSON Schema patterns are ECMA-262 regular expressions without flags.
    const pattern = new RegExp(listingId.pattern, "u");
    expect(pattern.test(ids["MIX-NEW-A"]!)).toBe(true);
    expect(pattern.test(ids["MIX-NEW-A"]!.toUpperCase())).toBe(true);
    expect(pattern.test("not-a-uuid")).toBe(false);
  });

  it("with responses 200 (data: url, expires_at, accepted, rejected), 400, 413, 415 and 429", () => {
    const responses = doc.paths["/cart-links"].post.responses;
    for (const status of ["200", "400", "413", "415", "429"]) expect(Object.keys(responses)).toContain(status);
    const ok = resolve(responses["200"].content["application/json"].schema);
    const data = resolve(ok.properties.data);
    expect(Object.keys(data.properties).sort()).toEqual(["accepted", "expires_at", "rejected", "url"]);
    const rejected = resolve(resolve(data.properties.rejected).items);
    expect(resolve(rejected.properties.reason).enum.sort()).toEqual(["insufficient_stock", "unavailable"]);
    const error = resolve(resolve(responses["400"].content["application/json"].schema).properties.error);
    expect(Object.keys(error.properties)).toContain("rejected");
  });
});
