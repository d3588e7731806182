/**
 * Long unbroken strings at the narrowest screen the storefront supports (360 px): a shopper whose
 * e-mail address and name have no place to break registers with the forms, has an order, and
 * visits their account pages; a seller whose e-mail is as long opens that order at the desk; a
 * product and a store whose title and name cannot break are seen on their pages, bought into a
 * cart and checked out by a guest whose name and address cannot break either. No page may be
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
