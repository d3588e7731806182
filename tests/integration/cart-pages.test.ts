/**
 * decisions.md "Cart links and carts": the pages a person sees. Opening a cart link
 * (/cart/l/{token}) fills that visitor's own cookie cart, re-checks price and availability then,
 * never doubles on a second open, and shows an expired or unknown link plainly; /cart and its
 * form posts (/cart/add, /cart/update) work without JavaScript and refuse cross-site posts; no
 * page shows a stock count. Plain HTTP with a cookie jar per visitor, pages read through the hooks
 * of docs/storefront-markup.md.
 *
 * These tests change catalog rows (prices, stock, status) and link expiry, so they run against an
 * app and database of their own, never the shared one. Each test takes listings nobody else uses
 * (`take`), so the tests do not depend on one another or on their order.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, findInventoryLeak, randomClientIp } from "../helpers/http";
import { parseCartPage, parseHeaderCart, parseHtml, parseProductPage, type CartPage } from "../helpers/html";
import { createTestDatabase, startServer, type StartedServer, type TestDatabase } from "../setup/app";

let database: TestDatabase;
let server: StartedServer;
let db: pg.Pool;

beforeAll(async () => {
  database = await createTestDatabase({ logPrefix: "[cart-pages]" });
  try {
    server = await startServer({ database, logPrefix: "[cart-pages]" });
  } catch (err) {
    await database.drop();
    throw err;
  }
  db = new pg.Pool({ connectionString: database.databaseUrl, max: 3 });
});

afterAll(async () => {
  await db?.end();
  await server?.stop();
  await database?.drop();
});

// ---------------------------------------------------------------------------------------------
// A visitor: plain HTTP with a cookie jar, no redirects followed
// ---------------------------------------------------------------------------------------------

interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Raw Set-Cookie lines of this response. */
  setCookies: string[];
}

class Visitor {
  readonly cookies = new Map<string, string>();
  /** Each visitor posts from an address of its own, so the form rate limit (30, then 5/s per IP) is theirs. */
  readonly ip = randomClientIp();

  get cartCookie(): string | undefined {
    return this.cookies.get("cart");
  }

  async request(path: string, init: RequestInit = {}): Promise<PageResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    if (!headers.has("User-Agent")) headers.set("User-Agent", "marketplace-cart-page-tests/1.0");
    if (!headers.has("X-Forwarded-For")) headers.set("X-Forwarded-For", this.ip);
    const res = await fetch(server.baseUrl + path, {
      ...init,
      headers,
      redirect: "manual",
      signal: AbortSignal.timeout(25_000),
    });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const pair = line.split(";", 1)[0]!;
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === "" || /;\s*max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    expect(res.status, `${init.method ?? "GET"} ${path} never answers 5xx (${text.slice(0, 200)})`).toBeLessThan(500);
    return { status: res.status, headers: res.headers, text, setCookies };
  }

  /** GET a page and read it through its hooks. */
  async page(path: string): Promise<CartPage & { res: PageResponse }> {
    const res = await this.request(path);
    expect(res.status, `GET ${path}`).toBe(200);
    return { ...parseCartPage(res.text), res };
  }

  cart() {
    return this.page("/cart");
  }

  open(url: string) {
    return this.page(new URL(url).pathname);
  }

  /** A same-origin HTML form post, as a browser sends it. */
  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      headers: { Origin: server.baseUrl, "Sec-Fetch-Site": "same-origin", ...headers },
      body: new URLSearchParams(form),
    });
  }

  /** POST /cart/add; returns the notice it redirects to. */
  async add(listingId: string, quantity?: number | string, headers?: Record<string, string>) {
    const form: Record<string, string> = { listing_id: listingId };
    if (quantity !== undefined) form.quantity = String(quantity);
    return noticeOf(await this.post("/cart/add", form, headers));
  }

  async update(listingId: string, fields: Record<string, string>, headers?: Record<string, string>) {
    return noticeOf(await this.post("/cart/update", { listing_id: listingId, ...fields }, headers));
  }
}

/** A form post answers 303 to /cart?notice=...; returns the notice. */
function noticeOf(res: PageResponse): string {
  expect(res.status, `form post answer (${res.text.slice(0, 200)})`).toBe(303);
  const location = res.headers.get("location") ?? "";
  const url = new URL(location, server.baseUrl);
  expect(url.pathname).toBe("/cart");
  return url.searchParams.get("notice") ?? "";
}

/** `[listing_id, quantity]` pairs of a page's cart lines, sorted by id. */
function quantities(page: CartPage): Array<[string, number | null]> {
  return page.lines.map((l): [string, number | null] => [l.listingId, l.quantity]).sort(([a], [b]) => a.localeCompare(b));
}

