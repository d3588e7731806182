/**
 * The seller dashboard in a real browser, driven by accessible names as a person would: a new
 * account registers, is made the owner of a store (the marketplace team's job: SQL here), creates
 * a shipping template and a listing, publishes it and finds it on its public product page;
 * creates an API key (shown once; after a reload only its last four characters), uses it against
 * /api/v1/listings, revokes it, and the API answers 401 api_key_revoked. The same key page
 * without JavaScript; an account without a store.
 *
 * Every dashboard page is saved at 1280 and 390 px wide in test-results/screenshots/seller-*.png,
 * and no page may be wider than a 390 px phone screen.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, shots, test, type Page } from "./fixtures";
import pg from "pg";

const SCREENSHOTS = path.join("test-results", "screenshots"); // the page without JavaScript, phone width only
const DATABASE_URL = process.env.E2E_DATABASE_URL;
// A generated store the other browser tests do not use.
const STORE = "thread-and-needle";

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function register(page: Page, name: string): Promise<string> {
  const email = `e2e-seller-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);
  return email;
}

/** What the marketplace team does for a new seller: make the account an owner of the store. */
async function makeOwner(email: string, store: string) {
  await query(
    `INSERT INTO store_owners (store_id, user_id) SELECT s.id, u.id FROM stores s, users u WHERE s.slug = $1 AND u.email = $2`,
    [store, email],
  );
  await query(`UPDATE users SET role = 'store_owner' WHERE email = $1`, [email]);
}

const main = (page: Page) => page.locator("main").first();
const apiHeaders = (key: string) => ({ Authorization: `Bearer ${key}`, "X-Forwarded-For": `10.77.${Math.floor(Math.random() * 250)}.9` });

