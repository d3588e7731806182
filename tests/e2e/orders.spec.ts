/**
 * Buying and after, in a real browser, by accessible names as people do it:
 *
 * - a guest adds two offers of two stores from their product pages, checks out with an e-mail,
 *   an address and a card number, and lands on the confirmation whose heading holds the number;
 * - a registered buyer saves an address and the test card on /account, adds an offer and places
 *   the order with the saved card (no card number typed);
 * - the owner of that offer's store finds the order on the seller desk, ships it with a tracking
 *   number and marks it delivered; the buyer sees the tracking number under /account/orders and
 *   asks for a return; the seller approves, receives and refunds it; the buyer sees it refunded.
 *
 * Every page is saved at 1280 and 390 px wide in test-results/screenshots/orders-*.png, and no
 * page may be wider than a 390 px phone screen.
 */
import { randomUUID } from "node:crypto";
import { expect, shots, test, type Page } from "./fixtures";
import pg from "pg";

const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function register(page: Page, name: string): Promise<string> {
  const email = `e2e-orders-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);
  return email;
}

interface Offer {
  listing_id: string;
  product_slug: string;
  title: string;
  store_slug: string;
  store_name: string;
}

/**
 * Offers with stock to spare, one from each of `count` different active stores that no other
 * browser test sells from, with a shipping template.
 */
async function offersOfStores(pool: pg.Pool, count: number, skipStores: string[] = []): Promise<Offer[]> {
  const { rows } = await pool.query<Offer>(
    `SELECT DISTINCT ON (s.slug) l.id::text AS listing_id, p.slug AS product_slug, p.title, s.slug AS store_slug, s.name AS store_name
       FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
      WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND l.quantity >= 20
        AND l.shipping_template_id IS NOT NULL
        AND s.slug NOT LIKE 'fixture-%' AND s.slug <> 'thread-and-needle' AND s.slug <> ALL($1::text[])
      ORDER BY s.slug, md5(l.id::text || $2)`,
    [skipStores, randomUUID()],
  );
  expect(rows.length, "the seed has enough stores with stock").toBeGreaterThanOrEqual(count);
  return rows.sort(() => Math.random() - 0.5).slice(0, count);
}

/** On the product page: the offer's own "Add to cart" button; lands on /cart. */
async function addToCart(page: Page, offer: Offer) {
  await page.goto(`/p/${offer.product_slug}`);
  const row = page.locator(`tr[data-listing-id="${offer.listing_id}"]`);
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/cart"),
    row.getByRole("button", { name: "Add to cart" }).click(),
  ]);
}

test.describe("orders", () => {
  test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to pick offers and make a seller");
  test.use({ navigationTimeout: 15_000 });

  test("a guest buys two offers of two stores", async ({ page }) => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const offers = await offersOfStores(pool, 2);
      for (const offer of offers) await addToCart(page, offer);
      await shots(page, "orders", "cart");

      await Promise.all([page.waitForURL((url) => url.pathname === "/checkout"), page.getByRole("button", { name: "Checkout" }).click()]);
      await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
      for (const offer of offers) {
        await expect(page.getByRole("region", { name: `Sold by ${offer.store_name}` })).toContainText(offer.title);
      }
      const form = page.getByRole("form", { name: "Checkout" });
      await form.getByLabel("Email").fill(`guest-${randomUUID().slice(0, 8)}@example.com`);
      await form.getByLabel("Full name").fill("Gail Guest");
      await form.getByLabel("Address line 1").fill("12 Harbour Street");
      await form.getByLabel("City").fill("Portland");
      await form.getByLabel("State").fill("ME");
      await form.getByLabel("ZIP code").fill("04101");
      await form.getByLabel("Card number").fill("4242 4242 4242 4242");
      await shots(page, "orders", "checkout-guest");

      await form.getByRole("button", { name: "Place order" }).click();
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveText(/^Order M-\d+ placed$/);
      const number = (await heading.textContent())!.match(/M-\d+/)![0];
      for (const offer of offers) await expect(page.locator("main")).toContainText(offer.title);
      await shots(page, "orders", "confirmation-guest");

      const { rows } = await pool.query(
        `SELECT o.user_id, o.placed_via, count(DISTINCT os.store_id)::int AS stores, count(ol.id)::int AS lines
           FROM orders o JOIN order_stores os ON os.order_id = o.id JOIN order_lines ol ON ol.order_id = o.id AND ol.store_id = os.store_id
          WHERE o.number = $1 GROUP BY o.id`,
        [number],
      );
      expect(rows).toEqual([{ user_id: null, placed_via: "storefront", stores: 2, lines: 2 }]);
    } finally {
      await pool.end();
    }
  });

  test("a buyer pays with the saved card; the seller ships and delivers; the buyer returns and is refunded", async ({ browser }) => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const [offer] = await offersOfStores(pool, 1);
      const buyerPage = await (await browser.newContext()).newPage();
      const sellerPage = await (await browser.newContext()).newPage();

      // The buyer saves an address and the test card.
      await register(buyerPage, "Bea Buyer");
      const add = buyerPage.getByRole("form", { name: "Add an address" });
      await add.getByLabel("Full name").fill("Bea Buyer");
      await add.getByLabel("Address line 1").fill("1 Main Street");
      await add.getByLabel("City").fill("Springfield");
      await add.getByLabel("State").fill("IL");
      await add.getByLabel("ZIP code").fill("62701");
      await add.getByRole("button", { name: "Save address" }).click();
      await expect(buyerPage.getByRole("status")).toHaveText("Address saved.");
      await buyerPage.getByRole("form", { name: "Save the test card" }).getByRole("button", { name: "Save the test card" }).click();
      await expect(buyerPage.getByRole("status")).toHaveText("The test card is saved.");
      await shots(buyerPage, "orders", "account");

      // ... and buys with them.
      await addToCart(buyerPage, offer!);
      await Promise.all([buyerPage.waitForURL((url) => url.pathname === "/checkout"), buyerPage.getByRole("button", { name: "Checkout" }).click()]);
      const form = buyerPage.getByRole("form", { name: "Checkout" });
      await expect(form.getByRole("radio", { name: /Bea Buyer, 1 Main Street/ })).toBeChecked();
      await expect(form.getByRole("radio", { name: "Test card ending in 4242" })).toBeChecked();
      await expect(form.getByLabel("Card number")).toHaveCount(0);
      await shots(buyerPage, "orders", "checkout-saved-card");
      await form.getByRole("button", { name: "Place order" }).click();
      const heading = buyerPage.getByRole("heading", { level: 1 });
      await expect(heading).toHaveText(/^Order M-\d+ placed$/);
      const number = (await heading.textContent())!.match(/M-\d+/)![0];
      await shots(buyerPage, "orders", "confirmation");

      // The owner of the offer's store ships and delivers it.
      const sellerEmail = await register(sellerPage, "Sol Seller");
      await pool.query(`INSERT INTO store_owners (store_id, user_id) SELECT s.id, u.id FROM stores s, users u WHERE s.slug = $1 AND u.email = $2`, [offer!.store_slug, sellerEmail]);
      await pool.query(`UPDATE users SET role = 'store_owner' WHERE email = $1`, [sellerEmail]);
      await sellerPage.goto("/seller");
      await sellerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Orders" }).click();
      await expect(sellerPage.getByRole("heading", { level: 1 })).toHaveText("Orders");
      await shots(sellerPage, "orders", "desk");
      await sellerPage.getByRole("link", { name: number }).click();
      await expect(sellerPage.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
      await shots(sellerPage, "orders", "desk-order");
      await sellerPage.getByLabel("Tracking number").fill("1Z999AA10123456784");
      await sellerPage.getByRole("button", { name: "Mark shipped" }).click();
      await expect(sellerPage.getByRole("status")).toContainText("Marked shipped");
      await shots(sellerPage, "orders", "desk-order-shipped");
      await sellerPage.getByRole("button", { name: "Mark delivered" }).click();
      await expect(sellerPage.getByRole("status")).toContainText("Marked delivered");

      // The buyer tracks it and asks for a return.
      await buyerPage.goto("/account");
      await buyerPage.getByRole("link", { name: "Your orders" }).click();
      await shots(buyerPage, "orders", "account-orders");
      await buyerPage.getByRole("link", { name: number }).click();
      await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(`Order ${number}`);
      await expect(buyerPage.locator("dd[data-tracking-number]")).toHaveText("1Z999AA10123456784");
      await buyerPage.getByLabel(`Quantity to return: ${offer!.title}`).fill("1");
      await buyerPage.getByLabel(`Reason: ${offer!.title}`).selectOption("damaged");
      await shots(buyerPage, "orders", "order-return-form");
      await buyerPage.getByRole("button", { name: "Request return" }).click();
      await expect(buyerPage.getByRole("status")).toContainText("Return requested");

      // The seller refunds it.
      await sellerPage.goto("/seller/returns");
      await shots(sellerPage, "orders", "desk-returns");
      for (const [button, notice] of [
        ["Approve", "Return approved"],
        ["Mark received", "Return marked received"],
        ["Refund", "Return refunded"],
      ] as const) {
        await sellerPage.getByRole("button", { name: button }).click();
        await expect(sellerPage.getByRole("status")).toContainText(notice);
      }
      await buyerPage.reload();
      await expect(buyerPage.locator("[data-return-status]")).toHaveAttribute("data-return-status", "refunded");
      await shots(buyerPage, "orders", "order-refunded");
    } finally {
      await pool.end();
    }
  });
});
