/**
 * The seller dashboard (/seller, decisions.md "Accounts and operator commands" and issue 10 point
 * 2) over plain HTTP, as a browser without JavaScript drives it: pages by GET, HTML form posts
 * answered 303. Who may see what (a store the visitor does not own, or one of its listings,
 * templates or keys, is a 404 to pages and posts alike), cross-site posts refused, the full API
 * key shown exactly once, refused forms shown with nothing written, and hostile input. Webhooks:
 * endpoints added (the signing secret shown once), changed, disabled, rotated and deleted, and
 * their delivery log replayed, to a receiver on loopback https (tests/helpers/platform.ts).
 *
 * The dashboard writes, so it runs on an app and database of its own. People sign in by posting
 * the sign-in form, as anyone does, and carry the session cookie it sets.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "@/lib/db";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS } from "@/lib/schemas/seller/webhooks";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { hashPassword } from "../../lib/accounts/password";
import { alertText, fillForm, linkHref } from "../helpers/forms";
import { parseHtml } from "../helpers/html";
import { createTestOrder } from "../helpers/orders";
import { startPlatform, type FakePlatform } from "../helpers/platform";
import { sellerRequest, startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const STORE = "fixture-store-a";
const SECOND_STORE = "fixture-store-b";
const OTHER_STORE = "harbor-electronics";

let app: IsolatedApp;
let receiver: FakePlatform;
let owner: Visitor;
let otherOwner: Visitor;
let shopper: Visitor;
const anonymous = () => new Visitor("");

interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

/** The app's picture folder (lib/media), to see what an upload stored. */
const MEDIA_DIR = mkdtempSync(path.join(tmpdir(), "seller-dashboard-media-"));
const storedPictures = () => readdirSync(MEDIA_DIR).filter((f) => !f.endsWith(".tmp"));

class Visitor {
  constructor(readonly cookie: string) {}

