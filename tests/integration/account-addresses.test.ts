/**
 * Saved shipping addresses and the payment method on /account (decisions.md "Accounts and
 * operator commands" and "Orders, checkout and returns") over plain HTTP, as a browser without
 * JavaScript drives them: the page by GET, forms found by accessible name and posted, answered
 * 303. The rules: US addresses need a 2-letter state and a 5 or 9 digit ZIP; every field bounded
 * and free of control characters; at most 10 addresses; one default address and one default
 * method, the first saved becoming it, deleting the default making another the default or none;
 * the test card saved once, no card number typed or stored; only the holder can do any of it
 * (another account's ids are a 404 and change nothing); every refusal a message on the page with
 * what was typed kept. The domain reads `defaultAddress` and `defaultPaymentMethod` answer plain
 * objects checkout uses.
 *
 * It writes, so it runs on an app and database of its own; people sign in through the sign-in
 * form and carry its session cookie.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_LIMIT, defaultAddress } from "../../lib/accounts/addresses";
import { hashPassword } from "../../lib/accounts/password";
import { defaultPaymentMethod } from "../../lib/accounts/payment-methods";
import { createDb, type PrismaClient } from "../../lib/db";
import { fillForm, findForm, statusText } from "../helpers/forms";
import { parseHtml } from "../helpers/html";
import { expectExactKeys } from "../helpers/http";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const TAG = randomBytes(4).toString("hex");

let app: IsolatedApp;
let client: PrismaClient;

interface Page {
  status: number;
  headers: Headers;
  text: string;
  location: string | null;
}

const rand = () => Math.floor(Math.random() * 254);

class Visitor {
  constructor(
    readonly cookie: string,
    readonly userId = "",
  ) {}

  get(path: string): Promise<Page> {
    return this.request(path, { method: "GET" });
  }

  /** A form post as a browser sends it from one of the app's own pages. */
  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl, ...headers },
    });
  }

  /** Fills form `form` of `page` by labels, presses `button`, follows the 303 and answers both. */
  async submit(page: string, form: string, values: Record<string, string | boolean>, button: string): Promise<{ posted: Page; page: Page }> {
    const html = await this.get(page);
    expect(html.status, `GET ${page}`).toBe(200);
    const filled = fillForm(html.text, form, values, button);
    expect(filled.method).toBe("post");
    const posted = await this.post(filled.action, filled.fields);
    expect(posted.status, `POST ${filled.action}: ${posted.text.slice(0, 300)}`).toBe(303);
    return { posted, page: await this.get(posted.location!) };
  }

  private async request(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    headers.set("X-Forwarded-For", `10.${rand()}.${rand()}.${rand() + 1}`);
    const res = await fetch(new URL(path, app.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
    const location = res.headers.get("location");
    const url = location ? new URL(location, app.baseUrl) : null;
    return { status: res.status, headers: res.headers, text: await res.text(), location: url ? url.pathname + url.search : null };
  }
}

const anonymous = () => new Visitor("");

/** An account made with SQL, signed in through the sign-in form. */
async function holder(label: string): Promise<Visitor> {
  const email = `${label}-${TAG}@example.test`;
  const { rows } = await app.pool.query<{ id: string }>(
    `INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, 'shopper', $3) RETURNING id`,
    [email, `Holder ${label}`, await hashPassword(PASSWORD)],
  );
  const res = await anonymous().post("/signin/password", { email, password: PASSWORD, next: "/account" });
  expect(res.status, res.text.slice(0, 200)).toBe(303);
  const line = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  expect(line, "session cookie").toBeDefined();
  return new Visitor(line!.split(";", 1)[0]!, rows[0]!.id);
}

interface AddressRow {
  id: string;
  full_name: string;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  is_default: boolean;
}

async function addressesOf(userId: string): Promise<AddressRow[]> {
  const { rows } = await app.pool.query<AddressRow>(
    `SELECT id::text, full_name, line1, line2, city, state, postal_code, country, is_default FROM addresses WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows;
}

async function methodsOf(userId: string) {
  const { rows } = await app.pool.query(
    `SELECT id::text, provider, provider_ref, brand, last4, is_default FROM payment_methods WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return rows;
}

/** Everything the account forms can change, to prove that a refused post changed nothing. */
async function snapshot() {
  const q = async (sql: string) => (await app.pool.query(sql)).rows;
  return {
    addresses: await q(`SELECT id, user_id, full_name, line1, line2, city, state, postal_code, country, is_default, updated_at FROM addresses ORDER BY id`),
    methods: await q(`SELECT id, user_id, provider, provider_ref, brand, last4, is_default FROM payment_methods ORDER BY id`),
  };
}

/** The role=alert message of a refused form, and the fields it marks invalid. */
function formError(html: string): { message: string; invalid: string[] } | null {
  const $ = parseHtml(html);
  const alert = $(".form-error[role=alert]").first();
  if (!alert.length) return null;
  return { message: alert.text().trim(), invalid: $("[aria-invalid=true]").map((_, el) => $(el).attr("name") ?? "").get() };
}

/** The value the field labelled `label` of form `form` shows. */
function inputValue(html: string, form: string, label: string): string | undefined {
  const $ = parseHtml(html);
  const labels = findForm($, form)
    .find("label")
    .filter((_, el) => {
      const clone = $(el).clone();
      clone.find("input").remove();
      return clone.text().trim() === label;
    });
  expect(labels.length, label).toBe(1);
  return labels.find("input").attr("value");
}

const HOME = {
  "Full name": "Dana Example",
  "Address line 1": "1 Main Street",
  "Address line 2": "",
  City: "Springfield",
  State: "il",
  "ZIP code": "62701",
  Country: "US",
};

/** Adds an address through the page's form; answers the page it leads to. */
async function addAddress(visitor: Visitor, values: Partial<typeof HOME> = {}, makeDefault = false) {
  return visitor.submit("/account", "Add an address", { ...HOME, ...values, ...(makeDefault ? { "Make this my default address": true } : {}) }, "Save address");
}

beforeAll(async () => {
  app = await startIsolatedApp("account-addresses");
  client = createDb(app.database.databaseUrl);
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("who may change addresses and payment methods", () => {
  it("sends a signed-out visitor to sign in, and a signed-out post changes nothing", async () => {
    const page = await anonymous().get("/account");
    expect(page.status).toBeGreaterThanOrEqual(303);
    expect(page.location).toBe("/signin?next=%2Faccount");
    const before = await snapshot();
    for (const path of [
      "/account/addresses/add",
      "/account/payment-methods/test-card",
      "/account/addresses/00000000-0000-4000-8000-000000000000/delete",
    ]) {
      const res = await anonymous().post(path, { full_name: "X", line1: "1 A St", city: "B", state: "CA", postal_code: "94105", country: "US" });
      expect(res.status, path).toBe(303);
      expect(res.location, path).toMatch(/^\/signin\?next=/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a cross-site post (403) and writes nothing", async () => {
    const visitor = await holder("crosssite");
    const res = await visitor.post(
      "/account/addresses/add",
      { full_name: "X", line1: "1 A St", city: "B", state: "CA", postal_code: "94105", country: "US" },
      { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    const card = await visitor.post("/account/payment-methods/test-card", {}, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(card.status).toBe(403);
    expect(await addressesOf(visitor.userId)).toEqual([]);
    expect(await methodsOf(visitor.userId)).toEqual([]);
  });

  it("answers 404 to another holder's address and payment method ids, on pages and posts, and changes nothing", async () => {
    const owner = await holder("owner");
    const other = await holder("other");
    await addAddress(owner);
    await addAddress(owner, { "Address line 1": "2 Second Street" });
    await owner.submit("/account", "Save the test card", {}, "Save the test card");
    const [first, second] = await addressesOf(owner.userId);
    const [method] = await methodsOf(owner.userId);
    const before = await snapshot();

    expect((await other.get(`/account/addresses/${first!.id}`)).status).toBe(404);
    for (const path of [
      `/account/addresses/${first!.id}/update`,
      `/account/addresses/${second!.id}/default`,
      `/account/addresses/${first!.id}/delete`,
      `/account/payment-methods/${method!.id}/default`,
      `/account/payment-methods/${method!.id}/delete`,
    ]) {
      const res = await other.post(path, { ...formFields(HOME), city: "Hijacked" });
      expect(res.status, path).toBe(404);
      expect(res.text, path).toMatch(/^Not found: That (address|payment method) is not one of your saved/);
    }
    // Ids that are no ids at all: the same 404, never a 500.
    for (const id of ["not-a-uuid", "%00", "00000000-0000-4000-8000-000000000000", "x".repeat(10_000), "'; DROP TABLE addresses; --"]) {
      const path = `/account/addresses/${encodeURIComponent(id)}`;
      expect((await other.get(path)).status, path).toBe(404);
      expect((await other.post(`${path}/delete`, {})).status, path).toBe(404);
      expect((await other.post(`/account/payment-methods/${encodeURIComponent(id)}/default`, {})).status, path).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
    // The other holder's page shows none of it.
    const page = await other.get("/account");
    expect(page.text).not.toContain(first!.id);
    expect(page.text).not.toContain("2 Second Street");
  });
});

/** The form fields of an address given by label. */
function formFields(values: typeof HOME): Record<string, string> {
  return {
    full_name: values["Full name"],
    line1: values["Address line 1"],
    line2: values["Address line 2"],
    city: values.City,
    state: values.State,
    postal_code: values["ZIP code"],
    country: values.Country,
  };
}

describe("shipping addresses", () => {
  it("saves the first address as the default, tidied; the next is not the default unless asked", async () => {
    const visitor = await holder("first");
    expect(await defaultAddress(client, visitor.userId)).toBeNull();
    const empty = await visitor.get("/account");
    expect(parseHtml(empty.text)("#addresses-heading").text()).toBe("Shipping addresses");
    expect(empty.text).toContain("No address saved yet");

    const { posted, page } = await addAddress(visitor, { "Full name": "  Zoë Ångström 山田  ", "ZIP code": "627011234" });
    expect(posted.location).toBe("/account?notice=address_added");
    expect(statusText(page.text)).toBe("Address saved.");
    const [saved] = await addressesOf(visitor.userId);
    expect(saved).toEqual({
      id: saved!.id,
      full_name: "Zoë Ångström 山田",
      line1: "1 Main Street",
      line2: null,
      city: "Springfield",
      state: "IL",
      postal_code: "62701-1234",
      country: "US",
      is_default: true,
    });
    const $ = parseHtml(page.text);
    expect($(`li[data-address-id="${saved!.id}"][data-default=true]`).text()).toContain("Zoë Ångström 山田");

    const shipTo = await defaultAddress(client, visitor.userId);
    expectExactKeys(shipTo, ["full_name", "line1", "line2", "city", "state", "postal_code", "country"], "defaultAddress");
    expect(shipTo).toEqual({ full_name: "Zoë Ångström 山田", line1: "1 Main Street", line2: null, city: "Springfield", state: "IL", postal_code: "62701-1234", country: "US" });

    // A second one: saved, not the default.
    await addAddress(visitor, { "Address line 1": "9 Elm Road", "Address line 2": "Unit 3", "ZIP code": "62702" });
    // A third, asked to be the default: it is, and the first is not any more.
    await addAddress(visitor, { "Address line 1": "5 Oak Avenue", Country: "gb", State: "", "ZIP code": "SW1A 1AA", City: "London" }, true);
    const rows = await addressesOf(visitor.userId);
    expect(rows.map((r) => [r.line1, r.line2, r.country, r.state, r.postal_code, r.is_default])).toEqual([
      ["1 Main Street", null, "US", "IL", "62701-1234", false],
      ["9 Elm Road", "Unit 3", "US", "IL", "62702", false],
      ["5 Oak Avenue", null, "GB", "", "SW1A 1AA", true],
    ]);
    expect((await defaultAddress(client, visitor.userId))?.line1).toBe("5 Oak Avenue");
  });

  it("makes another address the default, edits one, and deleting the default makes another the default, then none", async () => {
    const visitor = await holder("default");
    await addAddress(visitor);
    await addAddress(visitor, { "Address line 1": "9 Elm Road" });
    await addAddress(visitor, { "Address line 1": "7 Pine Lane" });
    const [a, b, c] = await addressesOf(visitor.userId);

    const made = await visitor.submit("/account", "Make default: Dana Example, 9 Elm Road", {}, "Make default");
    expect(made.posted.location).toBe("/account?notice=address_default");
    expect((await addressesOf(visitor.userId)).map((r) => r.is_default)).toEqual([false, true, false]);

    // Edit through the edit page: the fields come filled in; the default stays the default.
    const page = await visitor.get(`/account/addresses/${b!.id}`);
    expect(page.status).toBe(200);
    expect(inputValue(page.text, "Edit address", "Address line 1")).toBe("9 Elm Road");
    const edited = await visitor.submit(`/account/addresses/${b!.id}`, "Edit address", { City: "Chicago", "ZIP code": "60601" }, "Save address");
    expect(edited.posted.location).toBe("/account?notice=address_saved");
    expect(await defaultAddress(client, visitor.userId)).toEqual({
      full_name: "Dana Example", line1: "9 Elm Road", line2: null, city: "Chicago", state: "IL", postal_code: "60601", country: "US",
    });

    // Deleting the default: the most recently saved of the others becomes the default.
    const deleted = await visitor.submit("/account", "Delete: Dana Example, 9 Elm Road", {}, "Delete");
    expect(deleted.posted.location).toBe("/account?notice=address_deleted");
    expect((await addressesOf(visitor.userId)).map((r) => [r.id, r.is_default])).toEqual([
      [a!.id, false],
      [c!.id, true],
    ]);
    // Deleting one that is not the default leaves the default alone.
    await visitor.submit("/account", "Delete: Dana Example, 1 Main Street", {}, "Delete");
    expect((await addressesOf(visitor.userId)).map((r) => [r.id, r.is_default])).toEqual([[c!.id, true]]);
    // Deleting the last: no default.
    await visitor.submit("/account", "Delete: Dana Example, 7 Pine Lane", {}, "Delete");
    expect(await addressesOf(visitor.userId)).toEqual([]);
    expect(await defaultAddress(client, visitor.userId)).toBeNull();
    // Deleting it again: a 404, not a 500.
    expect((await visitor.post(`/account/addresses/${c!.id}/delete`, {})).status).toBe(404);
  });

  it("refuses what is not a US address, with the message on the field and what was typed kept", async () => {
    const visitor = await holder("us");
    const cases: Array<[Partial<typeof HOME>, string, RegExp]> = [
      [{ State: "Illinois" }, "state", /^Enter the 2-letter code of the US state, such as CA\./],
      [{ State: "" }, "state", /^Enter the state\./],
      [{ "ZIP code": "6270" }, "postal_code", /^Enter a US ZIP code: 5 digits, or 5\+4 like 12345-6789\./],
      [{ "ZIP code": "62701-12" }, "postal_code", /^Enter a US ZIP code/],
      [{ "ZIP code": "ABCDE" }, "postal_code", /^Enter a US ZIP code/],
      [{ Country: "USA" }, "country", /^The country must be a two-letter ISO 3166-1 code\./],
      [{ Country: "" }, "country", /^The country must be a two-letter/],
      [{ "Full name": "   " }, "full_name", /^Enter the full name\./],
      [{ "Address line 1": "" }, "line1", /^Enter the first address line\./],
      [{ City: "" }, "city", /^Enter the city\./],
    ];
    for (const [values, field, message] of cases) {
      const typed = { ...HOME, City: "Typed City", ...values };
      const { posted, page } = await visitor.submit("/account", "Add an address", typed, "Save address");
      expect(posted.location, JSON.stringify(values)).toMatch(/^\/account\?flash=/);
      const error = formError(page.text);
      expect(error?.message, JSON.stringify(values)).toMatch(message);
      expect(error?.invalid).toEqual([field]);
      // What was typed comes back in the form.
      for (const [label, value] of Object.entries(typed)) expect(inputValue(page.text, "Add an address", label), label).toBe(value);
    }
    expect(await addressesOf(visitor.userId)).toEqual([]);
  });

  it("refuses hostile input with a clear message and changes nothing: 10,000 characters, control characters, NUL bytes", async () => {
    const visitor = await holder("hostile");
    await addAddress(visitor);
    const [saved] = await addressesOf(visitor.userId);
    const before = await snapshot();
    const long = "x".repeat(10_000);
    const cases: Array<[Record<string, string>, string, RegExp]> = [
      [{ full_name: long }, "full_name", /^The full name is too long \(at most 100 characters\)\./],
      [{ line1: long }, "line1", /^The first address line is too long \(at most 200 characters\)\./],
      [{ line2: long }, "line2", /^The second address line is too long \(at most 200 characters\)\./],
      [{ city: long }, "city", /^The city is too long \(at most 100 characters\)\./],
      [{ state: long }, "state", /^The state is too long \(at most 100 characters\)\./],
      [{ postal_code: long }, "postal_code", /^The ZIP code is too long \(at most 20 characters\)\./],
      [{ country: long }, "country", /^The country must be a two-letter/],
      [{ full_name: "Dana\u0000Example" }, "full_name", /^The full name contains control characters; type it on one line\./],
      [{ line1: "1 Main\nStreet" }, "line1", /^The first address line contains control characters/],
      [{ line2: "\u0007bell" }, "line2", /^The second address line contains control characters/],
      [{ city: "Spring\u001bfield" }, "city", /^The city contains control characters/],
      [{ state: "I\u0000L" }, "state", /^The state contains control characters/],
      [{ postal_code: "62701\u0000" }, "postal_code", /^The ZIP code contains control characters/],
      [{ country: "U\u0085" }, "country", /^The country must be a two-letter/],
    ];
    for (const [override, field, message] of cases) {
      const fields = { ...formFields(HOME), ...override };
      for (const [action, back] of [
        ["/account/addresses/add", /^\/account\?flash=/],
        [`/account/addresses/${saved!.id}/update`, new RegExp(`^/account/addresses/${saved!.id}\\?flash=`)],
      ] as const) {
        const res = await visitor.post(action, fields);
        expect(res.status, `${action} ${JSON.stringify(override).slice(0, 60)}`).toBe(303);
        expect(res.location).toMatch(back);
        const page = await visitor.get(res.location!);
        expect(page.status).toBe(200);
        const error = formError(page.text);
        expect(error?.message, JSON.stringify(override).slice(0, 60)).toMatch(message);
        expect(error?.invalid).toEqual([field]);
      }
    }
    // A whole form of 10,000-character fields, and a body of junk fields: refused, never a 500.
    const huge = await visitor.post("/account/addresses/add", Object.fromEntries(Object.keys(formFields(HOME)).map((k) => [k, long])));
    expect(huge.status).toBe(303);
    const junk = await visitor.post("/account/addresses/add", Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, "y".repeat(1000)])));
    expect(junk.status).toBe(303);
    expect(await snapshot()).toEqual(before);
  });

  it(`holds at most ${ADDRESS_LIMIT} addresses: the 11th is refused with a message and nothing is written`, async () => {
    const visitor = await holder("limit");
    // Ten posted at once: all saved, exactly one of them the default.
    const posts = await Promise.all(
      Array.from({ length: ADDRESS_LIMIT }, (_, i) => visitor.post("/account/addresses/add", { ...formFields(HOME), line1: `${i + 1} Main Street` })),
    );
    for (const res of posts) expect(res.location).toBe("/account?notice=address_added");
    const rows = await addressesOf(visitor.userId);
    expect(rows).toHaveLength(ADDRESS_LIMIT);
    expect(rows.filter((r) => r.is_default)).toHaveLength(1);

    const full = await visitor.get("/account");
    expect(parseHtml(full.text)("[data-limit=addresses]").text()).toBe(
      `You have saved ${ADDRESS_LIMIT} addresses, the most an account can hold. Delete one to add another.`,
    );
    expect(() => findForm(parseHtml(full.text), "Add an address")).toThrow();
    const before = await snapshot();
    const res = await visitor.post("/account/addresses/add", { ...formFields(HOME), line1: "11 Main Street" });
    expect(res.status).toBe(303);
    const page = await visitor.get(res.location!);
    expect(formError(page.text)?.message).toBe(`You can save up to ${ADDRESS_LIMIT} addresses. Delete one to add another.`);
    expect(await snapshot()).toEqual(before);
  });
});

describe("payment method", () => {
  it("saves the test card once (no card number anywhere), makes it the default, and removes it", async () => {
    const visitor = await holder("card");
    expect(await defaultPaymentMethod(client, visitor.userId)).toBeNull();
    const page = await visitor.get("/account");
    const $ = parseHtml(page.text);
    expect($("#payment-heading").text()).toBe("Payment method");
    // Nothing to type: the section holds no text field at all.
    expect($("#payment-methods input:not([type=hidden])").length).toBe(0);

    const saved = await visitor.submit("/account", "Save the test card", {}, "Save the test card");
    expect(saved.posted.location).toBe("/account?notice=card_saved");
    expect(statusText(saved.page.text)).toBe("The test card is saved.");
    const rows = await methodsOf(visitor.userId);
    expect(rows).toEqual([{ id: rows[0]!.id, provider: "test", provider_ref: "test_card", brand: "Test card", last4: "4242", is_default: true }]);
    expect(parseHtml(saved.page.text)(`li[data-payment-method-id="${rows[0]!.id}"]`).text()).toContain("Test card ending in 4242");
    // Once saved, the page no longer offers it; posting again adds nothing.
    expect(() => findForm(parseHtml(saved.page.text), "Save the test card")).toThrow();
    const again = await visitor.post("/account/payment-methods/test-card", {});
    expect(again.location).toBe("/account?notice=card_kept");
    expect(await methodsOf(visitor.userId)).toEqual(rows);

    const method = await defaultPaymentMethod(client, visitor.userId);
    expectExactKeys(method, ["id", "provider", "provider_ref", "brand", "last4", "is_default"], "defaultPaymentMethod");
    expect(method).toEqual({ id: rows[0]!.id, provider: "test", provider_ref: "test_card", brand: "Test card", last4: "4242", is_default: true });

    // A card number posted anyway is neither read nor stored.
    await visitor.post("/account/payment-methods/test-card", { card_number: "4111 1111 1111 1111" });
    const { rows: leaked } = await app.pool.query(`SELECT count(*)::int AS n FROM payment_methods WHERE concat(provider, provider_ref, brand, last4) LIKE '%1111%'`);
    expect(leaked[0].n).toBe(0);

    const removed = await visitor.submit("/account", "Remove: Test card ending in 4242", {}, "Remove");
    expect(removed.posted.location).toBe("/account?notice=method_removed");
    expect(await methodsOf(visitor.userId)).toEqual([]);
    expect(await defaultPaymentMethod(client, visitor.userId)).toBeNull();
    expect((await visitor.post(`/account/payment-methods/${rows[0]!.id}/delete`, {})).status).toBe(404);
    // Saved again after removal: the default again.
    await visitor.post("/account/payment-methods/test-card", {});
    expect((await methodsOf(visitor.userId)).map((r) => r.is_default)).toEqual([true]);
  });

  it("picks the default among saved methods, and removing the default makes another the default", async () => {
    const visitor = await holder("methods");
    await visitor.post("/account/payment-methods/test-card", {});
    // A second method, as another provider would save one (the page saves only the test card).
    await app.pool.query(
      `INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, created_at) VALUES ($1, 'other', 'pm_1', 'Visa', '1881', now() + interval '1 second')`,
      [visitor.userId],
    );
    const made = await visitor.submit("/account", "Make default: Visa ending in 1881", {}, "Make default");
    expect(made.posted.location).toBe("/account?notice=method_default");
    expect((await methodsOf(visitor.userId)).map((r) => [r.brand, r.is_default])).toEqual([
      ["Test card", false],
      ["Visa", true],
    ]);
    expect((await defaultPaymentMethod(client, visitor.userId))?.brand).toBe("Visa");
    await visitor.submit("/account", "Remove: Visa ending in 1881", {}, "Remove");
    expect((await methodsOf(visitor.userId)).map((r) => [r.brand, r.is_default])).toEqual([["Test card", true]]);
  });
});