function sorted(pairs: Array<[string, number]>) {
  return [...pairs].sort(([a], [b]) => a.localeCompare(b));
}

// ---------------------------------------------------------------------------------------------
// Catalog rows of the isolated database
// ---------------------------------------------------------------------------------------------

interface Offer {
  id: string;
  price_cents: number;
  quantity: number;
  slug: string;
}

const PURCHASABLE = `l.status = 'active' AND s.status = 'active' AND p.publicly_listed`;
const taken = new Set<string>();

/**
 * `n` purchasable listings no other test has taken (generated catalog, ordered by id), with
 * at least 10 units and no backorder unless `backorder` is asked for. Tests may change them.
 */
async function take(n: number, { backorder = false } = {}): Promise<Offer[]> {
  const { rows } = await db.query<Offer>(
    `SELECT l.id::text AS id, l.price_cents, l.quantity, p.slug
     FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE ${PURCHASABLE} AND p.slug NOT LIKE 'fixture-%' AND l.allow_backorder = $1 AND ($1 OR l.quantity >= 10)
       AND l.price_cents BETWEEN 100 AND 99999 AND NOT (l.id = ANY($2::uuid[]))
     ORDER BY l.id LIMIT $3`,
    [backorder, [...taken], n],
  );
  expect(rows, "enough listings in the seed").toHaveLength(n);
  for (const r of rows) taken.add(r.id);
  return rows;
}

async function listingBySku(sku: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>("SELECT id::text FROM listings WHERE sku = $1", [sku]);
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

async function mint(items: Array<{ listing_id: string; quantity: number }>): Promise<string> {
  const res = await api(`${server.baseUrl}/api/public/v1/cart-links`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ items }),
  });
  expect(res.status, res.text).toBe(200);
  expect(res.json.data.accepted).toBe(items.length);
  return res.json.data.url;
}

function tokenHashOf(url: string): Buffer {
  return createHash("sha256").update(new URL(url).pathname.split("/").pop()!).digest();
}

