/**
 * Checkout for people (decisions.md "Orders, checkout and returns"): the pages over plain HTTP as
 * a browser without JavaScript drives them (the cart's "Checkout" button, /checkout, "Place
 * order", the confirmation page), and the domain functions (lib/orders/checkout.ts) called
 * directly against the same database for the rules every caller shares: stock taken with
 * conditional updates, all or nothing, one order per checkout token, total_changed, declined
 * cards, the payment's reference (the same on a retry, new after a decline or a refund),
 * shipping per store, and the order's exact wire shape.
 *
 * Checkout writes, so it runs on an app and database of its own.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../lib/accounts/password";
import { createDb, type PrismaClient } from "../../lib/db";
import { AppError } from "../../lib/errors";
import type { ChargeResult } from "../../lib/payments";
import { testProvider } from "../../lib/payments/test-provider";
import { parseHtml } from "../helpers/html";
import { fillForm } from "../helpers/forms";
import { expectExactKeys } from "../helpers/http";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const GOOD_CARD = "4242 4242 4242 4242";
const DECLINED_CARD = "4000 0000 0000 0002";
const ORDER_KEYS = [
  "id", "object", "number", "status", "placed_via", "lines", "subtotal_cents", "shipping_cents", "total_cents",
  "currency", "shipping_address", "created_at", "updated_at",
];
const LINE_KEYS = ["id", "listing_id", "product_slug", "title", "store_slug", "condition", "quantity", "unit_price_cents", "line_total_cents"];
const ADDRESS_KEYS = ["full_name", "line1", "line2", "city", "state", "postal_code", "country"];

let app: IsolatedApp;
let client: PrismaClient;
let checkout: typeof import("../../lib/checkout");
let product: { id: string; slug: string; title: string };

interface Page {
  status: number;
  text: string;
  location: string | null;
}

/** A browser: a cookie jar, GETs and form posts from the app's own pages, 303s followed on demand. */
class Browser {
  private jar = new Map<string, string>();
  private readonly ip = `10.${rand()}.${rand()}.${rand() + 1}`;

  async get(path: string): Promise<Page> {
    return this.request(path, { method: "GET" });
  }

  async post(path: string, fields: Record<string, string>): Promise<Page> {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl },
    });
  }

  /** Posts and follows the 303 to the page it leads to. */
  async submit(path: string, fields: Record<string, string>): Promise<{ posted: Page; page: Page }> {
    const posted = await this.post(path, fields);
    expect(posted.status, `POST ${path}: ${posted.text.slice(0, 300)}`).toBe(303);
    return { posted, page: await this.get(posted.location!) };
  }

  async addToCart(listingId: string, quantity = 1) {
    const res = await this.post("/cart/add", { listing_id: listingId, quantity: String(quantity) });
    expect(res.location).toBe("/cart?notice=added");
  }

  /** Opens /checkout, fills the form "Checkout" by its labels and presses "Place order". */
  async placeOrder(values: Record<string, string>): Promise<{ posted: Page; page: Page }> {
    const form = await this.get("/checkout");
    expect(form.status).toBe(200);
    const filled = fillForm(form.text, "Checkout", values, "Place order");
    expect(filled.action).toBe("/checkout/place");
    return this.submit(filled.action, filled.fields);
  }

  private async request(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("Cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    headers.set("X-Forwarded-For", this.ip);
    const res = await fetch(new URL(path, app.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(60_000) });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || attrs.some((a) => /max-age=0\b/i.test(a.trim()))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const location = res.headers.get("location");
    const url = location ? new URL(location, app.baseUrl) : null;
    return { status: res.status, text: await res.text(), location: url ? url.pathname + url.search : null };
  }
}

const rand = () => Math.floor(Math.random() * 254);

const GUEST_ADDRESS = {
  "Full name": "Zoë Guest",
  "Address line 1": "1 Main Street",
  City: "Springfield",
  State: "IL",
  "ZIP code": "62701",
};

function guestValues(overrides: Record<string, string> = {}): Record<string, string> {
  return { Email: `guest-${randomBytes(4).toString("hex")}@example.com`, ...GUEST_ADDRESS, "Card number": GOOD_CARD, ...overrides };
}

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await app.pool.query(sql, params)).rows as T[];
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
  return row!.n;
}

let skuSeq = 0;

/** A shipping template of `store` with standard rates `{ region: [price, free_over] }`. */
async function template(store: string, rates: Record<string, [number, number | null]>): Promise<string> {
  const [t] = await query(`INSERT INTO shipping_templates (store_id, name) VALUES ($1, $2) RETURNING id`, [await storeIdOf(app.pool, store), `t${++skuSeq}`]);
  for (const [region, [price, freeOver]] of Object.entries(rates)) {
    await query(
      `INSERT INTO shipping_rates (template_id, region, service, price_cents, free_over_cents, min_days, max_days) VALUES ($1, $2, 'standard', $3, $4, 2, 5)`,
      [t.id, region, price, freeOver],
    );
  }
  return t.id;
}

/** An active listing of `store` for the test product. */
async function listing(store: string, opts: { price: number; quantity: number; backorder?: boolean; template?: string | null }): Promise<string> {
  const [row] = await query(
    `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, shipping_template_id, published_at)
     VALUES ($1, $2, $3, 'new', $4, $4, $5, $6, 'active', $7, now()) RETURNING id`,
    [await storeIdOf(app.pool, store), product.id, `CHK-${++skuSeq}-${randomBytes(3).toString("hex")}`, opts.price, opts.quantity, opts.backorder ?? false, opts.template ?? null],
  );
  return row.id;
}

