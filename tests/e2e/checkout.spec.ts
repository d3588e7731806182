/**
 * Checkout in a real browser with JavaScript off, at a 390 px phone width: the cart's "Checkout"
 * button, a declined card (the message shows, what was typed stays, the card number does not),
 * then "Place order" and the confirmation page whose heading holds the order number. No page may
 * be wider than the screen. Screenshots go to test-results/screenshots/checkout-*.png.
 *
 * Needs the database (E2E_DATABASE_URL) to pick an offer with stock to spare.
 */
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import pg from "pg";

const SCREENSHOTS = path.join("test-results", "screenshots");
const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function phoneShot(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390 px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, `checkout-${name}-390.png`), fullPage: true });
}

async function offerWithStock(): Promise<string> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `SELECT l.id::text AS id FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
        WHERE l.status = 'active' AND s.status = 'active' AND p.publicly_listed AND l.quantity >= 20
        ORDER BY md5(l.id::text) OFFSET floor(random() * 50)::int LIMIT 1`,
    );
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

test.describe("checkout without JavaScript on a phone", () => {
  test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL");
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("a guest checks out from the cart; a declined card first keeps what was typed", async ({ page, baseURL }) => {
    const listingId = await offerWithStock();
    // The product page's "Add to cart" posts this form; the browser context keeps the cart cookie.
    const added = await page.request.post("/cart/add", {
      form: { listing_id: listingId, quantity: "1" },
      headers: { Origin: baseURL!, "Sec-Fetch-Site": "same-origin" },
      maxRedirects: 0,
    });
    expect(added.status()).toBe(303);

    await page.goto("/cart");
    await page.getByRole("button", { name: "Checkout" }).click();
    await expect(page).toHaveURL(/\/checkout\??$/);
    await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
    await phoneShot(page, "page");

    const form = page.getByRole("form", { name: "Checkout" });
    await form.getByLabel("Email").fill("phone-guest@example.com");
    await form.getByLabel("Full name").fill("Phone Guest");
    await form.getByLabel("Address line 1").fill("9 Narrow Lane");
    await form.getByLabel("City").fill("Springfield");
    await form.getByLabel("State").fill("IL");
    await form.getByLabel("ZIP code").fill("62701");
    await form.getByLabel("Card number").fill("4000 0000 0000 0002");
    await form.getByRole("button", { name: "Place order" }).click();

    await expect(page.getByRole("alert")).toContainText(/declined/i);
    await expect(form.getByLabel("Address line 1")).toHaveValue("9 Narrow Lane");
    await expect(form.getByLabel("Card number")).toHaveValue("");
    await phoneShot(page, "declined");

    await form.getByLabel("Card number").fill("4242 4242 4242 4242");
    await form.getByRole("button", { name: "Place order" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Order M-\d+ placed$/);
    await expect(page.locator("address")).toContainText("9 Narrow Lane");
    await phoneShot(page, "confirmation");
  });
});