function money(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

// ---------------------------------------------------------------------------------------------

describe("opening a cart link fills the visitor's own cart", () => {
  it("200 with a new HttpOnly SameSite=Lax cart cookie, private, no referrer, the link's lines", async () => {
    const [x, y] = await take(2);
    const url = await mint([
      { listing_id: x!.id, quantity: 2 },
      { listing_id: y!.id, quantity: 3 },
    ]);
    const visitor = new Visitor();
    const page = await visitor.open(url);

    const cookie = page.res.setCookies.find((c) => c.startsWith("cart="));
    expect(cookie, "Set-Cookie cart=").toBeDefined();
    expect(cookie).toMatch(/^cart=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    const cacheControl = page.res.headers.get("cache-control") ?? "";
    expect(cacheControl).toMatch(/no-store|private/);
    expect(cacheControl).not.toMatch(/public|s-maxage/);
    expect(page.res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.res.headers.get("x-robots-tag") ?? "").toContain("noindex");

    expect(page.page).toBe("cart-link");
    expect(page.linkState).toBe("opened");
    expect(page.firstOpen).toBe(true);
    expect(quantities(page)).toEqual(
      sorted([
        [x!.id, 2],
        [y!.id, 3],
      ]),
    );
    for (const line of page.lines) {
      expect(line.status).toBe("in_stock");
      expect(line.priceCents).toBe(line.listingId === x!.id ? x!.price_cents : y!.price_cents);
    }
    expect(page.subtotalCents).toBe(2 * x!.price_cents + 3 * y!.price_cents);
    expect(page.changes).toEqual([]);

    const cart = await visitor.cart();
    expect(cart.page).toBe("cart");
    expect(cart.lines).toEqual(page.lines);
    expect(cart.subtotalCents).toBe(page.subtotalCents);
    const cartCache = cart.res.headers.get("cache-control") ?? "";
    expect(cartCache).toMatch(/no-store|private/);
    expect(cartCache).not.toMatch(/public|s-maxage/);
  });

  it("a visitor who already has a cart cookie keeps it", async () => {
    const [x, y] = await take(2);
    const visitor = new Visitor();
    expect(await visitor.add(y!.id, 1)).toBe("added");
    const cookie = visitor.cartCookie;
    expect(cookie).toBeDefined();
    const page = await visitor.open(await mint([{ listing_id: x!.id, quantity: 1 }]));
    expect(page.res.setCookies.filter((c) => c.startsWith("cart="))).toEqual([]);
    expect(visitor.cartCookie).toBe(cookie);
    expect(quantities(page)).toEqual(
      sorted([
        [x!.id, 1],
        [y!.id, 1],
      ]),
    );
  });
});

describe("opening the same link again does not double", () => {
  it("second open: data-first-open=false, quantities unchanged", async () => {
    const [x, y] = await take(2);
    const url = await mint([
      { listing_id: x!.id, quantity: 2 },
      { listing_id: y!.id, quantity: 1 },
    ]);
    const visitor = new Visitor();
    const first = await visitor.open(url);
    expect(first.firstOpen).toBe(true);
    const second = await visitor.open(url);
    expect(second.linkState).toBe("opened");
    expect(second.firstOpen).toBe(false);
    expect(quantities(second)).toEqual(quantities(first));
    const third = await visitor.open(url);
    expect(quantities(third)).toEqual(quantities(first));
    expect(quantities(await visitor.cart())).toEqual(quantities(first));
  });

  it("a line removed after opening comes back at the link's quantity, not doubled", async () => {
    const [x, y] = await take(2);
    const url = await mint([
      { listing_id: x!.id, quantity: 2 },
      { listing_id: y!.id, quantity: 1 },
    ]);
    const visitor = new Visitor();
    await visitor.open(url);
    expect(await visitor.update(x!.id, { quantity: "2", remove: "1" })).toBe("removed");
    const afterRemove = await visitor.cart();
    expect(afterRemove.notice).toBeNull();
    expect(quantities(afterRemove)).toEqual([[y!.id, 1]]);

    const reopened = await visitor.open(url);
    expect(reopened.firstOpen).toBe(false);
    expect(quantities(reopened)).toEqual(
      sorted([
        [x!.id, 2],
        [y!.id, 1],
      ]),
    );
  });

  it("concurrent first opens by one visitor add the link once", async () => {
    const [x] = await take(1);
    const url = await mint([{ listing_id: x!.id, quantity: 2 }]);
    const visitor = new Visitor();
    expect(await visitor.add((await take(1))[0]!.id, 1)).toBe("added");
    const pages = await Promise.all([visitor.open(url), visitor.open(url), visitor.open(url)]);
    expect(pages.map((p) => p.linkState)).toEqual(["opened", "opened", "opened"]);
    expect(pages.filter((p) => p.firstOpen).length).toBe(1);
    const line = (await visitor.cart()).lines.find((l) => l.listingId === x!.id);
    expect(line?.quantity).toBe(2);
  });
});

describe("each visitor has their own cart", () => {
  it("another visitor opening the same link gets a cart of their own", async () => {
    const [x] = await take(1);
    const url = await mint([{ listing_id: x!.id, quantity: 2 }]);
    const alice = new Visitor();
    const bob = new Visitor();
    const first = await alice.open(url);
    expect(first.firstOpen).toBe(true);
    const other = await bob.open(url);
    expect(other.firstOpen).toBe(true);
    expect(bob.cartCookie).toBeDefined();
    expect(bob.cartCookie).not.toBe(alice.cartCookie);
    expect(quantities(other)).toEqual([[x!.id, 2]]);
    expect(quantities(await alice.cart())).toEqual([[x!.id, 2]]);

    // A visitor whose cookie is not a cart token gets a fresh one, and their own cart.
    const carol = new Visitor();
    carol.cookies.set("cart", "not-a-token");
    const third = await carol.open(url);
    expect(carol.cartCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(third.firstOpen).toBe(true);
    expect(quantities(third)).toEqual([[x!.id, 2]]);

    // A visitor without a cookie sees an empty cart, not somebody else's.
    const stranger = await new Visitor().cart();
    expect(stranger.empty).toBe(true);
    expect(stranger.lines).toEqual([]);
  });

  it("a cart holding 1 of X that opens a link with 2 of X holds 3 (the first open adds)", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id, 1)).toBe("added");
    const page = await visitor.open(await mint([{ listing_id: x!.id, quantity: 2 }]));
    expect(page.firstOpen).toBe(true);
    expect(quantities(page)).toEqual([[x!.id, 3]]);
  });
});