async function quantityOf(id: string): Promise<number> {
  return (await query(`SELECT quantity FROM listings WHERE id = $1`, [id]))[0].quantity;
}

async function ordersOfListing(id: string): Promise<number> {
  return count(`SELECT count(DISTINCT order_id) FROM order_lines WHERE listing_id = $1`, [id]);
}

async function createUser(email: string): Promise<string> {
  const [row] = await query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, 'shopper', $3) RETURNING id`, [
    email,
    "Sam Buyer",
    await hashPassword(PASSWORD),
  ]);
  return row.id;
}

async function giveDefaults(userId: string) {
  await query(
    `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Sam Buyer', '5 Elm Road', 'Portland', 'OR', '97201', 'US', true)`,
    [userId],
  );
  await query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'test', 'test_card', 'Test card', '4242', true)`, [userId]);
}

async function signIn(browser: Browser, email: string) {
  const res = await browser.post("/signin/password", { email, password: PASSWORD, next: "/checkout" });
  expect(res.status, res.text.slice(0, 200)).toBe(303);
}

function alertOf(html: string): { message: string; invalid: string[] } | null {
  const $ = parseHtml(html);
  const alert = $("[role=alert]").first();
  if (!alert.length) return null;
  return { message: alert.text().trim(), invalid: $("[aria-invalid=true]").map((_, el) => $(el).attr("name") ?? "").get() };
}

function inputValue(html: string, name: string): string | undefined {
  return parseHtml(html)(`[name="${name}"]`).first().attr("value");
}

function orderNumberOf(page: Page): string {
  const heading = parseHtml(page.text)("h1").text();
  const match = /M-\d+/.exec(heading);
  expect(match, heading).not.toBeNull();
  return match![0];
}

beforeAll(async () => {
  app = await startIsolatedApp("checkout");
  // The domain functions run in this process against the app's database.
  client = createDb(app.database.databaseUrl);
  (globalThis as unknown as { __marketplaceDb?: PrismaClient }).__marketplaceDb = client;
  checkout = await import("../../lib/checkout");
  product = (await query(`SELECT id, slug, title FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`))[0];
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("checkout pages", () => {
  it("the cart's Checkout button leads to /checkout", async () => {
    const browser = new Browser();
    await browser.addToCart(await listing("fixture-store-a", { price: 1000, quantity: 3 }));
    const cart = await browser.get("/cart");
    const $ = parseHtml(cart.text);
    const button = $("button").filter((_, el) => $(el).text().trim() === "Checkout");
    expect(button.length).toBe(1);
    const form = button.closest("form");
    expect(form.attr("action")).toBe("/checkout");
    expect((form.attr("method") ?? "get").toLowerCase()).toBe("get");
  });

  it("a guest buys a two-store cart: one order, a part per store, shipping per store, stock taken, cart emptied, e-mail sent", async () => {
    // Store A: the highest rate of its lines (700, never free) applies once; store B's rate is waived at 3000.
    const ta1 = await template("fixture-store-a", { US: [500, 5000], "*": [900, null] });
    const ta2 = await template("fixture-store-a", { US: [700, null] });
    const tb = await template("fixture-store-b", { US: [400, 3000] });
    const a1 = await listing("fixture-store-a", { price: 2000, quantity: 5, template: ta1 });
    const a2 = await listing("fixture-store-a", { price: 1500, quantity: 5, template: ta2 });
    const b1 = await listing("fixture-store-b", { price: 3000, quantity: 5, template: tb });
    const browser = new Browser();
    await browser.addToCart(a1);
    await browser.addToCart(a2);
    await browser.addToCart(b1);

    const page = await browser.get("/checkout");
    const $ = parseHtml(page.text);
    expect($("[data-store]").map((_, el) => $(el).attr("data-store")).get()).toEqual(["fixture-store-a", "fixture-store-b"]);
    expect($("[data-store=fixture-store-a] h3").text()).toMatch(/^Sold by /);
    expect($("[data-store-shipping-cents]").map((_, el) => $(el).attr("data-store-shipping-cents")).get()).toEqual(["700", "0"]);
    expect($("[data-subtotal-cents]").attr("data-subtotal-cents")).toBe("6500");
    expect($("[data-shipping-cents]").attr("data-shipping-cents")).toBe("700");
    expect($("[data-total-cents]").attr("data-total-cents")).toBe("7200");

    const email = `guest-${randomBytes(4).toString("hex")}@example.com`;
    const filled = fillForm(page.text, "Checkout", { ...guestValues({ Email: email }), "Address line 2": "Apt 4" }, "Place order");
    const { posted, page: confirmation } = await browser.submit(filled.action, filled.fields);
    expect(posted.location).toMatch(/^\/checkout\/confirmation\/M-\d+\?key=[A-Za-z0-9_-]{43}$/);
    expect(confirmation.status).toBe(200);
    const number = orderNumberOf(confirmation);

    const [order] = await query(`SELECT * FROM orders WHERE number = $1`, [number]);
    expect(order).toMatchObject({ user_id: null, email, status: "placed", placed_via: "storefront", subtotal_cents: 6500, shipping_cents: 700, total_cents: 7200, payment_last4: "4242" });
    expect(order.shipping_address).toEqual({ full_name: "Zoë Guest", line1: "1 Main Street", line2: "Apt 4", city: "Springfield", state: "IL", postal_code: "62701", country: "US" });
    const parts = await query(`SELECT s.slug, o.shipping_cents FROM order_stores o JOIN stores s ON s.id = o.store_id WHERE o.order_id = $1 ORDER BY s.slug`, [order.id]);
    expect(parts).toEqual([{ slug: "fixture-store-a", shipping_cents: 700 }, { slug: "fixture-store-b", shipping_cents: 0 }]);
    const lines = await query(`SELECT listing_id, position, product_slug, title, store_slug, condition::text, quantity, unit_price_cents FROM order_lines WHERE order_id = $1 ORDER BY position`, [order.id]);
    expect(lines.map((l) => [l.listing_id, l.position, l.store_slug, l.unit_price_cents, l.product_slug, l.title])).toEqual([
      [a1, 0, "fixture-store-a", 2000, product.slug, product.title],
      [a2, 1, "fixture-store-a", 1500, product.slug, product.title],
      [b1, 2, "fixture-store-b", 3000, product.slug, product.title],
    ]);
    expect(await count(`SELECT count(*) FROM order_events WHERE order_id = $1 AND status = 'placed' AND store_id IS NULL`, [order.id])).toBe(1);
    for (const id of [a1, a2, b1]) {
      expect(await quantityOf(id)).toBe(4);
      const adjustments = await query(`SELECT delta, quantity_after, reason FROM stock_adjustments WHERE listing_id = $1`, [id]);
      expect(adjustments).toEqual([{ delta: -1, quantity_after: 4, reason: `order ${number}` }]);
    }
    // Nothing but the last 4 digits of the card is stored.
    expect(JSON.stringify(order)).not.toContain("4242424242424242");

    const cart = await browser.get("/cart");
    expect(cart.text).toContain('data-cart-empty="true"');

    const [mail] = await query(`SELECT subject, body FROM outbox_emails WHERE to_address = $1`, [email]);
    expect(mail.subject).toContain(number);
    expect(mail.body).toContain(number);
    expect(mail.body).toContain("$72.00");
    expect(mail.body).toContain("1 Main Street");
    expect(mail.body).toContain(posted.location!);
    expect(mail.body).toMatch(/Sold and shipped by .+:\n {2}1 × /);

    // Nobody else sees it: no key, a forged key, a forged number.
    const stranger = new Browser();
    const path = posted.location!.split("?")[0]!;
    expect((await stranger.get(path)).status).toBe(404);
    expect((await stranger.get(`${path}?key=${"A".repeat(43)}`)).status).toBe(404);
    expect((await stranger.get(posted.location!)).status).toBe(200);
    expect((await stranger.get(`/checkout/confirmation/M-99999999?key=${posted.location!.split("key=")[1]}`)).status).toBe(404);
    expect((await stranger.get(`/checkout/confirmation/${encodeURIComponent("M-1'; DROP TABLE orders;--")}`)).status).toBe(404);
  });

  it("a double click places one order: both posts land on its confirmation", async () => {
    const id = await listing("fixture-store-a", { price: 1200, quantity: 5 });
    const browser = new Browser();
    await browser.addToCart(id);
    const page = await browser.get("/checkout");
    const filled = fillForm(page.text, "Checkout", guestValues(), "Place order");
    const [first, second] = await Promise.all([browser.post(filled.action, filled.fields), browser.post(filled.action, filled.fields)]);
    expect(first.status).toBe(303);
    expect(second.location).toBe(first.location);
    expect(await ordersOfListing(id)).toBe(1);
    expect(await quantityOf(id)).toBe(4);
  });

  it("a declined card changes nothing and keeps what was typed, but not the card number", async () => {
    const id = await listing("fixture-store-a", { price: 1300, quantity: 2 });
    const browser = new Browser();
    await browser.addToCart(id);
    const orders = await count(`SELECT count(*) FROM orders`);
    const { posted, page } = await browser.placeOrder(guestValues({ Email: "declined@example.com", "Card number": DECLINED_CARD }));
    expect(posted.location).toMatch(/^\/checkout\?refused=/);
    expect(alertOf(page.text)?.message).toMatch(/declined/i);
    expect(inputValue(page.text, "email")).toBe("declined@example.com");
    expect(inputValue(page.text, "line1")).toBe("1 Main Street");
    expect(inputValue(page.text, "card_number")).toBeUndefined();
    expect(await count(`SELECT count(*) FROM orders`)).toBe(orders);
    expect(await quantityOf(id)).toBe(2);
    expect(await count(`SELECT count(*) FROM stock_adjustments WHERE listing_id = $1`, [id])).toBe(0);
    // The message is shown once: a later visit to /checkout does not repeat it.
    expect(alertOf((await browser.get("/checkout")).text)).toBeNull();
  });

  it("hostile or wrong fields get a clear message on the page and change nothing", async () => {
    const id = await listing("fixture-store-a", { price: 1400, quantity: 2 });
    const browser = new Browser();
    await browser.addToCart(id);
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ "Address line 1": "x".repeat(10_000) }, "line1", /too long/],
      [{ City: "Spring\u0000field" }, "city", /control characters/],
      [{ State: "I\u0007L" }, "state", /control characters/],
      [{ "Full name": "Line\nBreak" }, "full_name", /control characters/],
      [{ Email: "not-an-email" }, "email", /e-mail/],
      [{ "Card number": "1234" }, "card_number", /card number/],
      [{ "Card number": "4242 4242 4242 4241" }, "card_number", /card number/],
      [{ "ZIP code": "ABCDE" }, "postal_code", /ZIP/],
      [{ City: "" }, "city", /city/],
    ];
    for (const [override, field, message] of cases) {
      const { page } = await browser.placeOrder(guestValues(override));
      const alert = alertOf(page.text);
      expect(alert?.message, JSON.stringify(override).slice(0, 80)).toMatch(message);
      expect(alert?.invalid).toEqual([field]);
      expect(inputValue(page.text, "card_number")).toBeUndefined();
      if (field !== "line1") expect(inputValue(page.text, "line1")).toBe(override["Address line 1"] ?? "1 Main Street");
    }
    expect(await ordersOfListing(id)).toBe(0);
    expect(await quantityOf(id)).toBe(2);
  });

  it("sold out between cart and checkout: the page says so and offers no Place order; sold out after the page: refused", async () => {
    const id = await listing("fixture-store-a", { price: 1500, quantity: 1 });
    const browser = new Browser();
    await browser.addToCart(id);
    await query(`UPDATE listings SET quantity = 0 WHERE id = $1`, [id]);
    const page = await browser.get("/checkout");
    const $ = parseHtml(page.text);
    expect($(`[data-change=sold_out][data-listing=${id}]`).text()).toMatch(/sold out/);
    expect($("button").filter((_, el) => $(el).text() === "Place order").length).toBe(0);

    await query(`UPDATE listings SET quantity = 1 WHERE id = $1`, [id]);
    const fresh = await browser.get("/checkout");
    const filled = fillForm(fresh.text, "Checkout", guestValues(), "Place order");
    await query(`UPDATE listings SET quantity = 0 WHERE id = $1`, [id]);
    const { page: refused } = await browser.submit(filled.action, filled.fields);
    expect(alertOf(refused.text)?.message).toMatch(/sold out/);
    expect(await ordersOfListing(id)).toBe(0);
  });

  it("a deactivated listing is shown as such and cannot be bought", async () => {
    const id = await listing("fixture-store-b", { price: 1600, quantity: 3 });
    const browser = new Browser();
    await browser.addToCart(id);
    const fresh = await browser.get("/checkout");
    const filled = fillForm(fresh.text, "Checkout", guestValues(), "Place order");
    await query(`UPDATE listings SET status = 'inactive' WHERE id = $1`, [id]);
    const { page } = await browser.submit(filled.action, filled.fields);
    expect(alertOf(page.text)?.message).toMatch(/can no longer be bought/);
    expect(parseHtml(page.text)(`[data-change=unavailable][data-listing=${id}]`).length).toBe(1);
    expect(await ordersOfListing(id)).toBe(0);
    expect(await quantityOf(id)).toBe(3);
  });

  it("a price that moved shows on the page; moving again after the page is refused with the new total", async () => {
    const id = await listing("fixture-store-a", { price: 1700, quantity: 3 });
    const browser = new Browser();
    await browser.addToCart(id);
    await query(`UPDATE listings SET price_cents = 1800 WHERE id = $1`, [id]);
    const page = await browser.get("/checkout");
    expect(parseHtml(page.text)(`[data-change=price_changed][data-listing=${id}]`).text()).toMatch(/\$18\.00.*\$17\.00/);
    const filled = fillForm(page.text, "Checkout", guestValues(), "Place order");
    await query(`UPDATE listings SET price_cents = 1900 WHERE id = $1`, [id]);
    const { page: refused } = await browser.submit(filled.action, filled.fields);
    expect(alertOf(refused.text)?.message).toMatch(/total changed.*\$19\.00/);
    expect(await ordersOfListing(id)).toBe(0);
    // The page now shows the new total; placing from it succeeds at that price.
    const { page: confirmation } = await browser.placeOrder(guestValues());
    const [order] = await query(`SELECT total_cents FROM orders WHERE number = $1`, [orderNumberOf(confirmation)]);
    expect(order.total_cents).toBe(1900);
  });

  it("a quantity changed in another tab after the page was shown is refused", async () => {
    const id = await listing("fixture-store-a", { price: 1000, quantity: 9 });
    const browser = new Browser();
    await browser.addToCart(id);
    const page = await browser.get("/checkout");
    const filled = fillForm(page.text, "Checkout", guestValues(), "Place order");
    await browser.post("/cart/update", { listing_id: id, quantity: "2" });
    // Same total is impossible here, but the check is on the lines themselves.
    const { page: refused } = await browser.submit(filled.action, filled.fields);
    expect(alertOf(refused.text)?.message).toMatch(/changed/);
    expect(await ordersOfListing(id)).toBe(0);
    expect(await quantityOf(id)).toBe(9);
  });

  it("a signed-in buyer sees their default address and card chosen and checks out with them", async () => {
    const email = `buyer-${randomBytes(4).toString("hex")}@example.com`;
    const userId = await createUser(email);
    await giveDefaults(userId);
    const id = await listing("fixture-store-b", { price: 2500, quantity: 4 });
    const browser = new Browser();
    await signIn(browser, email);
    await browser.addToCart(id, 2);
    const page = await browser.get("/checkout");
    const $ = parseHtml(page.text);
    expect($("input[name=address][value=saved]").attr("checked")).toBeDefined();
    expect($("[data-saved-address]").text()).toContain("5 Elm Road");
    expect($("input[name=payment][value=saved]").attr("checked")).toBeDefined();
    expect($("[data-saved-card]").text()).toContain("4242");
    expect($("input[name=email], input[name=card_number], input[name=line1]").length).toBe(0);

    const filled = fillForm(page.text, "Checkout", {}, "Place order");
    const { posted, page: confirmation } = await browser.submit(filled.action, filled.fields);
    expect(posted.location).toMatch(/^\/checkout\/confirmation\/M-\d+$/);
    const number = orderNumberOf(confirmation);
    expect(confirmation.text).toContain(`/account/orders/${number}`);
    const [order] = await query(`SELECT user_id, email, shipping_address, payment_last4 FROM orders WHERE number = $1`, [number]);
    expect(order).toMatchObject({ user_id: userId, email, payment_last4: "4242" });
    expect(order.shipping_address.line1).toBe("5 Elm Road");
    const [mail] = await query(`SELECT body FROM outbox_emails WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1`, [email]);
    expect(mail.body).toContain(`/account/orders/${number}`);
    // Another person, signed in or not, gets a 404.
    expect((await new Browser().get(posted.location!)).status).toBe(404);
    const other = new Browser();
    const otherEmail = `other-${randomBytes(4).toString("hex")}@example.com`;
    await createUser(otherEmail);
    await signIn(other, otherEmail);
    expect((await other.get(posted.location!)).status).toBe(404);
  });

  it("a signed-in buyer without saved details types an address and a card", async () => {
    const email = `nodefaults-${randomBytes(4).toString("hex")}@example.com`;
    await createUser(email);
    const id = await listing("fixture-store-a", { price: 900, quantity: 2 });
    const browser = new Browser();
    await signIn(browser, email);
    await browser.addToCart(id);
    const { page } = await browser.placeOrder({ ...GUEST_ADDRESS, "Card number": GOOD_CARD });
    expect(orderNumberOf(page)).toMatch(/^M-\d+$/);
  });

  it("100 buyers race for the last unit: exactly one order, quantity 0, the others told it sold out", async () => {
    const id = await listing("fixture-store-a", { price: 5000, quantity: 1 });
    const buyers = Array.from({ length: 100 }, () => new Browser());
    const forms: Array<{ action: string; fields: Record<string, string> }> = [];
    for (let i = 0; i < buyers.length; i += 10) {
      const batch = await Promise.all(
        buyers.slice(i, i + 10).map(async (b) => {
          await b.addToCart(id);
          return fillForm((await b.get("/checkout")).text, "Checkout", guestValues(), "Place order");
        }),
      );
      forms.push(...batch);
    }
    const results = await Promise.all(buyers.map((b, i) => b.post(forms[i]!.action, forms[i]!.fields)));
    const placed = results.filter((r) => r.location?.startsWith("/checkout/confirmation/"));
    const refused = results.filter((r) => r.location?.startsWith("/checkout?refused="));
    expect(placed.length).toBe(1);
    expect(refused.length).toBe(99);
    expect(await ordersOfListing(id)).toBe(1);
    expect(await quantityOf(id)).toBe(0);
    const loser = buyers[results.indexOf(refused[0]!)]!;
    expect(alertOf((await loser.get(refused[0]!.location!)).text)?.message).toMatch(/sold out|in stock/);
  }, 180_000);
});

describe("checkout domain (lib/orders/checkout.ts)", () => {
  const guest = (source: import("../../lib/checkout").CheckoutSource, extra: Partial<import("../../lib/checkout").PlaceOrderInput> = {}) =>
    checkout.placeOrder(client, {
      buyer: { email: `d-${randomBytes(4).toString("hex")}@example.com` },
      source,
      shippingAddress: { full_name: "Dom Ain", line1: "2 Side St", city: "Austin", state: "TX", postal_code: "73301" },
      cardNumber: GOOD_CARD,
      placedVia: "storefront",
      checkoutToken: `test:${randomBytes(16).toString("hex")}`,
      ...extra,
    });

  async function refusal(promise: Promise<unknown>): Promise<AppError> {
    const err = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe("AppError");
    return err as AppError;
  }

  it("returns the order in its exact wire shape, and the same order again for the same token", async () => {
    const id = await listing("fixture-store-b", { price: 1100, quantity: 5 });
    const token = `test:${randomBytes(16).toString("hex")}`;
    const placed = await guest({ lines: [{ listing_id: id, quantity: 2 }] }, { checkoutToken: token });
    expectExactKeys(placed.order, ORDER_KEYS, "order");
    expectExactKeys(placed.order.lines[0], LINE_KEYS, "order line");
    expectExactKeys(placed.order.shipping_address, ADDRESS_KEYS, "shipping address");
    expect(placed.order).toMatchObject({ object: "order", status: "placed", placed_via: "storefront", subtotal_cents: 2200, currency: "USD" });
    expect(placed.order.lines[0]).toMatchObject({ listing_id: id, quantity: 2, unit_price_cents: 1100, line_total_cents: 2200, store_slug: "fixture-store-b", condition: "new" });
    expect(placed.order.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const again = await checkout.placeOrder(client, {
      buyer: { email: placed.email },
      source: { lines: [{ listing_id: id, quantity: 2 }] },
      shippingAddress: { full_name: "Dom Ain", line1: "2 Side St", city: "Austin", state: "TX", postal_code: "73301" },
      cardNumber: GOOD_CARD,
      placedVia: "storefront",
      checkoutToken: token,
    });
    expect(again.replayed).toBe(true);
    expect(again.order).toEqual(placed.order);
    expect(await quantityOf(id)).toBe(3);
    expect(await ordersOfListing(id)).toBe(1);
  });

  it("total_changed carries the new total and changes nothing", async () => {
    const id = await listing("fixture-store-a", { price: 2100, quantity: 2 });
    const err = await refusal(guest({ lines: [{ listing_id: id, quantity: 1 }] }, { expectedTotalCents: 2000 }));
    expect(err.code).toBe("total_changed");
    expect(err.status).toBe(409);
    expect(err.extra).toEqual({ total_cents: 2100 });
    expect(await quantityOf(id)).toBe(2);
    const placed = await guest({ lines: [{ listing_id: id, quantity: 1 }] }, { expectedTotalCents: 2100 });
    expect(placed.order.total_cents).toBe(2100);
  });

  it("a deactivated line is listing_unavailable and a short one insufficient_stock, naming the line; nothing is taken", async () => {
    const ok = await listing("fixture-store-a", { price: 1000, quantity: 5 });
    const off = await listing("fixture-store-a", { price: 1000, quantity: 5 });
    const short = await listing("fixture-store-b", { price: 1000, quantity: 1 });
    await query(`UPDATE listings SET status = 'inactive' WHERE id = $1`, [off]);
    const unavailable = await refusal(guest({ lines: [{ listing_id: ok, quantity: 1 }, { listing_id: off, quantity: 1 }] }));
    expect([unavailable.code, unavailable.status, unavailable.param, unavailable.extra]).toEqual(["listing_unavailable", 409, "lines[1]", { listing_id: off }]);
    const insufficient = await refusal(guest({ lines: [{ listing_id: ok, quantity: 1 }, { listing_id: short, quantity: 2 }] }));
    expect([insufficient.code, insufficient.param, insufficient.extra]).toEqual(["insufficient_stock", "lines[1]", { listing_id: short }]);
    const unknown = await refusal(guest({ lines: [{ listing_id: "00000000-0000-4000-8000-000000000000", quantity: 1 }] }));
    expect([unknown.code, unknown.param]).toEqual(["listing_unavailable", "lines[0]"]);
    expect(await quantityOf(ok)).toBe(5);
    expect(await quantityOf(short)).toBe(1);
  });

  it("a declined card (ending 0002) is 402 payment_declined: no stock taken, no order", async () => {
    const id = await listing("fixture-store-a", { price: 1000, quantity: 3 });
    const orders = await count(`SELECT count(*) FROM orders`);
    const err = await refusal(guest({ lines: [{ listing_id: id, quantity: 2 }] }, { cardNumber: DECLINED_CARD }));
    expect([err.code, err.status]).toEqual(["payment_declined", 402]);
    expect(await quantityOf(id)).toBe(3);
    expect(await count(`SELECT count(*) FROM orders`)).toBe(orders);
    expect(await count(`SELECT count(*) FROM stock_adjustments WHERE listing_id = $1`, [id])).toBe(0);
  });

  it("backorder takes what there is and floors at 0", async () => {
    const id = await listing("fixture-store-a", { price: 1000, quantity: 1, backorder: true });
    await guest({ lines: [{ listing_id: id, quantity: 3 }] });
    expect(await quantityOf(id)).toBe(0);
    expect(await query(`SELECT delta, quantity_after FROM stock_adjustments WHERE listing_id = $1`, [id])).toEqual([{ delta: -1, quantity_after: 0 }]);
  });

  it("an account without a default address or payment method gets shipping_address_missing / payment_method_missing", async () => {
    const userId = await createUser(`missing-${randomBytes(4).toString("hex")}@example.com`);
    const id = await listing("fixture-store-a", { price: 1000, quantity: 3 });
    const base = { buyer: { userId }, source: { lines: [{ listing_id: id, quantity: 1 }] }, placedVia: "storefront" as const, checkoutToken: `test:${randomBytes(8).toString("hex")}` };
    const noAddress = await refusal(checkout.placeOrder(client, base));
    expect([noAddress.code, noAddress.status]).toEqual(["shipping_address_missing", 400]);
    const noCard = await refusal(checkout.placeOrder(client, { ...base, shippingAddress: { full_name: "A", line1: "B", city: "C", state: "D", postal_code: "12345" } }));
    expect([noCard.code, noCard.status]).toEqual(["payment_method_missing", 400]);
    await giveDefaults(userId);
    const placed = await checkout.placeOrder(client, base);
    expect(placed.order.shipping_address.line1).toBe("5 Elm Road");
    expect(placed.payment_last4).toBe("4242");
  });

  it("bad explicit lines are 400 naming the line", async () => {
    const id = await listing("fixture-store-a", { price: 1000, quantity: 3 });
    const cases: Array<[unknown, string]> = [
      [[], "lines"],
      [[{ listing_id: "nope", quantity: 1 }], "lines[0].listing_id"],
      [[{ listing_id: id, quantity: 0 }], "lines[0].quantity"],
      [[{ listing_id: id, quantity: 100 }], "lines[0].quantity"],
      [[{ listing_id: id, quantity: 1 }, { listing_id: id, quantity: 1 }], "lines[1].listing_id"],
      [Array.from({ length: 21 }, () => ({ listing_id: id, quantity: 1 })), "lines"],
    ];
    for (const [lines, param] of cases) {
      const err = await refusal(guest({ lines: lines as never }));
      expect([err.status, err.param]).toEqual([400, param]);
    }
  });

  it("a quote of a cart shows each store's shipping to the address's country and what changed", async () => {
    const userId = await createUser(`quote-${randomBytes(4).toString("hex")}@example.com`);
    const t = await template("fixture-store-b", { US: [500, 10_000], "*": [1500, null] });
    const a = await listing("fixture-store-b", { price: 4000, quantity: 5, template: t });
    const b = await listing("fixture-store-b", { price: 1000, quantity: 1, template: t });
    const c = await listing("fixture-store-a", { price: 1000, quantity: 0 });
    const [cart] = await query(`INSERT INTO carts (user_id) VALUES ($1) RETURNING id`, [userId]);
    // Lines in the order they were added (explicit times: two inserts may share a millisecond).
    for (const [i, [id, qty, seen]] of ([[a, 1, 3900], [b, 2, 1000], [c, 1, 1000]] as const).entries()) {
      await query(`INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents, added_at) VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`, [
        cart.id, id, qty, seen, i,
      ]);
    }
    const us = await checkout.quoteCheckout(client, { cart: { userId } });
    expect(us.ready).toBe(false);
    expect(us.changes.map((ch) => [ch.listing_id, ch.kind])).toEqual([[a, "price_changed"], [b, "short_of_stock"], [c, "sold_out"]]);
    expect(us.changes[0]).toMatchObject({ previous_price_cents: 3900, price_cents: 4000 });
    expect(us.stores.map((s) => [s.store_slug, s.subtotal_cents, s.shipping_cents])).toEqual([["fixture-store-b", 4000, 500]]);
    expect(us.total_cents).toBe(4500);
    const abroad = await checkout.quoteCheckout(client, { cart: { userId } }, { country: "DE" });
    expect(abroad.shipping_cents).toBe(1500);
    const err = await refusal(checkout.placeOrder(client, { buyer: { userId }, source: { cart: { userId } }, placedVia: "storefront", checkoutToken: `t:${randomBytes(8).toString("hex")}`, shippingAddress: { full_name: "A", line1: "B", city: "C", state: "D", postal_code: "12345" }, cardNumber: GOOD_CARD }));
    expect([err.code, err.param]).toEqual(["insufficient_stock", "lines[1]"]);
    expect(await count(`SELECT count(*) FROM cart_lines WHERE cart_id = $1`, [cart.id])).toBe(3);
  });
});

describe("checkout's payment reference (one charge per attempt, the same reference on a retry)", () => {
  const ADDRESS = { full_name: "Pay Ment", line1: "3 Ref Road", city: "Austin", state: "TX", postal_code: "73301" };
  /** Makes the order's insert fail after the charge (a fault in the transaction's last steps). */
  const FAIL_LINE2 = "fail after the charge";

  beforeAll(async () => {
    await query(`CREATE OR REPLACE FUNCTION test_fail_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.shipping_address->>'line2' = '${FAIL_LINE2}' THEN RAISE EXCEPTION 'injected failure after the charge'; END IF;
        RETURN NEW;
      END $$`);
    await query(`CREATE TRIGGER test_fail_order BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION test_fail_order()`);
    // Recording an ended attempt fails for these tokens (as when the database is unreachable).
    await query(`CREATE OR REPLACE FUNCTION test_fail_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.checkout_token LIKE 'unrecordable:%' THEN RAISE EXCEPTION 'injected failure recording the attempt'; END IF;
        RETURN NEW;
      END $$`);
    await query(`CREATE TRIGGER test_fail_attempt BEFORE INSERT ON payment_attempts FOR EACH ROW EXECUTE FUNCTION test_fail_attempt()`);
  });

  afterAll(async () => {
    await query(`DROP TRIGGER IF EXISTS test_fail_order ON orders`);
    await query(`DROP FUNCTION IF EXISTS test_fail_order()`);
    await query(`DROP TRIGGER IF EXISTS test_fail_attempt ON payment_attempts`);
    await query(`DROP FUNCTION IF EXISTS test_fail_attempt()`);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Watches the provider: each charge's reference and answer, each refund. */
  function watchProvider() {
    const charge = vi.spyOn(testProvider, "charge");
    const refund = vi.spyOn(testProvider, "refund");
    return {
      charge,
      refund,
      references: () => charge.mock.calls.map(([request]) => request.reference),
      answers: () => Promise.all(charge.mock.results.map((r) => r.value as Promise<ChargeResult>)),
    };
  }

  /** Everything the process writes on stderr meanwhile, as JSON lines. */
  function watchStderr() {
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      for (const line of String(chunk).split("\n")) if (line.startsWith("{")) lines.push(JSON.parse(line) as Record<string, unknown>);
      return true;
    });
    return lines;
  }

  const place = (token: string, email: string, id: string, extra: Partial<import("../../lib/checkout").PlaceOrderInput> = {}) =>
    checkout.placeOrder(client, {
      buyer: { email },
      source: { lines: [{ listing_id: id, quantity: 1 }] },
      shippingAddress: ADDRESS,
      cardNumber: GOOD_CARD,
      placedVia: "storefront",
      checkoutToken: token,
      ...extra,
    });

  const attempts = (token: string) => query(`SELECT reference, outcome FROM payment_attempts WHERE checkout_token = $1 ORDER BY created_at, id`, [token]);
  const orderOf = (token: string) => query(`SELECT payment_ref FROM orders WHERE checkout_token = $1`, [token]);
  const errorOf = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => e as Error);
  const newToken = (prefix = "pay") => `${prefix}:${randomBytes(16).toString("hex")}`;
  const newEmail = () => `pay-${randomBytes(4).toString("hex")}@example.com`;

  it("a decline ends its attempt: the same token's retry with another card charges under the next reference and is approved", async () => {
    const id = await listing("fixture-store-a", { price: 1000, quantity: 3 });
    const [token, email] = [newToken(), newEmail()];
    const provider = watchProvider();
    const err = await errorOf(place(token, email, id, { cardNumber: DECLINED_CARD }));
    expect(err?.name).toBe("AppError");
    expect([(err as AppError).code, (err as AppError).status]).toEqual(["payment_declined", 402]);
    expect(await attempts(token)).toEqual([{ reference: `checkout:${token}:0`, outcome: "declined" }]);
    expect(await quantityOf(id)).toBe(3);

    const placed = await place(token, email, id);
    expect(placed.replayed).toBe(false);
    expect(provider.references()).toEqual([`checkout:${token}:0`, `checkout:${token}:1`]);
    const [declined, approved] = await provider.answers();
    expect(declined!.status).toBe("declined");
    expect(approved!.status).toBe("approved");
    expect(await orderOf(token)).toEqual([{ payment_ref: (approved as { chargeRef: string }).chargeRef }]);
    expect(await attempts(token)).toEqual([{ reference: `checkout:${token}:0`, outcome: "declined" }]);
    expect(await quantityOf(id)).toBe(2);

    // A third call answers the order and charges nothing.
    const again = await place(token, email, id);
    expect(again.replayed).toBe(true);
    expect(provider.charge).toHaveBeenCalledTimes(2);
    expect(provider.refund).not.toHaveBeenCalled();
  });

  it("a transaction failing after the approved charge refunds it and records the attempt; the next attempt charges under a new reference", async () => {
    const id = await listing("fixture-store-b", { price: 1200, quantity: 2 });
    const [token, email] = [newToken(), newEmail()];
    const provider = watchProvider();
    const err = await errorOf(place(token, email, id, { shippingAddress: { ...ADDRESS, line2: FAIL_LINE2 } }));
    expect(err).toBeInstanceOf(Error);
    expect(String(err)).toContain("injected failure after the charge");
    const [first] = await provider.answers();
    expect(first!.status).toBe("approved");
    const firstRef = (first as { chargeRef: string }).chargeRef;
    expect(provider.refund.mock.calls.map(([request]) => request)).toEqual([
      { chargeRef: firstRef, amountCents: 1200, currency: "USD", reference: `refund:${firstRef}` },
    ]);
    expect(await attempts(token)).toEqual([{ reference: `checkout:${token}:0`, outcome: "refunded" }]);
    expect(await orderOf(token)).toEqual([]);
    expect(await quantityOf(id)).toBe(2);

    const placed = await place(token, email, id);
    expect(placed.replayed).toBe(false);
    expect(provider.references()).toEqual([`checkout:${token}:0`, `checkout:${token}:1`]);
    const [, second] = await provider.answers();
    const secondRef = (second as { chargeRef: string }).chargeRef;
    expect(secondRef).not.toBe(firstRef);
    expect(await orderOf(token)).toEqual([{ payment_ref: secondRef }]);
    expect(provider.refund).toHaveBeenCalledTimes(1);
    expect(await quantityOf(id)).toBe(1);
  });

  it("a provider that does not answer ends nothing: the retry charges under the same reference", async () => {
    const id = await listing("fixture-store-a", { price: 900, quantity: 2 });
    const [token, email] = [newToken(), newEmail()];
    const provider = watchProvider();
    provider.charge.mockRejectedValueOnce(new Error("provider unreachable"));
    expect(String(await errorOf(place(token, email, id)))).toContain("provider unreachable");
    expect(await attempts(token)).toEqual([]);
    const placed = await place(token, email, id);
    expect(placed.replayed).toBe(false);
    expect(provider.references()).toEqual([`checkout:${token}:0`, `checkout:${token}:0`]);
    expect(provider.refund).not.toHaveBeenCalled();
  });

  it("an attempt that cannot be recorded is logged: a decline keeps its reference; an approved charge is not refunded, and the retry reuses it", async () => {
    const id = await listing("fixture-store-b", { price: 800, quantity: 3 });
    const email = newEmail();
    const provider = watchProvider();
    const stderr = watchStderr();

    const declinedToken = newToken("unrecordable");
    const declined = await errorOf(place(declinedToken, email, id, { cardNumber: DECLINED_CARD }));
    expect((declined as AppError).code, "the caller gets the decline, not the recording's failure").toBe("payment_declined");
    expect(stderr).toContainEqual({ level: "error", msg: "payment decline not recorded", reference: `checkout:${declinedToken}:0`, error: expect.any(String) });

    const token = newToken("unrecordable");
    const failed = await errorOf(place(token, email, id, { shippingAddress: { ...ADDRESS, line2: FAIL_LINE2 } }));
    expect(String(failed)).toContain("injected failure after the charge");
    const [, charged] = await provider.answers();
    const chargeRef = (charged as { chargeRef: string }).chargeRef;
    expect(provider.refund).not.toHaveBeenCalled();
    expect(stderr).toContainEqual({
      level: "error",
      msg: "payment not refunded: attempt not recorded",
      reference: `checkout:${token}:0`,
      charge_ref: chargeRef,
      error: expect.any(String),
    });
    expect(JSON.stringify(stderr)).not.toContain(email);
    expect(JSON.stringify(stderr)).not.toContain("4242424242424242");
    expect(await attempts(token)).toEqual([]);

    // The retry charges under the same reference: the provider answers the same charge.
    await place(token, email, id);
    expect(provider.references().slice(2)).toEqual([`checkout:${token}:0`]);
    expect(await orderOf(token)).toEqual([{ payment_ref: chargeRef }]);
    expect(await quantityOf(id)).toBe(2);
  });

  it("concurrent checkouts of one token place one order, charged once", async () => {
    const id = await listing("fixture-store-a", { price: 700, quantity: 10 });
    const [token, email] = [newToken(), newEmail()];
    const provider = watchProvider();
    const results = await Promise.all(Array.from({ length: 4 }, () => place(token, email, id)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.order.id)).size).toBe(1);
    expect(provider.references()).toEqual([`checkout:${token}:0`]);
    expect(await ordersOfListing(id)).toBe(1);
    expect(await quantityOf(id)).toBe(9);
    expect(await attempts(token)).toEqual([]);
  });
});
