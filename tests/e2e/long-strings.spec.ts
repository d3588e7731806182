/**
 * Long unbroken strings at the narrowest screen the storefront supports (360 px): a shopper whose
 * e-mail address and name have no place to break registers with the forms, has an order, and
 * visits their account pages; a seller whose e-mail is as long opens that order at the desk; a
 * product and a store whose title and name cannot break are seen on their pages, bought into a
 * cart and checked out by a guest whose name and address cannot break either; a seller fills every
 * form of the desk (shipping template, listing, API key, webhook endpoint) with such strings and
 * sees each result and each list. No page may be
 * wider than the screen (globals.css wraps such strings anywhere). And the first row
 * of search results loads its pictures at first paint, the rest lazily.
 * Screenshots: test-results/screenshots/long-strings-<page>-360.png.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { createTestOrder } from "../helpers/orders";
import { expect, test, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");
const DATABASE_URL = process.env.E2E_DATABASE_URL;
const WIDTH = 360;

async function fits(page: Page, name: string) {
  const sizes = await page.evaluate(() => {
    const clientWidth = document.documentElement.clientWidth;
    // The innermost elements that run past the right edge, to say what widened the page.
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > clientWidth + 0.5 && ![...el.children].some((c) => c.getBoundingClientRect().right > clientWidth + 0.5))
      .slice(0, 5)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.className}">${(el.textContent ?? "").slice(0, 40)}`);
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth, wide };
  });
  expect(sizes.scrollWidth, `${page.url()} is wider than a ${WIDTH} px screen: ${sizes.wide.join("; ")}`).toBe(sizes.clientWidth);
  await page.screenshot({ path: path.join(SCREENSHOTS, `long-strings-${name}-${WIDTH}.png`), fullPage: true });
}

async function visit(page: Page, url: string, name: string) {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(200);
  await fits(page, name);
}

/** Registers with the storefront's form; answers the new account's e-mail. */
async function register(page: Page, label: string): Promise<string> {
  const id = randomUUID().slice(0, 8);
  // As long as an address may be where it cannot break: a 60-character mailbox, 44- and 48-character labels.
  const email = `e2e-${label}-${"averylongmailboxname".repeat(2)}-${id}@${"subdomainwithoutbreaks".repeat(2)}.${"anotherlonglabel".repeat(3)}.example.com`;
  await page.goto("/register");
  await page.getByLabel("Name").fill(`Name${"Withoutanyspacesatall".repeat(5)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);
  return email;
}

test.describe("at 360 px", () => {
  test.use({ viewport: { width: WIDTH, height: 800 } });

  test("a long e-mail address and name wrap on the account pages, an order and the seller's desk", async ({ browser }) => {
    test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to place an order and make a seller");
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const buyer = await (await browser.newContext({ viewport: { width: WIDTH, height: 800 } })).newPage();
      const email = await register(buyer, "buyer");
      await visit(buyer, "/account", "account");
      const { rows } = await pool.query<{ id: string }>(`SELECT id::text FROM users WHERE email = $1`, [email]);
      // A store no browser test sells from by name.
      const store = await pool.query<{ slug: string }>(
        `SELECT s.slug FROM stores s WHERE s.status = 'active' AND s.slug NOT LIKE 'fixture-%' AND s.slug <> 'thread-and-needle'
           AND (SELECT count(*) FROM listings l WHERE l.store_id = s.id AND l.status = 'active') >= 1 ORDER BY md5(s.slug || $1) LIMIT 1`,
        [randomUUID()],
      );
      const order = await createTestOrder(pool, { userId: rows[0]!.id, email, parts: [{ store: store.rows[0]!.slug, lines: [{ quantity: 1 }] }] });
      await visit(buyer, "/account/agents", "account-agents");
      await visit(buyer, "/account/orders", "account-orders");
      await visit(buyer, `/account/orders/${order.number}`, "account-order");

      const seller = await (await browser.newContext({ viewport: { width: WIDTH, height: 800 } })).newPage();
      const sellerEmail = await register(seller, "seller");
      await pool.query(`INSERT INTO store_owners (store_id, user_id) SELECT s.id, u.id FROM stores s, users u WHERE s.slug = $1 AND u.email = $2`, [
        store.rows[0]!.slug,
        sellerEmail,
      ]);
      await pool.query(`UPDATE users SET role = 'store_owner' WHERE email = $1`, [sellerEmail]);
      await visit(seller, "/seller", "seller");
      await visit(seller, "/seller/orders", "seller-orders");
      await visit(seller, `/seller/orders/${order.number}`, "seller-order");
    } finally {
      await pool.end();
    }
  });

  test("a long product title, store name and address wrap on the product, store, cart, checkout and confirmation pages", async ({ page, baseURL }) => {
    test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to add a product and a store");
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    const id = randomUUID().slice(0, 8);
    const slug = `long-strings-${id}`;
    let listingId = "";
    try {
      const store = await pool.query<{ id: string }>(`INSERT INTO stores (slug, name) VALUES ($1, $2) RETURNING id`, [slug, `Store${"Withoutanybreakanywhere".repeat(4)}`]);
      const product = await pool.query<{ id: string }>(
        `INSERT INTO products (slug, title, description, category_id, publicly_listed, published_at)
         VALUES ($1, $2, $3, (SELECT id FROM categories WHERE parent_id IS NOT NULL ORDER BY path LIMIT 1), true, now()) RETURNING id`,
        [slug, `Title${"Withoutanyspaceorhyphen".repeat(5)}`, `Description${"Thatneverbreaks".repeat(12)}`],
      );
      const listing = await pool.query<{ id: string }>(
        `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
         VALUES ($1, $2, $3, 'new', 1999, 2499, 5, false, 'active', now()) RETURNING id`,
        [store.rows[0]!.id, product.rows[0]!.id, `SKU${"Verylongskuwithoutbreaks".repeat(3)}${id}`],
      );
      listingId = listing.rows[0]!.id;
    } finally {
      await pool.end();
    }
    await visit(page, `/p/${slug}`, "product");
    await visit(page, `/s/${slug}`, "store");
    const added = await page.request.post("/cart/add", {
      form: { listing_id: listingId, quantity: "1" },
      headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(added.status()).toBe(303);
    await visit(page, "/cart", "cart");
    await visit(page, "/checkout", "checkout");
    const form = page.getByRole("form", { name: "Checkout" });
    await form.getByLabel("Email").fill(`guest-${"averylongmailboxname".repeat(2)}-${id}@${"subdomainwithoutbreaks".repeat(2)}.example.com`);
    await form.getByLabel("Full name").fill(`Name${"Withoutanyspacesatall".repeat(3)}`);
    await form.getByLabel("Address line 1").fill(`Street${"Withoutanyspaces".repeat(4)}`);
    await form.getByLabel("City").fill(`City${"Withoutbreaks".repeat(4)}`);
    await form.getByLabel("State").fill("IL");
    await form.getByLabel("ZIP code").fill("62701");
    await form.getByLabel("Card number").fill("4242 4242 4242 4242");
    await form.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Order M-\d+ placed$/);
    await fits(page, "confirmation");
  });

  test("a seller fills every form of the desk with long strings: store, shipping template, listing, API key, webhook endpoint", async ({ browser }) => {
    test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to make a store and its owner");
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    const id = randomUUID().slice(0, 8);
    const slug = `long-desk-${id}`;
    const page = await (await browser.newContext({ viewport: { width: WIDTH, height: 800 } })).newPage();
    try {
      const email = await register(page, "desk");
      await pool.query(`INSERT INTO stores (slug, name) VALUES ($1, $2)`, [slug, `Store${"Withoutanybreakanywhere".repeat(4)}`]);
      await pool.query(`INSERT INTO store_owners (store_id, user_id) SELECT s.id, u.id FROM stores s, users u WHERE s.slug = $1 AND u.email = $2`, [slug, email]);
      await pool.query(`UPDATE users SET role = 'store_owner' WHERE email = $1`, [email]);
      const { rows: category } = await pool.query<{ slug: string }>(
        `SELECT c.slug FROM categories c WHERE c.active AND NOT EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id) ORDER BY c.slug LIMIT 1`,
      );
      const base = `/seller/${slug}`;
      await visit(page, "/seller", "desk-stores");
      await visit(page, base, "desk-store");

      // A shipping template named as long as a name may be, with no place to break.
      const template = `Template${"Withoutanybreaks".repeat(5)}`;
      await visit(page, `${base}/shipping/new`, "desk-template-new");
      await page.getByLabel("Name").fill(template);
      await page.getByLabel("Handling days (before it ships)").fill("1");
      await page.getByLabel("Rate 1 region").fill("US");
      await page.getByLabel("Rate 1 price (US dollars)").fill("4.99");
      await page.getByLabel("Rate 1 min days").fill("2");
      await page.getByLabel("Rate 1 max days").fill("5");
      await Promise.all([page.waitForURL(/\/shipping\/[0-9a-f-]{36}\?notice=created$/), page.getByRole("button", { name: "Create shipping template" }).click()]);
      await fits(page, "desk-template");
      await visit(page, `${base}/shipping`, "desk-templates");

      // A new product and its listing: title, description and SKU without breaks; first refused
      // (a price of 0), so the refused form is seen with the long values in it, then created.
      const title = `Title${"Withoutanyspaceorhyphen".repeat(8)}`;
      await visit(page, `${base}/listings/new`, "desk-listing-new");
      await page.getByLabel("Find a product by title or GTIN").fill(`Nomatch${"Withoutbreaks".repeat(6)}`);
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByLabel("Product title").fill(title);
      await page.getByLabel("Category").selectOption(category[0]!.slug);
      await page.getByLabel("Description (optional)").fill(`Description${"Thatneverbreaks".repeat(20)}`);
      await page.getByLabel("SKU (your own reference, unique in this store)").fill(`SKU${"Nobreaks".repeat(6)}${id}`);
      await page.getByLabel("Price (US dollars)", { exact: true }).fill("0");
      await page.getByLabel("Quantity in stock").fill("3");
      await page.getByLabel("Shipping template").selectOption({ label: template });
      await page.getByRole("button", { name: "Create listing" }).click();
      await expect(page.locator("main").first().getByRole("alert")).toContainText("Price (US dollars)");
      await fits(page, "desk-listing-refused");
      await page.getByLabel("Price (US dollars)", { exact: true }).fill("12.50");
      await page.getByLabel("Shipping template").selectOption({ label: template });
      await Promise.all([page.waitForURL(/\/listings\/[0-9a-f-]{36}\?notice=created$/), page.getByRole("button", { name: "Create listing" }).click()]);
      await fits(page, "desk-listing");
      await visit(page, `${base}/listings`, "desk-listings");

      // An API key with a 99-character name: the page that shows it once, and the keys table.
      await visit(page, `${base}/keys`, "desk-keys-empty");
      const create = page.getByRole("form", { name: "Create an API key" });
      await create.getByLabel("Name").fill(`Key${"Withoutanybreaks".repeat(6)}`);
      await create.getByRole("checkbox", { name: /listings:read/ }).check();
      await create.getByRole("button", { name: "Create API key" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your new API key");
      await fits(page, "desk-key-created");
      await visit(page, `${base}/keys`, "desk-keys");

      // A webhook endpoint with a long URL and description. The form is refused (this machine
      // resolves no public host), so that page is seen with the long URL in its message; the
      // endpoint is then written as the API writes it (the page never opens the secret).
      await visit(page, `${base}/webhooks`, "desk-webhooks-empty");
      const hookUrl = `https://hooks${"withoutbreaks".repeat(4)}.example.com/${"pathwithoutanybreaks".repeat(8)}`;
      const note = `Note${"Withoutanybreaks".repeat(12)}`;
      await page.getByLabel("Endpoint URL").fill(hookUrl);
      await page.getByRole("checkbox", { name: /order\.created/ }).check();
      await page.getByLabel("Description").fill(note);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect(page.locator("main").first().getByRole("alert")).toContainText("Endpoint URL");
      await fits(page, "desk-webhook-refused");
      const { rows: hook } = await pool.query<{ id: string }>(
        `INSERT INTO webhook_endpoints (store_id, url, description, events, secret)
         SELECT id, $2, $3, ARRAY['order.created'], 'v1.unused' FROM stores WHERE slug = $1 RETURNING id::text`,
        [slug, hookUrl, note],
      );
      await visit(page, `${base}/webhooks/${hook[0]!.id}`, "desk-webhook");
      await visit(page, `${base}/webhooks`, "desk-webhooks");
      await visit(page, `${base}/audit`, "desk-audit");
    } finally {
      await pool.end();
    }
  });

  test("the first row of search results loads its pictures at first paint; the rest wait", async ({ page }) => {
    await page.goto("/search?q=headphones");
    const images = page.locator(".results .card img");
    expect(await images.count()).toBeGreaterThan(4);
    for (let i = 0; i < 4; i++) {
      await expect(images.nth(i)).toHaveAttribute("loading", "eager");
      await expect(images.nth(i)).toHaveAttribute("fetchpriority", "high");
      // Loaded by the load event, whether or not it is on the first screen.
      expect(await images.nth(i).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    await expect(images.nth(4)).toHaveAttribute("loading", "lazy");
  });
});