describe("price and availability are checked again when the link is opened", () => {
  it("a price change is reported and the cart takes the new price", async () => {
    const [x] = await take(1);
    const url = await mint([{ listing_id: x!.id, quantity: 2 }]);
    const newPrice = x!.price_cents === 12345 ? 12346 : 12345;
    await db.query("UPDATE listings SET price_cents = $2, list_price_cents = GREATEST(list_price_cents, $2) WHERE id = $1::uuid", [
      x!.id,
      newPrice,
    ]);
    const page = await new Visitor().open(url);
    expect(page.linkState).toBe("opened");
    const change = page.changes.find((c) => c.listingId === x!.id);
    expect(change, "data-link-line for the repriced listing").toBeDefined();
    expect(change!.text).toContain(money(newPrice));
    expect(change!.text).toContain(money(x!.price_cents));
    expect(page.lines).toEqual([{ listingId: x!.id, quantity: 2, priceCents: newPrice, status: "in_stock" }]);
    expect(page.subtotalCents).toBe(2 * newPrice);
  });

  it("an unchanged backorder offer is added and not reported as a change", async () => {
    const [b] = await take(1, { backorder: true });
    await db.query("UPDATE listings SET quantity = 0 WHERE id = $1::uuid", [b!.id]);
    const page = await new Visitor().open(await mint([{ listing_id: b!.id, quantity: 2 }]));
    expect(page.linkState).toBe("opened");
    expect(page.changes).toEqual([]);
    expect(page.lines).toEqual([{ listingId: b!.id, quantity: 2, priceCents: b!.price_cents, status: "backorder" }]);
  });

  it("a listing made inactive is reported unavailable and not added", async () => {
    const [x, y] = await take(2);
    const url = await mint([
      { listing_id: x!.id, quantity: 1 },
      { listing_id: y!.id, quantity: 1 },
    ]);
    await db.query("UPDATE listings SET status = 'inactive' WHERE id = $1::uuid", [x!.id]);
    const visitor = new Visitor();
    const page = await visitor.open(url);
    expect(page.linkState).toBe("opened");
    expect(page.changes.find((c) => c.listingId === x!.id)?.status).toBe("unavailable");
    expect(quantities(page)).toEqual([[y!.id, 1]]);
    expect(quantities(await visitor.cart())).toEqual([[y!.id, 1]]);
    expect(page.subtotalCents).toBe(y!.price_cents);
  });

  it("stock lowered below the link's quantity: the line is added and flagged insufficient_stock", async () => {
    const [x, y] = await take(2);
    const url = await mint([
      { listing_id: x!.id, quantity: 3 },
      { listing_id: y!.id, quantity: 1 },
    ]);
    await db.query("UPDATE listings SET quantity = 1 WHERE id = $1::uuid", [x!.id]);
    const page = await new Visitor().open(url);
    expect(page.changes.find((c) => c.listingId === x!.id)?.status).toBe("insufficient_stock");
    const line = page.lines.find((l) => l.listingId === x!.id);
    expect(line).toEqual({ listingId: x!.id, quantity: 3, priceCents: x!.price_cents, status: "insufficient_stock" });
    // Only lines that can be bought count towards the subtotal.
    expect(page.subtotalCents).toBe(y!.price_cents);
  });
});

describe("expired and unknown links", () => {
  it("an expired link says so and leaves the cart as it was", async () => {
    const [x, y] = await take(2);
    const visitor = new Visitor();
    expect(await visitor.add(y!.id, 2)).toBe("added");
    const before = await visitor.cart();
    const url = await mint([{ listing_id: x!.id, quantity: 1 }]);
    const updated = await db.query("UPDATE cart_links SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      tokenHashOf(url),
    ]);
    expect(updated.rowCount).toBe(1);

    const page = await visitor.open(url);
    expect(page.page).toBe("cart-link");
    expect(page.linkState).toBe("expired");
    expect(page.lines).toEqual([]);
    const after = await visitor.cart();
    expect(after.lines).toEqual(before.lines);
    expect(after.subtotalCents).toBe(before.subtotalCents);
    // A fresh visitor opening it gets nothing either.
    const fresh = new Visitor();
    expect((await fresh.open(url)).linkState).toBe("expired");
    expect((await fresh.cart()).empty).toBe(true);
  });

  const NOT_FOUND: Array<[string, () => string]> = [
    ["an unknown well-formed token", () => randomBytes(32).toString("base64url")],
    ["a short token", () => "abc"],
    ["a token one character too long", () => randomBytes(33).toString("base64url").slice(0, 44)],
    ["a token with a character outside base64url", () => `${randomBytes(32).toString("base64url").slice(0, 42)}.`],
    ["a 5,000-character token", () => "A".repeat(5000)],
    ["an encoded NUL", () => "%00"],
    ["an encoded slash", () => "a%2Fb"],
    ["unicode", () => encodeURIComponent("\u{1F600}\u00e9")],
    ["SQL", () => encodeURIComponent("' OR 1=1--")],
    ["a malformed percent-escape", () => "%ZZ"],
  ];

  it.each(NOT_FOUND)("%s -> 200 not_found, never a 500, the cart unchanged", async (_, token) => {
    const [y] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(y!.id, 1)).toBe("added");
    const res = await visitor.request(`/cart/l/${token()}`);
    expect(res.status).toBe(200);
    const page = parseCartPage(res.text);
    expect(page.page).toBe("cart-link");
    expect(page.linkState).toBe("not_found");
    expect(quantities(await visitor.cart())).toEqual([[y!.id, 1]]);
  });
});

