/**
 * Orders after checkout in a real browser, by accessible names: a buyer's order (written as
 * checkout writes it, tests/helpers/orders.ts) is shipped from the seller desk with a tracking
 * number and marked delivered; the buyer finds it under /account/orders, sees the tracking
 * number and asks for a return; the seller approves, receives and refunds it.
 *
 * Every page is saved at 1280 and 390 px wide in test-results/screenshots/orders-*.png, and no
 * page may be wider than a 390 px phone screen.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { createTestOrder } from "../helpers/orders";

const SCREENSHOTS = path.join("test-results", "screenshots");
const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function shots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: path.join(SCREENSHOTS, `orders-${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390 px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, `orders-${name}-390.png`), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function register(page: Page, name: string): Promise<string> {
  const email = `e2e-orders-${randomUUID().slice(0, 8)}@example.com`;
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);
  return email;
}

test.describe("orders", () => {
  test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL to write the order");
  test.use({ navigationTimeout: 15_000 });

  test("seller ships and delivers; buyer tracks it and asks for a return; seller refunds", async ({ browser }) => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 1 });
    try {
      const [store] = (
        await pool.query(`SELECT slug, name FROM stores WHERE status = 'active' AND slug NOT LIKE 'fixture-%' AND slug <> 'thread-and-needle' ORDER BY slug DESC LIMIT 1`)
      ).rows;
      const buyerPage = await (await browser.newContext()).newPage();
      const buyerEmail = await register(buyerPage, "Bea Buyer");
      const sellerPage = await (await browser.newContext()).newPage();
      const sellerEmail = await register(sellerPage, "Sol Seller");
      await pool.query(`INSERT INTO store_owners (store_id, user_id) SELECT s.id, u.id FROM stores s, users u WHERE s.slug = $1 AND u.email = $2`, [store.slug, sellerEmail]);
      await pool.query(`UPDATE users SET role = 'store_owner' WHERE email = $1`, [sellerEmail]);
      const buyerId = (await pool.query(`SELECT id FROM users WHERE email = $1`, [buyerEmail])).rows[0].id;
      const order = await createTestOrder(pool, { userId: buyerId, email: buyerEmail, parts: [{ store: store.slug, lines: [{ quantity: 2 }], shippingCents: 499 }] });

      // The seller desk.
      await sellerPage.goto("/seller");
      await sellerPage.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Orders" }).click();
      await expect(sellerPage.getByRole("heading", { level: 1 })).toHaveText("Orders");
      await shots(sellerPage, "desk");
      await sellerPage.getByRole("link", { name: order.number }).click();
      await expect(sellerPage.getByRole("heading", { level: 1 })).toHaveText(`Order ${order.number}`);
      await expect(sellerPage.getByText(buyerEmail)).toBeVisible();
      await shots(sellerPage, "desk-order");
      await sellerPage.getByLabel("Tracking number").fill("1Z999AA10123456784");
      await sellerPage.getByRole("button", { name: "Mark shipped" }).click();
      await expect(sellerPage.getByRole("status")).toContainText("Marked shipped");
      await sellerPage.getByRole("button", { name: "Mark delivered" }).click();
      await expect(sellerPage.getByRole("status")).toContainText("Marked delivered");

      // The buyer.
      await buyerPage.goto("/account");
      await buyerPage.getByRole("link", { name: "Your orders" }).click();
      await shots(buyerPage, "account-orders");
      await buyerPage.getByRole("link", { name: order.number }).click();
      await expect(buyerPage.getByRole("heading", { level: 1 })).toHaveText(`Order ${order.number}`);
      await expect(buyerPage.locator("dd[data-tracking-number]")).toHaveText("1Z999AA10123456784");
      const title = order.lines[0]!.title;
      await buyerPage.getByLabel(`Quantity to return: ${title}`).fill("1");
      await buyerPage.getByLabel(`Reason: ${title}`).selectOption("damaged");
      await shots(buyerPage, "order-return-form");
      await buyerPage.getByRole("button", { name: "Request return" }).click();
      await expect(buyerPage.getByRole("status")).toContainText("Return requested");

      // The seller's returns.
      await sellerPage.goto("/seller/returns");
      await shots(sellerPage, "desk-returns");
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
      await shots(buyerPage, "order-refunded");
    } finally {
      await pool.end();
    }
  });
});