test.describe("seller dashboard", () => {
  test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to make the account a store owner");
  test.use({ navigationTimeout: 15_000 });

  test("shipping template, listing published to its product page, an API key shown once, used and revoked", async ({ page, context, request }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const email = await register(page, "Sam Seller");
    await makeOwner(email, STORE);

    // Your stores
    await page.goto("/seller");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your stores");
    const storeCard = page.locator(`[data-store="${STORE}"]`);
    await expect(storeCard).toBeVisible();
    await shots(page, "seller", "stores");

    // A shipping template: two rows filled in, the rest left blank.
    await storeCard.getByRole("link", { name: "Shipping templates" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Shipping templates");
    await shots(page, "seller", "shipping");
    await page.getByRole("link", { name: "New shipping template" }).click();
    await page.getByLabel("Name").fill("E2E standard");
    await page.getByLabel("Handling days (before it ships)").fill("1");
    await page.getByLabel("Rate 1 region").fill("US");
    await page.getByLabel("Rate 1 price (US dollars)").fill("4.99");
    await page.getByLabel("Rate 1 free over (US dollars)").fill("75");
    await page.getByLabel("Rate 1 min days").fill("2");
    await page.getByLabel("Rate 1 max days").fill("5");
    await page.getByLabel("Rate 2 region").fill("*");
    await page.getByLabel("Rate 2 service").selectOption("expedited");
    await page.getByLabel("Rate 2 price (US dollars)").fill("15");
    await page.getByLabel("Rate 2 min days").fill("1");
    await page.getByLabel("Rate 2 max days").fill("3");
    await shots(page, "seller", "shipping-new");
    await Promise.all([page.waitForURL(/\/shipping\/[0-9a-f-]{36}\?notice=created$/), page.getByRole("button", { name: "Create shipping template" }).click()]);
    await expect(main(page).getByRole("status")).toHaveText("Shipping template created.");
    await expect(page.getByLabel("Rate 1 price (US dollars)")).toHaveValue("4.99");
    await shots(page, "seller", "shipping-edit");

    // A listing of a new product: a refused form first (no price), then the real one.
    const title = `E2E Linen Apron ${randomUUID().slice(0, 6)}`;
    const [category] = await query<{ slug: string }>(
      `SELECT c.slug FROM categories c WHERE c.active AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id) ORDER BY c.slug DESC LIMIT 1`,
    );
    await page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "Listings" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Listings");
    await shots(page, "seller", "listings");
    await page.getByRole("link", { name: "New listing" }).click();
    await page.getByLabel("Find a product by title or GTIN").fill("apron");
    await page.getByRole("button", { name: "Search" }).click();
    await shots(page, "seller", "listing-new");
    await page.getByLabel("Product title").fill(title);
    await page.getByLabel("Category").selectOption(category!.slug);
    await page.getByLabel("Description (optional)").fill("Stonewashed linen, two pockets.");
    await page.getByLabel("SKU (your own reference, unique in this store)").fill(`E2E-${randomUUID().slice(0, 8)}`);
    await page.getByLabel("Price (US dollars)", { exact: true }).fill("0");
    await page.getByLabel("Quantity in stock").fill("12");
    await page.getByLabel("Shipping template").selectOption({ label: "E2E standard" });
    await page.getByRole("button", { name: "Create listing" }).click();
    await expect(main(page).getByRole("alert")).toContainText("Price (US dollars)");
    await expect(page.getByLabel("Product title")).toHaveValue(title);
    await shots(page, "seller", "listing-new-refused");
    await page.getByLabel("Price (US dollars)", { exact: true }).fill("34.50");
    await page.getByLabel("Shipping template").selectOption({ label: "E2E standard" });
    await Promise.all([page.waitForURL(/\/listings\/[0-9a-f-]{36}\?notice=created$/), page.getByRole("button", { name: "Create listing" }).click()]);
    const listingId = /\/listings\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await expect(main(page).getByRole("status")).toContainText("created as a draft");
    await expect(page.locator("main [data-status]").first()).toHaveAttribute("data-status", "draft");
    await shots(page, "seller", "listing-edit");

    // Publish, then the public product page shows the offer.
    await Promise.all([page.waitForURL(/notice=published/), page.getByRole("button", { name: "Publish" }).click()]);
    await expect(main(page).getByRole("status")).toContainText("Listing published");
    await Promise.all([page.waitForURL(/\/p\//), main(page).getByRole("link", { name: /^\/p\// }).click()]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await expect(page.locator("main")).toContainText("$34.50");
    await page.goBack();

    // The listings table finds it by title and sets its quantity in place.
    await page.goto(`/seller/${STORE}/listings?q=${encodeURIComponent(title.toLowerCase())}`);
    const row = page.locator(`tr[data-listing="${listingId}"]`);
    await expect(row).toHaveAttribute("data-status", "active");
    await row.getByRole("spinbutton").fill("8");
    await Promise.all([page.waitForURL(/notice=quantity/), row.getByRole("button", { name: /^Save quantity/ }).click()]);
    await expect(page.locator(`tr[data-listing="${listingId}"]`).getByRole("spinbutton")).toHaveValue("8");
    await shots(page, "seller", "listings-search");

    // An API key: shown once, copied, then only …last4.
    await page.getByRole("navigation", { name: "Store sections" }).getByRole("link", { name: "API keys" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
    await shots(page, "seller", "keys");
    const create = page.getByRole("form", { name: "Create an API key" });
    await create.getByLabel("Name").fill("E2E sync");
    await create.getByRole("checkbox", { name: /listings:read/ }).check();
    await create.getByRole("checkbox", { name: /listings:write/ }).check();
    await create.getByRole("button", { name: "Create API key" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your new API key");
    const key = (await page.locator("[data-new-key]").textContent())!.trim();
    expect(key).toMatch(/^mk_live_[a-z0-9]{16}\.[A-Za-z0-9_-]{43}$/);
    expect(page.url()).not.toContain(key.split(".")[1]!);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shots(page, "seller", "key-created");
    expect(page.url()).toMatch(/\/keys\/[a-z0-9]{16}\/created$/);

    // A reload shows the key no more and creates none.
    const keysBefore = (await query(`SELECT id FROM api_keys`)).length;
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Already shown");
    await expect(page.locator("[data-new-key]")).toHaveCount(0);
    expect(await page.content()).not.toContain(key.split(".")[1]!);
    expect(await query(`SELECT id FROM api_keys`)).toHaveLength(keysBefore);
    await shots(page, "seller", "key-already-shown");

    await page.getByRole("link", { name: "Done: back to API keys" }).click();
    await page.reload();
    const [, keyId, secret] = /^mk_live_([a-z0-9]{16})\.(.+)$/.exec(key)!;
    const keyRow = page.locator(`tr[data-key-id="${keyId}"]`);
    await expect(keyRow.locator(".key-display")).toHaveText(`mk_live_${keyId}.…${secret!.slice(-4)}`);
    expect(await page.content()).not.toContain(secret);
    await shots(page, "seller", "keys-after");

    // The key works against the seller API...
    const list = await request.get("/api/v1/listings?limit=100", { headers: apiHeaders(key) });
    expect(list.status()).toBe(200);
    expect((await list.json()).data.map((l: { id: string }) => l.id)).toContain(listingId);
    const one = await request.get(`/api/v1/listings/${listingId}`, { headers: apiHeaders(key) });
    expect(one.status()).toBe(200);
    expect((await one.json()).data).toMatchObject({ id: listingId, status: "active", price_cents: 3450, quantity: 8 });

    // ...until it is revoked in the dashboard.
    await Promise.all([page.waitForURL(/notice=revoked/), keyRow.getByRole("button", { name: /^Revoke/ }).click()]);
    await expect(page.locator(`tr[data-key-id="${keyId}"]`)).toHaveAttribute("data-revoked", "true");
    const revoked = await request.get("/api/v1/listings", { headers: apiHeaders(key) });
    expect(revoked.status()).toBe(401);
    expect((await revoked.json()).error.code).toBe("api_key_revoked");
    await shots(page, "seller", "keys-revoked");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the new key is plain selectable text, without a Copy button", async ({ page }) => {
      const email = await register(page, "No Script");
      await makeOwner(email, STORE);
      await page.goto(`/seller/${STORE}/keys`);
      const create = page.getByRole("form", { name: "Create an API key" });
      await create.getByLabel("Name").fill("No-JS key");
      await create.getByRole("checkbox", { name: /shipping:write/ }).check();
      await create.getByRole("button", { name: "Create API key" }).click();
      const key = page.locator("[data-new-key]");
      await expect(key).toHaveText(/^mk_live_[a-z0-9]{16}\./);
      await expect(page.getByRole("button", { name: "Copy" })).toBeHidden();
      expect(await key.evaluate((el) => getComputedStyle(el).userSelect)).toBe("all");
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(SCREENSHOTS, "seller-key-created-nojs-390.png"), fullPage: true });
    });
  });

  test("an account that owns no store is told so", async ({ page }) => {
    await register(page, "Just Shopping");
    await page.goto("/seller");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("You do not own a store");
    await shots(page, "seller", "no-store");
  });
});