describe("the cart's form posts", () => {
  it("POST /cart/add: 303 to /cart?notice=added, setting the cookie only when absent; quantities add up", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    const res = await visitor.post("/cart/add", { listing_id: x!.id, quantity: "2" });
    expect(noticeOf(res)).toBe("added");
    const cookie = res.setCookies.find((c) => c.startsWith("cart="));
    expect(cookie).toMatch(/^cart=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);

    const again = await visitor.post("/cart/add", { listing_id: x!.id.toUpperCase(), quantity: "3" });
    expect(noticeOf(again)).toBe("added");
    expect(again.setCookies.filter((c) => c.startsWith("cart="))).toEqual([]);
    const cart = await visitor.page("/cart?notice=added");
    expect(cart.notice).toBe("added");
    expect(cart.lines).toEqual([{ listingId: x!.id, quantity: 5, priceCents: x!.price_cents, status: "in_stock" }]);
    expect(cart.subtotalCents).toBe(5 * x!.price_cents);
  });

  it("a missing quantity adds one", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id)).toBe("added");
    expect(quantities(await visitor.cart())).toEqual([[x!.id, 1]]);
  });

  it("a line holds at most 99", async () => {
    const [b] = await take(1, { backorder: true });
    const visitor = new Visitor();
    expect(await visitor.add(b!.id, 60)).toBe("added");
    expect(await visitor.add(b!.id, 60)).toBe("added");
    const cart = await visitor.cart();
    expect(cart.lines).toHaveLength(1);
    expect(cart.lines[0]!.quantity).toBe(99);
    expect(cart.lines[0]!.status).toBe("backorder");
  });

  it("an offer that cannot be bought -> notice=unavailable, nothing added", async () => {
    const visitor = new Visitor();
    for (const id of [await listingBySku("MIX-INACTIVE"), await listingBySku("UNLISTED-A"), await listingBySku("MIX-SOLDOUT"), randomUUID()]) {
      expect(await visitor.add(id, 1)).toBe("unavailable");
    }
    expect((await visitor.cart()).empty).toBe(true);
  });

  it("more than the seller holds -> notice=insufficient_stock, nothing added", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id, x!.quantity + 1)).toBe("insufficient_stock");
    expect(await visitor.add(x!.id, x!.quantity)).toBe("added");
    expect(await visitor.add(x!.id, 1)).toBe("insufficient_stock");
    expect(quantities(await visitor.cart())).toEqual([[x!.id, x!.quantity]]);
  });

  const BAD_ADD: Array<[string, Record<string, string>]> = [
    ["quantity 0", { quantity: "0" }],
    ["quantity abc", { quantity: "abc" }],
    ["quantity 100", { quantity: "100" }],
    ["quantity -1", { quantity: "-1" }],
    ["quantity 1.5", { quantity: "1.5" }],
    ["quantity empty", { quantity: "" }],
    ["quantity blank", { quantity: " " }],
    ["quantity in exponent notation", { quantity: "1e1" }],
    ["quantity in hex", { quantity: "0x2" }],
    ["listing_id not a UUID", { listing_id: "not-a-uuid" }],
    ["listing_id SQL", { listing_id: "' OR 1=1--" }],
    ["listing_id missing", { listing_id: "" }],
  ];
  it.each(BAD_ADD)("bad input (%s) -> notice=invalid, the cart unchanged", async (_, override) => {
    const [x, y] = await take(2);
    const visitor = new Visitor();
    expect(await visitor.add(y!.id, 1)).toBe("added");
    const res = await visitor.post("/cart/add", { listing_id: x!.id, quantity: "1", ...override });
    expect(noticeOf(res)).toBe("invalid");
    expect(quantities(await visitor.cart())).toEqual([[y!.id, 1]]);
  });

  it("POST /cart/update sets a line's quantity (notice=updated); bad quantities change nothing", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id, 1)).toBe("added");
    expect(await visitor.update(x!.id, { quantity: "4" })).toBe("updated");
    expect(quantities(await visitor.cart())).toEqual([[x!.id, 4]]);
    // Bad input never removes a line either (an empty quantity is not 0).
    for (const quantity of ["100", "abc", "-1", "2.5", "", " ", "1e1", "0x2"]) {
      expect(await visitor.update(x!.id, { quantity })).toBe("invalid");
    }
    expect(await visitor.update("not-a-uuid", { quantity: "2" })).toBe("invalid");
    expect(await visitor.update(x!.id, {})).toBe("invalid");
    expect(quantities(await visitor.cart())).toEqual([[x!.id, 4]]);
  });

  it("an update never touches another visitor's cart", async () => {
    const [x] = await take(1);
    const owner = new Visitor();
    expect(await owner.add(x!.id, 2)).toBe("added");
    const other = new Visitor();
    expect(await other.update(x!.id, { quantity: "5" })).toBe("not_in_cart");
    expect(await other.update(x!.id, { remove: "1" })).toBe("not_in_cart");
    expect(quantities(await owner.cart())).toEqual([[x!.id, 2]]);
    expect((await other.cart()).empty).toBe(true);
  });

  const CROSS_SITE: Array<[string, Record<string, string>]> = [
    ["Origin: https://evil.example", { Origin: "https://evil.example", "Sec-Fetch-Site": "" }],
    ["Sec-Fetch-Site: cross-site", { Origin: "", "Sec-Fetch-Site": "cross-site" }],
    ["Origin: null", { Origin: "null", "Sec-Fetch-Site": "" }],
  ];
  it.each(CROSS_SITE)("a cross-site post (%s) is 403 and changes nothing", async (_, raw) => {
    const headers = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ""));
    const [x, y] = await take(2);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id, 1)).toBe("added");
    const post = (path: string, form: Record<string, string>) =>
      visitor.request(path, { method: "POST", headers, body: new URLSearchParams(form) });

    const add = await post("/cart/add", { listing_id: y!.id, quantity: "1" });
    expect(add.status).toBe(403);
    expect(add.setCookies).toEqual([]);
    const update = await post("/cart/update", { listing_id: x!.id, quantity: "7" });
    expect(update.status).toBe(403);
    const remove = await post("/cart/update", { listing_id: x!.id, remove: "1" });
    expect(remove.status).toBe(403);
    expect(quantities(await visitor.cart())).toEqual([[x!.id, 1]]);

    // Without a cookie, a refused post makes no cart either.
    const stranger = new Visitor();
    const res = await stranger.request("/cart/add", {
      method: "POST",
      headers,
      body: new URLSearchParams({ listing_id: y!.id, quantity: "1" }),
    });
    expect(res.status).toBe(403);
    expect(stranger.cookies.size).toBe(0);
  });
});