  /** A multipart form post (a form with a file), as a browser sends it. */
  async postMultipart(path: string, fields: Record<string, string>, files: Record<string, Blob>): Promise<Page> {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    for (const [name, blob] of Object.entries(files)) body.append(name, blob, `${name}.bin`);
    return this.request(path, { method: "POST", body, headers: { "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl } });
  }

  async get(path: string): Promise<Page> {
    return this.request(path, { method: "GET" });
  }

  /** A form post as a browser sends it from one of the app's own pages. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl, ...headers },
    });
  }

  /** Posts, then follows the 303 (as a browser does) and answers the page it leads to. */
  async submit(path: string, fields: Record<string, string>): Promise<{ posted: Page; page: Page }> {
    const posted = await this.post(path, fields);
    expect(posted.status, `POST ${path}: ${posted.text.slice(0, 300)}`).toBe(303);
    return { posted, page: await this.get(posted.location!) };
  }

  private async request(path: string, init: { method: string; body?: string | FormData; headers?: Record<string, string> }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    headers.set("X-Forwarded-For", `10.${rand()}.${rand()}.${rand() + 1}`);
    const res = await fetch(new URL(path, app.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
    const location = res.headers.get("location");
    return { status: res.status, headers: res.headers, text: await res.text(), location: location ? new URL(location, app.baseUrl).pathname + new URL(location, app.baseUrl).search : null };
  }
}

const rand = () => Math.floor(Math.random() * 254);

/** Creates a key through the form, follows the 303 to the page that shows it once, and reads it there. */
async function createKey(visitor: Visitor, fields: Record<string, string>, store = STORE): Promise<{ key: string; keyId: string; page: Page; posted: Page }> {
  const { posted, page } = await visitor.submit(`/seller/${store}/keys/create`, fields);
  const key = parseHtml(page.text)("[data-new-key]").text().trim();
  return { key, keyId: /^mk_live_([a-z0-9]{16})\./.exec(key)?.[1] ?? "", page, posted };
}

/** Signs in through the sign-in form and answers the session cookie it sets. */
async function signIn(email: string): Promise<string> {
  const res = await anonymous().post("/signin/password", { email, password: PASSWORD, next: "/seller" });
  expect(res.status, res.text.slice(0, 200)).toBe(303);
  const line = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  expect(line, "session cookie").toBeDefined();
  return line!.split(";", 1)[0]!;
}

/** An account (with the app's own password hash) owning `stores`, made with SQL. */
async function createUser(email: string, role: "shopper" | "store_owner", stores: string[]): Promise<string> {
  const { rows } = await app.pool.query<{ id: string }>(
    `INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`,
    [email, email.split("@")[0], role, await hashPassword(PASSWORD)],
  );
  for (const slug of stores) {
    await app.pool.query(`INSERT INTO store_owners (store_id, user_id) VALUES ($1, $2)`, [await storeIdOf(app.pool, slug), rows[0]!.id]);
  }
  return email;
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await app.pool.query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
  return rows[0]!.n;
}

async function anyListingOf(slug: string): Promise<{ id: string; quantity: number; status: string; price_cents: number }> {
  const { rows } = await app.pool.query(
    `SELECT l.id, l.quantity, l.status::text AS status, l.price_cents FROM listings l JOIN stores s ON s.id = l.store_id
      WHERE s.slug = $1 AND l.status <> 'archived' ORDER BY l.id LIMIT 1`,
    [slug],
  );
  return rows[0];
}

async function templateOf(slug: string): Promise<string> {
  const { rows } = await app.pool.query(`SELECT t.id FROM shipping_templates t JOIN stores s ON s.id = t.store_id WHERE s.slug = $1 ORDER BY t.id LIMIT 1`, [slug]);
  return rows[0].id;
}

async function leafCategory(): Promise<string> {
  const { rows } = await app.pool.query(
    `SELECT c.slug FROM categories c WHERE c.active AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id) ORDER BY c.slug LIMIT 1`,
  );
  return rows[0].slug;
}

/** The role=alert message of a refused form, and the field it marks invalid. */
function formError(html: string): { message: string; invalid: string[] } | null {
  const $ = parseHtml(html);
  const alert = $(".form-error[role=alert]").first();
  if (!alert.length) return null;
  return { message: alert.text().trim(), invalid: $("[aria-invalid=true]").map((_, el) => $(el).attr("name") ?? "").get() };
}

function inputValue(html: string, name: string): string | undefined {
  const $ = parseHtml(html);
  const el = $(`[name="${name}"]`).first();
  return el.is("textarea") ? el.text() : el.attr("value");
}

function listingRows(html: string): { id: string; sku: string; status: string }[] {
  const $ = parseHtml(html);
  return $("tr[data-listing]")
    .map((_, el) => ({ id: $(el).attr("data-listing")!, sku: $(el).attr("data-sku")!, status: $(el).attr("data-status")! }))
    .get();
}

beforeAll(async () => {
  receiver = await startPlatform();
  app = await startIsolatedApp("seller-dashboard", { WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: receiver.caPath, MEDIA_DIR });
  const tag = randomBytes(4).toString("hex");
  owner = new Visitor(await signIn(await createUser(`owner-${tag}@example.test`, "store_owner", [STORE, SECOND_STORE])));
  otherOwner = new Visitor(await signIn(await createUser(`other-${tag}@example.test`, "store_owner", [OTHER_STORE])));
  shopper = new Visitor(await signIn(await createUser(`shopper-${tag}@example.test`, "shopper", [])));
});

afterAll(async () => {
  await app?.stop();
  await receiver?.close();
});

describe("who may see the dashboard", () => {
  it("sends a signed-out visitor to sign in, coming back to the page asked for", async () => {
    for (const path of ["/seller", `/seller/${STORE}/listings`, `/seller/${STORE}/keys`]) {
      const res = await anonymous().get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(303);
      expect(res.status, path).toBeLessThanOrEqual(308);
      expect(res.location).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
  });

  it("tells a signed-in account that owns no store 'You do not own a store', in the page itself", async () => {
    const res = await shopper.get("/seller");
    // 200, not 403: Next 16 renders forbidden() as a script-only shell (vercel/next.js#62228),
    // blank without JavaScript; the message matters more than the status here.
    expect(res.status).toBe(200);
    expect(parseHtml(res.text)("h1").text()).toBe("You do not own a store");
  });

  it("lists an owner's stores, and an owner of two switches between them", async () => {
    const home = await owner.get("/seller");
    expect(home.status).toBe(200);
    const $ = parseHtml(home.text);
    expect($("[data-store]").map((_, el) => $(el).attr("data-store")).get().sort()).toEqual([STORE, SECOND_STORE].sort());
    const listings = await owner.get(`/seller/${STORE}/listings`);
    expect(listings.status).toBe(200);
    const page = parseHtml(listings.text);
    expect(page("[data-current-store]").attr("data-current-store")).toBe(STORE);
    expect(page("[data-switch-store]").map((_, el) => page(el).attr("href")).get()).toEqual([`/seller/${SECOND_STORE}/listings`]);
    expect((await owner.get(`/seller/${SECOND_STORE}/listings`)).status).toBe(200);
  });

  it("answers 404 for another store's pages, listings and templates, as for ones that do not exist", async () => {
    const theirListing = await anyListingOf(OTHER_STORE);
    const theirTemplate = await templateOf(OTHER_STORE);
    const paths = [
      `/seller/${OTHER_STORE}`,
      `/seller/${OTHER_STORE}/listings`,
      `/seller/${OTHER_STORE}/keys`,
      `/seller/${OTHER_STORE}/shipping`,
      `/seller/no-such-store/listings`,
      `/seller/${STORE}/listings/${theirListing.id}`,
      `/seller/${STORE}/listings/00000000-0000-4000-8000-000000000000`,
      `/seller/${STORE}/listings/not-a-uuid`,
      `/seller/${STORE}/shipping/${theirTemplate}`,
      `/seller/${STORE}/shipping/%00`,
    ];
    for (const path of paths) expect((await owner.get(path)).status, path).toBe(404);
  });

  it("answers 404 to posts about another store's listing, template or key, and changes nothing", async () => {
    const theirs = await anyListingOf(OTHER_STORE);
    const theirTemplate = await templateOf(OTHER_STORE);
    const posts: [string, Record<string, string>][] = [
      [`/seller/${OTHER_STORE}/listings/${theirs.id}/status`, { move: "archived" }],
      [`/seller/${STORE}/listings/${theirs.id}/status`, { move: "archived" }],
      [`/seller/${STORE}/listings/${theirs.id}/quantity`, { quantity: "999" }],
      [`/seller/${STORE}/listings/${theirs.id}/update`, { price: "1.00", was_price: "2.00" }],
      [`/seller/${OTHER_STORE}/listings/create`, { product_title: "Nope", product_category: await leafCategory(), sku: "NOPE", condition: "new", price: "1" }],
      [`/seller/${STORE}/shipping/${theirTemplate}/update`, { name: "Taken over", "rates.0.region": "US", "rates.0.price": "0", "rates.0.min_days": "1", "rates.0.max_days": "2" }],
      [`/seller/${OTHER_STORE}/keys/create`, { name: "Theirs", "scope.listings:read": "on" }],
    ];
    for (const [path, fields] of posts) expect((await owner.post(path, fields)).status, path).toBe(404);
    const after = await app.pool.query(`SELECT quantity, status::text AS status, price_cents FROM listings WHERE id = $1`, [theirs.id]);
    expect(after.rows[0]).toEqual({ quantity: theirs.quantity, status: theirs.status, price_cents: theirs.price_cents });
    expect(await count(`SELECT count(*) FROM shipping_templates WHERE name = 'Taken over'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM listings WHERE sku = 'NOPE'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM api_keys WHERE name = 'Theirs'`)).toBe(0);

    // Their key, revoked through our store's URL: not found, still live.
    const { keyId } = await createKey(otherOwner, { name: "Their own", "scope.listings:read": "on" }, OTHER_STORE);
    expect(keyId).toMatch(/^[a-z0-9]{16}$/);
    expect((await owner.post(`/seller/${STORE}/keys/${keyId}/revoke`, {})).status).toBe(404);
    expect(await count(`SELECT count(*) FROM api_keys WHERE key_id = $1 AND revoked_at IS NULL`, [keyId])).toBe(1);
  });

  it("sends a signed-out form post to sign in and writes nothing", async () => {
    const res = await anonymous().post(`/seller/${STORE}/keys/create`, { name: "Anonymous", "scope.listings:read": "on" });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/^\/signin\?next=/);
    expect(await count(`SELECT count(*) FROM api_keys WHERE name = 'Anonymous'`)).toBe(0);
  });
});

describe("cross-site form posts are refused", () => {
  it.each([
    ["Sec-Fetch-Site: cross-site", { "Sec-Fetch-Site": "cross-site" }],
    ["a foreign Origin", { "Sec-Fetch-Site": "", Origin: "https://evil.example" }],
  ])("%s: 403 and nothing written", async (_, headers) => {
    const listing = await anyListingOf(STORE);
    const name = `cross-${randomBytes(3).toString("hex")}`;
    const posts: [string, Record<string, string>][] = [
      [`/seller/${STORE}/keys/create`, { name, "scope.listings:write": "on" }],
      [`/seller/${STORE}/listings/${listing.id}/status`, { move: "archived" }],
      [`/seller/${STORE}/listings/${listing.id}/quantity`, { quantity: "0" }],
    ];
    for (const [path, fields] of posts) {
      const res = await owner.post(path, fields, headers as Record<string, string>);
      expect(res.status, path).toBe(403);
    }
    expect(await count(`SELECT count(*) FROM api_keys WHERE name = $1`, [name])).toBe(0);
    const after = await app.pool.query(`SELECT quantity, status::text AS status FROM listings WHERE id = $1`, [listing.id]);
    expect(after.rows[0]).toEqual({ quantity: listing.quantity, status: listing.status });
  });
});

describe("API keys that expire", () => {
  it("Expires: never by default; in 30 days is stored and shown; the key works until then and answers 401 api_key_expired after; a bad choice is refused", async () => {
    const { key: neverKey } = await createKey(owner, { name: "Forever", "scope.listings:read": "on", expires_in_days: "" });
    const { key } = await createKey(owner, { name: "Month job", "scope.listings:read": "on", expires_in_days: "30" });
    const keyId = /^mk_live_([a-z0-9]{16})\./.exec(key)![1]!;
    const stored = await app.pool.query(
      `SELECT key_id, expires_at IS NULL AS never, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM api_keys WHERE key_id = ANY($1) ORDER BY name`,
      [[keyId, /^mk_live_([a-z0-9]{16})\./.exec(neverKey)![1]!]],
    );
    expect(stored.rows.map((r) => [r.never, r.days])).toEqual([[true, null], [false, 30]]);

    const page = parseHtml((await owner.get(`/seller/${STORE}/keys`)).text);
    expect(page("select[name=expires_in_days] option").map((_, o) => page(o).text()).get()).toEqual(["Never", "In 30 days", "In 90 days", "In a year"]);
    const row = page(`tr[data-key-id="${keyId}"]`);
    expect(row.find('td[data-label="Expires"] time').attr("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await sellerRequest(app.baseUrl, "GET", "/api/v1/listings?limit=1", { key })).status).toBe(200);

    await app.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE key_id = $1`, [keyId]);
    const refused = await sellerRequest(app.baseUrl, "GET", "/api/v1/listings?limit=1", { key });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("api_key_expired");
    expect(parseHtml((await owner.get(`/seller/${STORE}/keys`)).text)(`tr[data-key-id="${keyId}"] td[data-label="Status"]`).text()).toContain("Expired");
    expect((await sellerRequest(app.baseUrl, "GET", "/api/v1/listings?limit=1", { key: neverKey })).status).toBe(200);

    for (const bad of ["0", "-1", "3651", "abc", "1e3"]) {
      const name = `Bad expiry ${bad}`;
      const { page: back } = await owner.submit(`/seller/${STORE}/keys/create`, { name, "scope.listings:read": "on", expires_in_days: bad });
      expect(alertText(back.text), bad).toContain("days");
      expect((await app.pool.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = $1`, [name])).rows[0].n).toBe(0);
    }
  });
});

describe("API keys: the full key is shown once, then never", () => {
  it("creates the key on the post, shows it once on the page the 303 leads to (no-store), only …last4 afterwards, and the key works until revoked", async () => {
    const { posted, page: created, key } = await createKey(owner, { name: "Inventory sync", "scope.listings:read": "on", "scope.shipping:write": "on" });
    expect(posted.location).toMatch(new RegExp(`^/seller/${STORE}/keys/[a-z0-9]{16}/created$`));
    expect(posted.text).toBe("");
    expect(posted.headers.get("set-cookie")).toBeNull();
    expect(created.status).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    expect(created.text).toContain("shown only this once");
    const match = /^mk_live_([a-z0-9]{16})\.([A-Za-z0-9_-]{43})$/.exec(key);
    expect(match, key).not.toBeNull();
    const [, keyId, secret] = match!;
    expect(posted.location).toBe(`/seller/${STORE}/keys/${keyId}/created`);
    expect(posted.location).not.toContain(secret);
    const stored = await app.pool.query(`SELECT name, scopes, last4, created_by IS NOT NULL AS by_user FROM api_keys WHERE key_id = $1`, [keyId]);
    expect(stored.rows[0]).toEqual({ name: "Inventory sync", scopes: ["listings:read", "shipping:write"], last4: secret!.slice(-4), by_user: true });

    // The key is a real one: the seller API takes it.
    const listed = await sellerRequest(app.baseUrl, "GET", "/api/v1/listings?limit=1", { key });
    expect(listed.status).toBe(200);

    // Afterwards: the keys page (loaded again and again) and every other page show only …last4.
    for (let i = 0; i < 2; i++) {
      const keys = await owner.get(`/seller/${STORE}/keys`);
      expect(keys.status).toBe(200);
      const $ = parseHtml(keys.text);
      const row = $(`tr[data-key-id="${keyId}"]`);
      expect(row.find(".key-display").text()).toBe(`mk_live_${keyId}.…${secret!.slice(-4)}`);
      expect(row.text()).toContain("Inventory sync");
      expect(row.text()).toContain("listings:read");
      expect(row.text()).toContain("shipping:write");
      expect(keys.text).not.toContain(secret);
      expect(keys.text).not.toContain(secret!.slice(0, 12));
    }
    for (const path of ["/seller", `/seller/${STORE}/listings`, `/seller/${STORE}/shipping`, `/seller/${STORE}/listings/new`]) {
      expect((await owner.get(path)).text, path).not.toContain(secret);
    }

    // Revoke: the page says so, and the API answers 401 api_key_revoked.
    const revoked = await owner.submit(`/seller/${STORE}/keys/${keyId}/revoke`, {});
    expect(revoked.posted.location).toBe(`/seller/${STORE}/keys?notice=revoked`);
    expect(parseHtml(revoked.page.text)(`tr[data-key-id="${keyId}"]`).attr("data-revoked")).toBe("true");
    expect(revoked.page.text).not.toContain(secret);
    const refused = await sellerRequest(app.baseUrl, "GET", "/api/v1/listings", { key });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("api_key_revoked");
  });

  it("a reload of the key's page shows \"Already shown\" and creates nothing: exactly one key, its secret gone from storage", async () => {
    const name = `Reloaded ${randomBytes(3).toString("hex")}`;
    const posted = await owner.post(`/seller/${STORE}/keys/create`, { name, "scope.listings:read": "on" });
    expect(posted.status).toBe(303);
    const path = posted.location!;
    expect(path).toMatch(new RegExp(`^/seller/${STORE}/keys/[a-z0-9]{16}/created$`));
    const keyId = path.split("/")[4]!;
    expect(await count(`SELECT count(*) FROM secret_reveals WHERE subject_id = $1 AND secret_sealed IS NOT NULL`, [keyId])).toBe(1);

    // Another store's owner, a signed-out visitor, and the same page under another store: 404, and the secret still waits.
    expect((await otherOwner.get(path)).status).toBe(404);
    expect((await anonymous().get(path)).status).toBe(404);
    expect((await owner.get(`/seller/${SECOND_STORE}/keys/${keyId}/created`)).status).toBe(404);
    expect((await owner.get(`/seller/${STORE}/keys/0000000000000000/created`)).status).toBe(404);

    const first = await owner.get(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const key = parseHtml(first.text)("[data-new-key]").text().trim();
    expect(key).toMatch(new RegExp(`^mk_live_${keyId}\\.[A-Za-z0-9_-]{43}$`));
    expect((await sellerRequest(app.baseUrl, "GET", "/api/v1/listings?limit=1", { key })).status).toBe(200);
    expect(await count(`SELECT count(*) FROM secret_reveals WHERE subject_id = $1 AND secret_sealed IS NOT NULL`, [keyId])).toBe(0);

    for (let i = 0; i < 2; i++) {
      const again = await owner.get(path);
      expect(again.status).toBe(200);
      const $ = parseHtml(again.text);
      expect($("h1").text()).toBe("Already shown");
      expect($("[data-new-key]").length).toBe(0);
      expect(again.text).not.toContain(key.split(".")[1]!);
    }
    expect(await count(`SELECT count(*) FROM api_keys WHERE name = $1`, [name])).toBe(1);
  });

  it("a key's page opened first after its ten minutes shows \"Already shown\", never the secret", async () => {
    const posted = await owner.post(`/seller/${STORE}/keys/create`, { name: "Opened late", "scope.listings:read": "on" });
    const keyId = posted.location!.split("/")[4]!;
    await app.pool.query(`UPDATE secret_reveals SET expires_at = now() - interval '1 second' WHERE subject_id = $1`, [keyId]);
    const late = await owner.get(posted.location!);
    expect(parseHtml(late.text)("h1").text()).toBe("Already shown");
    expect(parseHtml(late.text)("[data-new-key]").length).toBe(0);
    expect(await count(`SELECT count(*) FROM secret_reveals WHERE subject_id = $1 AND secret_sealed IS NOT NULL`, [keyId])).toBe(0);
  });

  it("refuses a key without scopes, with an unknown scope only, or with a bad name, writing nothing", async () => {
    const before = await count(`SELECT count(*) FROM api_keys`);
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ name: "No scopes" }, "scopes", /at least one scope/],
      [{ name: "Odd scope", "scope.admin": "on" }, "scopes", /at least one scope/],
      [{ name: "", "scope.listings:read": "on" }, "name", /1 to 100/],
      [{ name: "x".repeat(10_000), "scope.listings:read": "on" }, "name", /1 to 100/],
      [{ name: "nul\u0000byte", "scope.listings:read": "on" }, "name", /printable/],
    ];
    for (const [fields, field, message] of cases) {
      const { page } = await owner.submit(`/seller/${STORE}/keys/create`, fields);
      expect(page.status).toBe(200);
      const error = formError(page.text);
      expect(error?.message, JSON.stringify(fields).slice(0, 80)).toMatch(message);
      expect(parseHtml(page.text)(".form-error").attr("data-field")).toBe(field);
      if (field === "scopes" && fields.name) expect(inputValue(page.text, "name")).toBe(fields.name);
    }
    expect(await count(`SELECT count(*) FROM api_keys`)).toBe(before);
  });
});

describe("listings: create, publish, stock and edit through the forms", () => {
  let listingId: string;
  let templateId: string;

  it("creates a shipping template from the rows filled in (a blank row between them ignored)", async () => {
    const { posted, page } = await owner.submit(`/seller/${STORE}/shipping/create`, {
      name: "Dashboard rates",
      handling_days: "2",
      "rates.0.region": "us",
      "rates.0.service": "standard",
      "rates.0.price": "4.99",
      "rates.0.free_over": "50",
      "rates.0.min_days": "2",
      "rates.0.max_days": "5",
      "rates.1.service": "standard",
      "rates.2.region": "*",
      "rates.2.service": "expedited",
      "rates.2.price": "12",
      "rates.2.min_days": "1",
      "rates.2.max_days": "3",
    });
    templateId = /\/shipping\/([0-9a-f-]{36})\?notice=created$/.exec(posted.location!)![1]!;
    expect(page.status).toBe(200);
    const { rows } = await app.pool.query(
      `SELECT region, service::text AS service, price_cents, free_over_cents, min_days, max_days FROM shipping_rates WHERE template_id = $1 ORDER BY region DESC`,
      [templateId],
    );
    expect(rows).toEqual([
      { region: "US", service: "standard", price_cents: 499, free_over_cents: 5000, min_days: 2, max_days: 5 },
      { region: "*", service: "expedited", price_cents: 1200, free_over_cents: null, min_days: 1, max_days: 3 },
    ]);
  });

  it("creates a listing of a new product as a draft, publishes it, and its product page shows it", async () => {
    const title = `Dashboard Widget ${randomBytes(3).toString("hex")}`;
    const { posted } = await owner.submit(`/seller/${STORE}/listings/create`, {
      product_title: title,
      product_category: await leafCategory(),
      product_brand: "",
      product_description: "Made in a test.\nTwo lines.",
      sku: "DASH-WIDGET-1",
      condition: "new",
      price: "19.99",
      list_price: "",
      quantity: "5",
      has_allow_backorder: "1",
      shipping_template_id: templateId,
    });
    listingId = /\/listings\/([0-9a-f-]{36})\?notice=created$/.exec(posted.location!)![1]!;
    const draft = await app.pool.query(`SELECT l.status::text AS status, l.price_cents, l.list_price_cents, l.quantity, p.slug FROM listings l JOIN products p ON p.id = l.product_id WHERE l.id = $1`, [listingId]);
    expect(draft.rows[0]).toMatchObject({ status: "draft", price_cents: 1999, list_price_cents: 1999, quantity: 5 });

    const { page } = await owner.submit(`/seller/${STORE}/listings/${listingId}/status`, { move: "publish", return_to: `/seller/${STORE}/listings` });
    expect(parseHtml(page.text)(`tr[data-listing="${listingId}"]`).attr("data-status")).toBe("active");
    const product = await anonymous().get(`/p/${draft.rows[0].slug}`);
    expect(product.status).toBe(200);
    expect(product.text).toContain(title);
    expect(product.text).toContain(listingId);
    // No picture was given: the product gets its generated one, as the seed's products do.
    const picture = `/images/p/${draft.rows[0].slug}/1.svg`;
    expect(product.text).toContain(picture);
    const api = await (await fetch(`${app.baseUrl}/api/public/v1/products/${draft.rows[0].slug}`)).json();
    expect(api.data.images.map((i: { url: string }) => new URL(i.url).pathname)).toEqual([picture]);
    const svg = await fetch(`${app.baseUrl}${picture}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
  });

  it("creates a new product with an uploaded picture: WebP on its page, its card and the public API's images, cached for a year", async () => {
    const title = `Pictured Widget ${randomBytes(3).toString("hex")}`;
    const png = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: "#2a7" } }).png().toBuffer();
    const before = storedPictures().length;
    const posted = await owner.postMultipart(
      `/seller/${STORE}/listings/create`,
      { product_title: title, product_category: await leafCategory(), sku: `PIC-${randomBytes(3).toString("hex")}`, condition: "new", price: "9.99", quantity: "3", shipping_template_id: templateId },
      { picture: new Blob([new Uint8Array(png)], { type: "image/png" }) },
    );
    expect(posted.status, posted.text.slice(0, 300)).toBe(303);
    const id = /\/listings\/([0-9a-f-]{36})\?notice=created$/.exec(posted.location!)![1]!;
    expect(storedPictures().length).toBe(before + 3);
    await owner.submit(`/seller/${STORE}/listings/${id}/status`, { move: "publish", return_to: `/seller/${STORE}/listings` });
    const slug = (await app.pool.query(`SELECT p.slug FROM listings l JOIN products p ON p.id = l.product_id WHERE l.id = $1`, [id])).rows[0].slug;
    const api = await (await fetch(`${app.baseUrl}/api/public/v1/products/${slug}`)).json();
    const url = new URL(api.data.images[0].url);
    expect(url.pathname).toMatch(/^\/media\/[0-9a-f]{24}-1280\.webp$/);
    expect(api.data.images[0]).toMatchObject({ width: 1280, height: 800 });
    expect((await anonymous().get(`/p/${slug}`)).text).toContain(url.pathname);
    const search = await (await fetch(`${app.baseUrl}/api/public/v1/search?q=${encodeURIComponent(title)}`)).json();
    expect(JSON.stringify(search.data)).toContain(url.pathname);
    const picture = await fetch(`${app.baseUrl}${url.pathname}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/webp");
    expect(picture.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).toMatchObject({ format: "webp", width: 1280, height: 800 });
  });

  it("refuses hostile pictures (not an image, an SVG with a script, 30 MB, a decompression bomb) with a clear message or 413, storing nothing", async () => {
    const before = storedPictures();
    const fields = { product_title: "Hostile", product_category: await leafCategory(), sku: `BAD-${randomBytes(3).toString("hex")}`, condition: "new", price: "1.00", quantity: "1", shipping_template_id: templateId };
    const bomb = Buffer.from(await sharp({ create: { width: 16, height: 16, channels: 3, background: "#000" } }).png().toBuffer());
    bomb.writeUInt32BE(20000, 16);
    bomb.writeUInt32BE(20000, 20);
    const { crc32 } = await import("node:zlib");
    bomb.writeUInt32BE(crc32(bomb.subarray(12, 29)), 29);
    const hostile: [string, Blob, RegExp][] = [
      ["text", new Blob(["not a picture at all"], { type: "image/png" }), /JPEG, PNG, WebP or AVIF/],
      ["svg", new Blob(['<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><script>alert(1)</script></svg>'], { type: "image/svg+xml" }), /JPEG, PNG, WebP or AVIF/],
      ["bomb", new Blob([new Uint8Array(bomb)], { type: "image/png" }), /20000x20000 pixels/],
    ];
    for (const [name, blob, message] of hostile) {
      const posted = await owner.postMultipart(`/seller/${STORE}/listings/create`, fields, { picture: blob });
      expect(posted.status, name).toBe(303);
      expect(posted.location, name).toMatch(/\/listings\/new\?flash=/);
      expect(formError((await owner.get(posted.location!)).text)?.message, name).toMatch(message);
    }
    const big = await owner.postMultipart(`/seller/${STORE}/listings/create`, fields, { picture: new Blob([new Uint8Array(30 * 1024 * 1024)]) });
    expect(big.status).toBe(413);
    expect(storedPictures()).toEqual(before);
    expect(await count(`SELECT count(*) FROM products WHERE title = 'Hostile'`)).toBe(0);
  });

  it("finds listings by SKU or title, case-insensitive, with LIKE wildcards taken literally", async () => {
    const bySku = listingRows((await owner.get(`/seller/${STORE}/listings?q=dash-widget`)).text);
    expect(bySku.map((r) => r.id)).toEqual([listingId]);
    const byTitle = listingRows((await owner.get(`/seller/${STORE}/listings?q=DASHBOARD%20WIDGET`)).text);
    expect(byTitle.map((r) => r.id)).toEqual([listingId]);
    for (const q of ["%", "_", "DASH_WIDGET", "\\", "%00", "a%00b"]) {
      const res = await owner.get(`/seller/${STORE}/listings?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(listingRows(res.text), q).toEqual([]);
    }
    const drafts = listingRows((await owner.get(`/seller/${STORE}/listings?status=draft`)).text);
    expect(drafts.every((r) => r.status === "draft")).toBe(true);
    expect(drafts.map((r) => r.id)).not.toContain(listingId);
  });

  it("sets stock compare-and-set: a stale form is refused and the current quantity shown", async () => {
    const stale = await owner.submit(`/seller/${STORE}/listings/${listingId}/quantity`, { quantity: "9", expected_quantity: "4", return_to: `/seller/${STORE}/listings` });
    expect(formError(stale.page.text)?.message).toMatch(/DASH-WIDGET-1: the quantity changed/);
    expect(await count(`SELECT quantity FROM listings WHERE id = $1`, [listingId])).toBe(5);
    const ok = await owner.submit(`/seller/${STORE}/listings/${listingId}/quantity`, { quantity: "9", expected_quantity: "5", return_to: `/seller/${STORE}/listings?q=dash` });
    expect(ok.posted.location).toBe(`/seller/${STORE}/listings?q=dash&notice=quantity`);
    expect(await count(`SELECT quantity FROM listings WHERE id = $1`, [listingId])).toBe(9);
    // A return address outside this store's dashboard is not followed.
    const away = await owner.post(`/seller/${STORE}/listings/${listingId}/quantity`, { quantity: "9", expected_quantity: "9", return_to: "https://evil.example/" });
    expect(away.location).toBe(`/seller/${STORE}/listings/${listingId}?notice=quantity`);
  });

  it("edits only what changed, and shows a refusal next to the field with what was typed kept", async () => {
    const edit = await owner.get(`/seller/${STORE}/listings/${listingId}`);
    const was = { was_sku: "DASH-WIDGET-1", was_condition: "new", was_price: "19.99", was_list_price: "19.99", was_quantity: "9", was_shipping_template_id: templateId, was_allow_backorder: "" };
    expect(inputValue(edit.text, "was_price")).toBe("19.99");
    const base = { sku: "DASH-WIDGET-1", condition: "new", price: "19.99", list_price: "19.99", quantity: "9", shipping_template_id: templateId, has_allow_backorder: "1", ...was };

    // Stock sold through the API meanwhile is not overwritten by a price edit.
    await app.pool.query(`UPDATE listings SET quantity = 7 WHERE id = $1`, [listingId]);
    const saved = await owner.submit(`/seller/${STORE}/listings/${listingId}/update`, { ...base, price: "17.50", list_price: "24.00" });
    expect(saved.posted.location).toBe(`/seller/${STORE}/listings/${listingId}?notice=updated`);
    const row = await app.pool.query(`SELECT price_cents, list_price_cents, quantity FROM listings WHERE id = $1`, [listingId]);
    expect(row.rows[0]).toEqual({ price_cents: 1750, list_price_cents: 2400, quantity: 7 });

    const refused = await owner.submit(`/seller/${STORE}/listings/${listingId}/update`, { ...base, price: "twelve" });
    const error = formError(refused.page.text);
    expect(error?.message).toMatch(/Price \(US dollars\)/);
    expect(error?.invalid).toEqual(["price"]);
    expect(inputValue(refused.page.text, "price")).toBe("twelve");
    const below = await owner.submit(`/seller/${STORE}/listings/${listingId}/update`, { ...base, price: "30.00", list_price: "20.00" });
    expect(formError(below.page.text)?.invalid).toEqual(["list_price"]);
    expect((await app.pool.query(`SELECT price_cents FROM listings WHERE id = $1`, [listingId])).rows[0].price_cents).toBe(1750);
  });

  it("deactivates, activates and archives; an archived listing is read-only", async () => {
    for (const [move, status] of [["inactive", "inactive"], ["active", "active"], ["archived", "archived"]] as const) {
      const { posted } = await owner.submit(`/seller/${STORE}/listings/${listingId}/status`, { move, return_to: `/seller/${STORE}/listings/${listingId}` });
      expect(posted.location).toBe(`/seller/${STORE}/listings/${listingId}?notice=${move}`);
      expect((await app.pool.query(`SELECT status::text AS s FROM listings WHERE id = $1`, [listingId])).rows[0].s).toBe(status);
    }
    const page = await owner.get(`/seller/${STORE}/listings/${listingId}`);
    expect(parseHtml(page.text)("button[data-move]").length).toBe(0);
    const again = await owner.submit(`/seller/${STORE}/listings/${listingId}/status`, { move: "active" });
    expect(formError(again.page.text)?.message).toMatch(/archived/);
  });
});

describe("refused forms write nothing; hostile input is a message, never a 500", () => {
  it("refuses listings with bad fields, showing the message by the field and keeping what was typed", async () => {
    const before = await count(`SELECT count(*) FROM listings`);
    const products = await count(`SELECT count(*) FROM products`);
    const category = await leafCategory();
    const good = { product_title: "Fine title", product_category: category, sku: "HOSTILE-1", condition: "new", price: "5.00", quantity: "1" };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ...good, product_title: "T".repeat(10_000) }, "product_title", /at most 200/],
      [{ ...good, product_title: "nul\u0000title" }, "product_title", /control characters/],
      [{ ...good, sku: "SKU\u0000NUL" }, "sku", /control characters/],
      [{ ...good, sku: "S".repeat(65) }, "sku", /at most 64/],
      [{ ...good, product_category: "" }, "product_category", /Category/],
      [{ ...good, product_category: "no-such-category" }, "product_category", /category/],
      [{ ...good, price: "0" }, "price", /at least 1/],
      [{ ...good, price: "99999999999" }, "price", /Price/],
      [{ ...good, price: "-5" }, "price", /dollars/],
      [{ ...good, quantity: "1e3" }, "quantity", /whole number/],
      [{ ...good, quantity: "2000000" }, "quantity", /at most/],
      [{ ...good, condition: "mint" }, "condition", /must be one of/],
      [{ ...good, product_description: "d".repeat(10_000) }, "product_description", /at most 5000/],
      [{ ...good, product_id: "00000000-0000-4000-8000-000000000000" }, "product_id", /product/],
    ];
    for (const [fields, field, message] of cases) {
      const { page } = await owner.submit(`/seller/${STORE}/listings/create`, fields);
      expect(page.status, field).toBe(200);
      const error = formError(page.text);
      expect(error?.message, `${field}: ${error?.message}`).toMatch(message);
      expect(parseHtml(page.text)(".form-error").attr("data-field"), error?.message).toBe(field);
      if (field !== "product_title" && field !== "product_id") expect(inputValue(page.text, "product_title")).toBe(fields.product_title);
    }
    expect(await count(`SELECT count(*) FROM listings`)).toBe(before);
    expect(await count(`SELECT count(*) FROM products`)).toBe(products);
  });

  it("refuses shipping templates naming the row the person sees, writing nothing", async () => {
    const before = await count(`SELECT count(*) FROM shipping_templates`);
    const row = { "rates.3.region": "US", "rates.3.service": "standard", "rates.3.price": "5", "rates.3.min_days": "2", "rates.3.max_days": "4" };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ name: "Bad days", ...row, "rates.3.min_days": "9" }, "rates.3.min_days", /Rate 4, min days/],
      [{ name: "Bad region", ...row, "rates.3.region": "ZZZ" }, "rates.3.region", /Rate 4, region/],
      [{ name: "Bad price", ...row, "rates.3.price": "free" }, "rates.3.price", /Rate 4, price/],
      [{ name: "No rates" }, "rates", /at least 1 rate/],
      [{ name: "N".repeat(10_000), ...row }, "name", /at most 100/],
      [{ name: "nul\u0000name", ...row }, "name", /control characters/],
      [{ name: "Twice", ...row, "rates.4.region": "US", "rates.4.price": "1", "rates.4.min_days": "1", "rates.4.max_days": "1" }, "rates.4.region", /repeats/],
    ];
    for (const [fields, field, message] of cases) {
      const { page } = await owner.submit(`/seller/${STORE}/shipping/create`, fields);
      const error = formError(page.text);
      expect(error?.message, `${field}: ${error?.message}`).toMatch(message);
      expect(parseHtml(page.text)(".form-error").attr("data-field"), error?.message).toBe(field);
      if (field.startsWith("rates.3")) expect(inputValue(page.text, field)).toBe(fields[field]);
    }
    expect(await count(`SELECT count(*) FROM shipping_templates`)).toBe(before);
  });

  it("ignores a forged or altered flash instead of showing its text", async () => {
    const forged = Buffer.from(JSON.stringify({ form: "key", message: "Call 555-SCAM now", values: {}, exp: Date.now() + 60_000 })).toString("base64url");
    for (const flash of [`${forged}.AAAA`, forged, "garbage", "x".repeat(30_000)]) {
      const res = await owner.get(`/seller/${STORE}/keys?flash=${encodeURIComponent(flash)}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain("555-SCAM");
      expect(formError(res.text)).toBeNull();
    }
  });

  it("pages the listings table 25 rows at a time", async () => {
    const storeId = await storeIdOf(app.pool, SECOND_STORE);
    const { rows: products } = await app.pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY id LIMIT 30`);
    for (const [i, p] of products.entries()) {
      await app.pool.query(
        `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity) VALUES ($1, $2, $3, 'new', 1000, 1000, 1)`,
        [storeId, p.id, `PAGE-${String(i).padStart(2, "0")}`],
      );
    }
    const first = listingRows((await owner.get(`/seller/${SECOND_STORE}/listings?q=page-`)).text);
    const second = listingRows((await owner.get(`/seller/${SECOND_STORE}/listings?q=page-&page=2`)).text);
    const beyond = listingRows((await owner.get(`/seller/${SECOND_STORE}/listings?q=page-&page=99`)).text);
    expect(first).toHaveLength(25);
    expect(second).toHaveLength(5);
    expect(new Set([...first, ...second].map((r) => r.sku)).size).toBe(30);
    expect(beyond).toEqual(second);
    for (const page of ["0", "-1", "abc", "1e9"]) expect((await owner.get(`/seller/${SECOND_STORE}/listings?page=${page}`)).status).toBe(200);
  });
});

describe("webhooks: endpoints, their signing secret shown once, the delivery log and replays", { timeout: 120_000 }, () => {
  let endpointId = "";
  let hookPath = "";
  const page = () => `/seller/${STORE}/webhooks/${endpointId}`;
  const endpointRow = async (id = endpointId) =>
    (await app.pool.query(`SELECT url, description, events, status, disabled_reason, secret, previous_secret_expires_at FROM webhook_endpoints WHERE id = $1`, [id])).rows[0];
  const deliveryRows = (html: string) => {
    const $ = parseHtml(html);
    return $("tr[data-delivery]")
      .map((_, el) => ({ id: $(el).attr("data-delivery")!, eventId: $(el).attr("data-event-id")!, status: $(el).attr("data-status")!, replayOf: $(el).attr("data-replay-of")! }))
      .get();
  };

  it("the store's nav links Webhooks; the page offers every event type with its description", async () => {
    const keys = await owner.get(`/seller/${STORE}/keys`);
    expect(linkHref(keys.text, "Webhooks", "nav[aria-label='Store sections']")).toBe(`/seller/${STORE}/webhooks`);
    const res = await owner.get(`/seller/${STORE}/webhooks`);
    expect(res.status).toBe(200);
    const $ = parseHtml(res.text);
    expect($("[data-empty]").text()).toBe("No endpoints yet.");
    for (const type of WEBHOOK_EVENT_TYPES) {
      const label = $(`input[type=checkbox][name="event.${type}"]`).closest("label");
      expect(label.text(), type).toContain(WEBHOOK_EVENTS[type].when);
    }
  });

  it("adds an endpoint: its signing secret shown once on the page the post leads to, then \"Already shown\", never on a page after", async () => {
    hookPath = `/hooks/dashboard-${randomBytes(3).toString("hex")}`;
    const form = fillForm((await owner.get(`/seller/${STORE}/webhooks`)).text, "Add an endpoint", { "Endpoint URL": `${receiver.base}${hookPath}`, Description: "ERP" }, "Add endpoint");
    const { posted, page: created } = await owner.submit(form.action, { ...form.fields, "event.order.created": "on", "event.return.requested": "on" });
    expect(posted.location).toMatch(new RegExp(`^/seller/${STORE}/webhooks/[0-9a-f-]{36}/created/[0-9a-f-]{36}$`));
    expect(created.status, created.text.slice(0, 300)).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const secret = parseHtml(created.text)("[data-new-secret]").text().trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.text).toContain("shown only this once");

    const { rows } = await app.pool.query(`SELECT id, description, events, status FROM webhook_endpoints WHERE url = $1`, [`${receiver.base}${hookPath}`]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ description: "ERP", events: ["order.created", "return.requested"], status: "enabled" });
    endpointId = rows[0].id;
    expect(parseHtml(created.text)(`a[href="${page()}"]`).length).toBe(1);
    expect(posted.location!.startsWith(`${page()}/created/`)).toBe(true);
    expect((await otherOwner.get(posted.location!)).status).toBe(404);
    expect((await anonymous().get(posted.location!)).status).toBe(404);
    const reloaded = await owner.get(posted.location!);
    expect(reloaded.status).toBe(200);
    expect(parseHtml(reloaded.text)("h1").text()).toBe("Already shown");
    expect(reloaded.text).not.toContain(secret);
    expect(await count(`SELECT count(*) FROM webhook_endpoints WHERE url = $1`, [`${receiver.base}${hookPath}`])).toBe(1);
    expect(await count(`SELECT count(*) FROM secret_reveals WHERE subject_id = $1 AND secret_sealed IS NOT NULL`, [endpointId])).toBe(0);

    const list = await owner.get(`/seller/${STORE}/webhooks`);
    const row = parseHtml(list.text)(`tr[data-endpoint="${endpointId}"]`);
    expect(row.find('td[data-label="Endpoint URL"]').text()).toContain(`${receiver.base}${hookPath}`);
    expect(row.find('td[data-label="Events"] code').map((_, el) => parseHtml(list.text)(el).text()).get()).toEqual(["order.created", "return.requested"]);
    expect(row.find('td[data-label="Status"]').text()).toBe("Enabled");
    expect(row.find('td[data-label="Created"] time').attr("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    for (const path of [`/seller/${STORE}/webhooks`, page()]) {
      const again = await owner.get(path);
      expect(again.status).toBe(200);
      expect(again.text, path).not.toContain(secret);
      expect(again.text, path).not.toContain("data-new-secret");
    }
  });

  it("refuses a bad URL, no event or the 17th endpoint with the message on the form, writing nothing", async () => {
    const before = await count(`SELECT count(*) FROM webhook_endpoints`);
    const good = { url: `${receiver.base}/hooks/refused`, "event.order.created": "on", description: "" };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ...good, url: "http://example.com/hook" }, "url", /Endpoint URL.*only https/],
      [{ ...good, url: "https://10.1.2.3/hook" }, "url", /Endpoint URL.*non-public address/],
      [{ ...good, url: "https://user:pw@127.0.0.1/hook" }, "url", /credentials/],
      [{ ...good, url: "not a url" }, "url", /Endpoint URL.*not a URL/],
      [{ url: good.url, description: "" }, "events", /at least one event type/],
      [{ ...good, description: "d".repeat(201) }, "description", /Description/],
    ];
    for (const [fields, field, message] of cases) {
      const { page: back } = await owner.submit(`/seller/${STORE}/webhooks/create`, fields);
      const error = formError(back.text);
      expect(error?.message, `${field}: ${error?.message}`).toMatch(message);
      expect(parseHtml(back.text)(".form-error").attr("data-field")).toBe(field);
      if (field === "url") {
        expect(error?.invalid).toEqual(["url"]);
        expect(inputValue(back.text, "url")).toBe(fields.url);
      }
    }
    expect(await count(`SELECT count(*) FROM webhook_endpoints`)).toBe(before);

    // The second store fills its 16 places; the 17th is refused.
    const second = await storeIdOf(app.pool, SECOND_STORE);
    await app.pool.query(
      `INSERT INTO webhook_endpoints (store_id, url, events, secret) SELECT $1, 'https://127.0.0.1/hooks/full-' || n, ARRAY['order.created'], 'v1.sealed' FROM generate_series(1, 16) n`,
      [second],
    );
    const { page: full } = await owner.submit(`/seller/${SECOND_STORE}/webhooks/create`, { ...good, url: `${receiver.base}/hooks/seventeenth` });
    expect(formError(full.text)?.message).toMatch(/16 webhook endpoints/);
    expect(await count(`SELECT count(*) FROM webhook_endpoints WHERE store_id = $1`, [second])).toBe(16);
    await app.pool.query(`DELETE FROM webhook_endpoints WHERE store_id = $1`, [second]);
  });

  it("answers 404 to another store's owner for the endpoint's page and every post about it, changing nothing", async () => {
    const before = await endpointRow();
    const ours = `/seller/${STORE}/webhooks/${endpointId}`;
    const theirs = `/seller/${OTHER_STORE}/webhooks/${endpointId}`;
    for (const path of [ours, theirs, `/seller/${STORE}/webhooks/not-a-uuid`, `/seller/${STORE}/webhooks/%00`]) {
      expect((await otherOwner.get(path)).status, path).toBe(404);
    }
    expect((await owner.get(theirs)).status).toBe(404);
    const posts: [string, Record<string, string>][] = [];
    for (const base of [ours, theirs]) {
      posts.push(
        [`${base}/update`, { url: `${receiver.base}/hooks/taken`, "event.listing.sold_out": "on", description: "Taken over" }],
        [`${base}/status`, { status: "disabled" }],
        [`${base}/rotate`, {}],
        [`${base}/delete`, { confirm: "on" }],
        [`${base}/deliveries/00000000-0000-4000-8000-000000000000/replay`, {}],
      );
    }
    posts.push([`/seller/${OTHER_STORE}/webhooks/create`, { url: `${receiver.base}/hooks/theirs`, "event.order.created": "on" }]);
    for (const [path, fields] of posts) {
      const res = await (path.startsWith(`/seller/${OTHER_STORE}/webhooks/create`) ? owner : otherOwner).post(path, fields);
      expect(res.status, path).toBe(404);
    }
    expect(await endpointRow()).toEqual(before);
    expect(await count(`SELECT count(*) FROM webhook_endpoints WHERE url LIKE '%/hooks/theirs'`)).toBe(0);
  });

  it("changes the URL, events and description; disables (with the reason shown) and enables", async () => {
    const edit = await owner.get(page());
    const form = fillForm(edit.text, "Change the endpoint", { Description: "" }, "Save endpoint");
    expect(form.fields).toMatchObject({ url: `${receiver.base}${hookPath}`, was_url: `${receiver.base}${hookPath}`, "event.order.created": "on", "event.return.requested": "on" });
    delete form.fields["event.return.requested"];
    const { posted } = await owner.submit(form.action, { ...form.fields, "event.order_part.shipped": "on" });
    expect(posted.location).toBe(`${page()}?notice=updated`);
    expect(await endpointRow()).toMatchObject({ description: null, events: ["order.created", "order_part.shipped"] });
    const refused = await owner.submit(form.action, { ...form.fields, url: "https://192.168.1.1/x" });
    expect(formError(refused.page.text)?.invalid).toEqual(["url"]);
    expect((await endpointRow()).url).toBe(`${receiver.base}${hookPath}`);

    const disabled = await owner.submit(`${page()}/status`, fillForm((await owner.get(page())).text, "Deliveries to this endpoint", {}, "Disable").fields);
    expect(disabled.posted.location).toBe(`${page()}?notice=disabled`);
    expect(await endpointRow()).toMatchObject({ status: "disabled", disabled_reason: "disabled by the store" });
    const $ = parseHtml((await owner.get(`/seller/${STORE}/webhooks`)).text);
    expect($(`tr[data-endpoint="${endpointId}"] td[data-label="Status"]`).text()).toBe("Disabled (disabled by the store)");
    const enabled = await owner.submit(`${page()}/status`, fillForm(disabled.page.text, "Deliveries to this endpoint", {}, "Enable").fields);
    expect(enabled.posted.location).toBe(`${page()}?notice=enabled`);
    expect(await endpointRow()).toMatchObject({ status: "enabled", disabled_reason: null });
  });

  it("rotates the secret: the new one shown once, the previous one signing for 24 hours more", async () => {
    const before = await endpointRow();
    const { posted, page: res } = await owner.submit(`${page()}/rotate`, {});
    expect(posted.location!.startsWith(`${page()}/rotated/`)).toBe(true);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const $ = parseHtml(res.text);
    const secret = $("[data-new-secret]").text().trim();
    expect(secret).toMatch(/^whsec_/);
    expect($("main").text()).toMatch(/previous secret keeps signing too, for 24 hours/);
    const after = await endpointRow();
    expect(after.secret).not.toBe(before.secret);
    const hours = (after.previous_secret_expires_at.getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect($("[data-previous-secret-expires-at]").attr("data-previous-secret-expires-at")).toBe(after.previous_secret_expires_at.toISOString());
    const reloaded = await owner.get(posted.location!);
    expect(parseHtml(reloaded.text)("h1").text()).toBe("Already shown");
    expect(reloaded.text).not.toContain(secret);
    const endpointPage = await owner.get(page());
    expect(endpointPage.text).not.toContain(secret);
    expect(parseHtml(endpointPage.text)("[data-previous-secret-expires-at]").length).toBe(1);
  });

  it("lists the endpoint's deliveries; Replay sends the event again with the same event id, refused while the endpoint is disabled", async () => {
    const storeId = await storeIdOf(app.pool, STORE);
    const order = await createTestOrder(app.pool, { userId: null, email: `hooks-${randomBytes(3).toString("hex")}@example.com`, parts: [{ store: STORE, lines: [{ quantity: 1 }] }] });
    const client = createDb(app.database.databaseUrl);
    try {
      await client.$transaction((tx) => emitStoreEvents(tx, "order.created", [{ storeId, id: order.id }]));
    } finally {
      await client.$disconnect();
    }
    await receiver.waitFor((r) => r.path === hookPath, 1, "the order.created delivery");
    const { rows } = await app.pool.query(`SELECT id, event_id FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId]);
    expect(rows).toHaveLength(1);
    const original = rows[0];

    const logged = deliveryRows((await owner.get(page())).text);
    expect(logged.map((d) => [d.id, d.eventId])).toEqual([[original.id, original.event_id]]);

    // Disabled: refused, with the message above the log, and nothing written.
    await owner.submit(`${page()}/status`, { status: "disabled" });
    const refused = await owner.submit(`${page()}/deliveries/${original.id}/replay`, { return_to: page() });
    expect(alertText(refused.page.text)).toMatch(/disabled: enable it before replaying/);
    expect(await count(`SELECT count(*) FROM webhook_deliveries WHERE event_id = $1`, [original.event_id])).toBe(1);
    await owner.submit(`${page()}/status`, { status: "enabled" });

    const $ = parseHtml((await owner.get(page())).text);
    const replay = $(`tr[data-delivery="${original.id}"] form`);
    expect(replay.find("button").text()).toBe("Replay");
    expect(replay.attr("action")).toBe(`${page()}/deliveries/${original.id}/replay`);
    const { posted, page: after } = await owner.submit(replay.attr("action")!, { return_to: replay.find("input[name=return_to]").attr("value")! });
    expect(posted.location).toBe(`${page()}?notice=replayed`);
    const copies = (await app.pool.query(`SELECT id, replay_of FROM webhook_deliveries WHERE event_id = $1 ORDER BY created_at`, [original.event_id])).rows;
    expect(copies).toHaveLength(2);
    expect(copies[1].replay_of).toBe(original.id);
    expect(deliveryRows(after.text).map((d) => [d.id, d.eventId, d.replayOf])).toEqual([
      [copies[1].id, original.event_id, original.id],
      [original.id, original.event_id, ""],
    ]);
    const sent = await receiver.waitFor((r) => r.path === hookPath, 2, "the replay");
    expect(sent[1]!.headers["webhook-id"]).toBe(sent[0]!.headers["webhook-id"]);

    // Someone else's delivery id, or one of another endpoint, through this endpoint's URL: 404.
    expect((await owner.post(`/seller/${STORE}/webhooks/${endpointId}/deliveries/not-a-uuid/replay`, {})).status).toBe(404);
  });

  it("deletes the endpoint and its log only once the confirmation is ticked", async () => {
    const unconfirmed = await owner.submit(`${page()}/delete`, {});
    expect(formError(unconfirmed.page.text)?.message).toMatch(/Tick the box/);
    expect(await count(`SELECT count(*) FROM webhook_endpoints WHERE id = $1`, [endpointId])).toBe(1);
    const form = fillForm(unconfirmed.page.text, "Delete the endpoint", { "Yes, delete this endpoint and its delivery log. Nothing more is sent to it.": true }, "Delete endpoint");
    const { posted, page: list } = await owner.submit(form.action, form.fields);
    expect(posted.location).toBe(`/seller/${STORE}/webhooks?notice=deleted`);
    expect(parseHtml(list.text)("[data-notice]").text()).toMatch(/deleted/);
    expect(await count(`SELECT count(*) FROM webhook_endpoints WHERE id = $1`, [endpointId])).toBe(0);
    expect(await count(`SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1`, [endpointId])).toBe(0);
    expect((await owner.get(page())).status).toBe(404);
  });
});