describe("a full cart", () => {
  it("holds at most 100 offers: a link says cart_full and /cart/add says full, nothing changes", async () => {
    const offers = await take(101);
    const [extra] = offers.splice(100, 1);
    const visitor = new Visitor();
    expect(await visitor.add(offers[0]!.id, 1)).toBe("added");
    const cartId = (
      await db.query<{ id: string }>("SELECT id::text FROM carts WHERE token_hash = $1", [
        createHash("sha256").update(visitor.cartCookie!).digest(),
      ])
    ).rows[0]!.id;
    await db.query(
      `INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents)
       SELECT $1::uuid, l.id, 1, l.price_cents FROM listings l WHERE l.id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING`,
      [cartId, offers.map((o) => o.id)],
    );
    const url = await mint([{ listing_id: extra!.id, quantity: 1 }]);
    const page = await visitor.open(url);
    expect(page.linkState).toBe("cart_full");
    expect(await visitor.add(extra!.id, 1)).toBe("full");
    const cart = await visitor.cart();
    expect(cart.lines).toHaveLength(100);
    expect(cart.lines.some((l) => l.listingId === extra!.id)).toBe(false);
    // What is already in the cart can still be added to.
    expect(await visitor.add(offers[0]!.id, 1)).toBe("added");
  });
});

describe("no page shows a stock count", () => {
  it("a distinctive stock (7919) appears on neither the link page, the cart nor the product page", async () => {
    const STOCK = 7919;
    const [x] = await take(1);
    await db.query("UPDATE listings SET quantity = $2 WHERE id = $1::uuid", [x!.id, STOCK]);
    const res = await api(`${server.baseUrl}/api/public/v1/cart-links`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ items: [{ listing_id: x!.id, quantity: 99 }] }),
    });
    expect(res.status).toBe(200);
    expect(findInventoryLeak(res.json)).toEqual([]);
    const visitor = new Visitor();
    const pages = [
      await visitor.request(new URL(res.json.data.url).pathname),
      await visitor.request("/cart"),
      await visitor.request(`/p/${x!.slug}`),
    ];
    expect(quantities(parseCartPage(pages[0]!.text))).toEqual([[x!.id, 99]]);
    for (const page of pages) {
      expect(page.status).toBe(200);
      // Ids, hashes and build file names are letters and digits: look for the number alone.
      const text = page.text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "UUID");
      expect(text).not.toMatch(new RegExp(`(?<![0-9A-Za-z_-])${STOCK}(?![0-9A-Za-z_-])`));
      expect(text).not.toContain("7,919");
    }
  });
});

describe("the product page offers each offer to the cart", () => {
  it("one Add to cart form per offer, posting listing_id to /cart/add, that fills the cart", async () => {
    const res = await new Visitor().request("/p/fixture-mixed-offers");
    expect(res.status).toBe(200);
    const $ = parseHtml(res.text);
    const rows = $("tr[data-listing-id]").toArray();
    expect(rows).toHaveLength(4);
    const forms: Array<{ listingId: string; fields: Record<string, string> }> = [];
    for (const row of rows) {
      const r = $(row);
      const listingId = r.attr("data-listing-id")!;
      const form = r.find("form");
      expect(form, `one form in the row of ${listingId}`).toHaveLength(1);
      expect((form.attr("method") ?? "").toLowerCase()).toBe("post");
      expect(form.attr("action")).toBe("/cart/add");
      const hidden = form.find('input[type="hidden"][name="listing_id"]');
      expect(hidden).toHaveLength(1);
      expect(hidden.attr("value")).toBe(listingId);
      expect(form.find('input[name="quantity"]')).toHaveLength(1);
      expect(form.find('button[type="submit"], input[type="submit"]').text()).toContain("Add to cart");
      const fields = Object.fromEntries(
        form
          .find("input[name]")
          .toArray()
          .map((el) => [$(el).attr("name")!, $(el).attr("value") ?? ""]),
      );
      forms.push({ listingId, fields });
    }
    // The four rows' forms and the featured offer's.
    expect($('form[action="/cart/add"]')).toHaveLength(5);

    // Submitting a form as the page renders it puts that offer in the cart.
    const visitor = new Visitor();
    const chosen = forms[0]!;
    expect(noticeOf(await visitor.post("/cart/add", chosen.fields))).toBe("added");
    expect(quantities(await visitor.cart())).toEqual([[chosen.listingId, Number(chosen.fields.quantity)]]);
  });

  it("the featured offer's box holds the same form for the buy-box listing, and it fills the cart", async () => {
    const res = await new Visitor().request("/p/fixture-mixed-offers");
    const page = parseProductPage(res.text);
    expect(page.buyBoxListingId).toBeTruthy();
    const form = page.buyBoxForm;
    expect(form, "a form in .buy-box").not.toBeNull();
    expect(form).toEqual({ method: "post", action: "/cart/add", listingId: page.buyBoxListingId, hasQuantity: true, button: "Add to cart" });
    // The same form as the buy-box row's own.
    expect(page.offerForms[page.buyBoxListingId!]).toEqual(form);

    const $ = parseHtml(res.text);
    const fields = Object.fromEntries(
      $(".buy-box form input[name]")
        .toArray()
        .map((el) => [$(el).attr("name")!, $(el).attr("value") ?? ""]),
    );
    const visitor = new Visitor();
    expect(noticeOf(await visitor.post("/cart/add", fields))).toBe("added");
    expect(quantities(await visitor.cart())).toEqual([[page.buyBoxListingId!, 1]]);
  });

  it("a product without a buy box (backorder only) has no featured form, its row keeps its own", async () => {
    const page = parseProductPage((await new Visitor().request("/p/fixture-backorder-only")).text);
    expect(page.buyBoxListingId).toBeNull();
    expect(page.buyBoxForm).toBeNull();
    expect(Object.values(page.offerForms)).toHaveLength(1);
    expect(Object.values(page.offerForms)[0]).toMatchObject({ action: "/cart/add", button: "Add to cart" });
  });
});

// ---------------------------------------------------------------------------------------------

/** Purchasable listings nobody has taken from two different stores: `perStore` from each. */
async function takeFromTwoStores(perStore: number): Promise<Array<Offer & { store_slug: string; store_name: string }>[]> {
  const { rows } = await db.query<Offer & { store_slug: string; store_name: string }>(
    `SELECT l.id::text AS id, l.price_cents, l.quantity, p.slug, s.slug AS store_slug, s.name AS store_name
     FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
     WHERE ${PURCHASABLE} AND p.slug NOT LIKE 'fixture-%' AND NOT l.allow_backorder AND l.quantity >= 10
       AND l.price_cents BETWEEN 100 AND 99999 AND NOT (l.id = ANY($1::uuid[]))
     ORDER BY l.id`,
    [[...taken]],
  );
  const byStore = new Map<string, typeof rows>();
  for (const row of rows) {
    const list = byStore.get(row.store_slug) ?? [];
    // One listing per product, so no two lines share a thumbnail by accident of the data.
    if (list.length < perStore && !list.some((r) => r.slug === row.slug)) list.push(row);
    byStore.set(row.store_slug, list);
  }
  const stores = [...byStore.values()].filter((list) => list.length === perStore).slice(0, 2);
  expect(stores, "two stores with enough listings in the seed").toHaveLength(2);
  for (const r of stores.flat()) taken.add(r.id);
  return stores;
}

describe("the cart is grouped by store, one parcel each", () => {
  it("a section per store in the order its first line was added, its lines in the order added, each with its product's thumbnail", async () => {
    const [storeA, storeB] = await takeFromTwoStores(2);
    const [a1, a2] = storeA!;
    const [b1] = storeB!;
    const visitor = new Visitor();
    // Interleaved: the second store's line comes between the first store's two.
    for (const id of [a1!.id, b1!.id, a2!.id]) expect(await visitor.add(id, 1)).toBe("added");
    const cart = await visitor.cart();

    expect(cart.stores.map((s) => [s.slug, s.lines.map((l) => l.listingId)])).toEqual([
      [a1!.store_slug, [a1!.id, a2!.id]],
      [b1!.store_slug, [b1!.id]],
    ]);
    expect(cart.stores[0]!.heading).toContain(a1!.store_name);
    expect(cart.stores[1]!.heading).toContain(b1!.store_name);
    // Every line sits in exactly one parcel; the subtotal covers them all.
    expect(cart.lines.map((l) => l.listingId)).toEqual([a1!.id, a2!.id, b1!.id]);
    expect(cart.subtotalCents).toBe(a1!.price_cents + a2!.price_cents + b1!.price_cents);

    // The thumbnail is the product's first image, as the public API gives it.
    for (const offer of [a1!, a2!, b1!]) {
      const res = await api(`${server.baseUrl}/api/public/v1/products/${offer.slug}`);
      expect(res.status).toBe(200);
      const expected = (res.json.data.images as Array<{ url: string }>)[0]?.url ?? null;
      const line = cart.stores.flatMap((s) => s.lines).find((l) => l.listingId === offer.id);
      expect(line?.thumbnail, `thumbnail of ${offer.slug}`).toBe(expected);
    }

    // The cart link page shows the same parcels.
    const link = await visitor.open(await mint([{ listing_id: b1!.id, quantity: 1 }]));
    expect(link.stores.map((s) => s.slug)).toEqual([a1!.store_slug, b1!.store_slug]);
  });
});

describe("the header's Cart link shows the item count on private pages only", () => {
  it("/cart and /checkout: Cart (n) with data-cart-count = the cart's item count; an empty cart shows Cart and 0", async () => {
    const [x, y] = await take(2);
    const visitor = new Visitor();
    const empty = await visitor.cart();
    expect(empty.headerCart).toEqual({ text: "Cart", count: 0 });
    expect(await visitor.add(x!.id, 2)).toBe("added");
    expect(await visitor.add(y!.id, 1)).toBe("added");
    const cart = await visitor.cart();
    expect(cart.headerCart).toEqual({ text: "Cart (3)", count: 3 });
    expect(cart.res.headers.get("cache-control") ?? "").not.toMatch(/public|s-maxage/);
    // The guest checkout page is private too.
    const checkout = await visitor.request("/checkout");
    expect(checkout.status).toBe(200);
    expect(checkout.headers.get("cache-control") ?? "").not.toMatch(/public|s-maxage/);
    expect(parseHeaderCart(checkout.text)).toEqual({ text: "Cart (3)", count: 3 });
  });

  it("publicly cached pages never carry a visitor's count, even when the client names a private path", async () => {
    const [x] = await take(1);
    const visitor = new Visitor();
    expect(await visitor.add(x!.id, 2)).toBe("added");
    for (const path of ["/", "/search", `/p/${x!.slug}`, "/help"]) {
      for (const headers of [{}, { "x-storefront-path": "/cart" }] as Array<Record<string, string>>) {
        const res = await visitor.request(path, { headers });
        expect(res.status, path).toBe(200);
        expect(res.headers.get("cache-control") ?? "", path).toContain("public");
        expect(parseHeaderCart(res.text), path).toEqual({ text: "Cart", count: null });
      }
    }
  });
});
