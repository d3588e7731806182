/**
 * The storefront with JavaScript off (issue 13, item 5): every storefront page kind that
 * tests/e2e/phone-layout.spec.ts and tests/e2e/accessibility.spec.ts visit, opened with the
 * browser's JavaScript disabled, shows its main heading and message from the server's HTML alone,
 * and answers the status it should: 200, or 404 for an unknown product, category, store, help
 * article and a URL no route matches (each with the site header's search box, so the visitor can
 * go on). Forms and links work without scripts: a filter, the category drill-down, adding to the
 * cart, signing in.
 *
 * Every page is saved at 390x844 and 1280x800 in test-results/screenshots/nojs-<page>-<width>.png.
 */
import { randomInt } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const PRODUCT = "fixture-mixed-offers";
const TERM = "headphones";

const heading = (page: Page) => page.locator("main").first().getByRole("heading", { level: 1 });

/** The page's main heading is shown (as `text` when given) at both widths; one screenshot each. */
async function expectShown(page: Page, name: string, text?: string | RegExp) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await expect(heading(page), `${name} at ${viewport.width} px`).toBeVisible();
    if (text !== undefined) await expect(heading(page)).toHaveText(text);
    else await expect(heading(page)).not.toBeEmpty();
    await page.screenshot({ path: path.join(SCREENSHOTS, `nojs-${name}-${viewport.width}.png`), fullPage: true });
  }
}

async function visit(page: Page, url: string, name: string, text?: string | RegExp, status = 200) {
  const res = await page.goto(url);
  expect(res?.status(), url).toBe(status);
  await expectShown(page, name, text);
}

test.describe("JavaScript off", () => {
  test.use({ javaScriptEnabled: false, navigationTimeout: 15_000 });

  test("the scripts are really off: Next's client runtime never starts", async ({ page }) => {
    await page.goto("/");
    expect(await page.evaluate(() => "next" in window)).toBe(false);
  });

  test("home, category, search with a filter and the category drill-down, product, store, help", async ({ page }) => {
    await visit(page, "/", "home", "Find it, compare sellers, buy with confidence");
    const category = await page.locator('main a[href^="/c/"]').first().getAttribute("href");
    expect(category, "a category link on the home page").toBeTruthy();
    await visit(page, category!, "category");

    await visit(page, `/search?q=${TERM}`, "search", `Results for “${TERM}”`);
    await expect(page.locator("main").first()).toHaveAttribute("data-total", /^[1-9]\d*$/);
    // A filter is a plain link (on a phone inside the <details> disclosure, which opens without scripts).
    await page.setViewportSize(VIEWPORTS[0]);
    await page.locator("details.filters-disclosure > summary").click();
    const brand = page.locator('section[data-facet="brand"] a[data-facet-value]').first();
    const count = (await brand.getAttribute("data-facet-count"))!;
    await Promise.all([page.waitForURL((url) => url.searchParams.has("brand")), brand.click()]);
    await expect(page.locator("main").first()).toHaveAttribute("data-total", count);
    await expectShown(page, "search-filtered", `Results for “${TERM}”`);

    // Every result in one subcategory: the drill-down names it and narrows to a child.
    await page.goto(`/search?q=${TERM}`);
    const drilldown = page.getByRole("navigation", { name: "Narrow by category" });
    await expect(drilldown).toBeVisible();
    await expect(drilldown).toContainText(/results are in .+›/);
    const child = drilldown.locator("a[data-drilldown-value]").first();
    const value = (await child.getAttribute("data-drilldown-value"))!;
    const childCount = (await child.getAttribute("data-drilldown-count"))!;
    await Promise.all([page.waitForURL((url) => url.searchParams.get("category") === value), child.click()]);
    await expect(page.locator("main").first()).toHaveAttribute("data-total", childCount);
    await expectShown(page, "search-drilldown", `Results for “${TERM}”`);

    await visit(page, "/search?q=zzqxnothingmatches", "search-empty");
    await expect(page.locator("main").first()).toContainText("No products match.");

    await visit(page, `/p/${PRODUCT}`, "product");
    await expect(page.locator(".buy-box").getByRole("button", { name: "Add to cart" })).toBeVisible();
    const store = await page.locator('main a[href^="/s/"]').first().getAttribute("href");
    await visit(page, store!, "store");

    await visit(page, "/help", "help", "Help center");
    const article = await page.locator('main a[href^="/help/"]').first().getAttribute("href");
    await visit(page, article!, "help-article");
  });

  test("not-found pages: 404, the message and the site's search box", async ({ page }) => {
    const missing = [
      ["/p/no-such-product-e2e", "notfound-product"],
      ["/c/no_such_category_e2e", "notfound-category"],
      ["/s/no-such-store-e2e", "notfound-store"],
      ["/help/no-such-article-e2e", "notfound-help"],
      ["/no/such/page-e2e", "notfound-unmatched"],
    ] as const;
    for (const [url, name] of missing) {
      await visit(page, url, name, "Page not found", 404);
      await expect(page.locator("main").first()).toContainText("This page does not exist, or the product is no longer listed.");
      await expect(page.locator("header").getByRole("search", { name: "Site search" })).toBeVisible();
      await expect(page.locator("main").getByRole("link", { name: "Search products" })).toBeVisible();
    }
    // The search box works from there.
    const search = page.locator("header").getByRole("search", { name: "Site search" });
    await search.getByRole("searchbox").fill(TERM);
    await Promise.all([page.waitForURL((url) => url.pathname === "/search"), search.getByRole("button", { name: "Search" }).click()]);
    await expect(heading(page)).toHaveText(`Results for “${TERM}”`);
  });

  test("cart, a cart link, checkout, sign-in, register and the shopper's account", async ({ page, request }) => {
    await visit(page, "/cart", "cart-empty", "Your cart");
    await page.goto(`/p/${PRODUCT}`);
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart"),
      page.locator(".buy-box").getByRole("button", { name: "Add to cart" }).click(),
    ]);
    await expectShown(page, "cart", "Your cart");
    await expect(page.locator("tr[data-cart-line]")).toHaveCount(1);
    await visit(page, "/checkout", "checkout-guest", "Checkout");

    const apiHeaders = { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
    const product = await (await request.get(`/api/public/v1/products/${PRODUCT}`, { headers: apiHeaders })).json();
    const offer = product.data.offers.find((o: { in_stock: boolean }) => o.in_stock);
    const res = await request.post("/api/public/v1/cart-links", {
      data: { items: [{ listing_id: offer.listing_id, quantity: 1 }] },
      headers: apiHeaders,
    });
    expect(res.status()).toBe(200);
    await visit(page, new URL((await res.json()).data.url).pathname, "cart-link", /^(Added to|Already in) your cart$/);
    await visit(page, "/cart/l/not-a-real-token", "cart-link-unknown", "Cart link not found");

    await visit(page, "/register", "register", "Create an account");
    await visit(page, "/signin", "signin", "Sign in");
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Email").fill("demo-shopper@example.com");
    await form.getByLabel("Password").fill("demo-password");
    await Promise.all([page.waitForURL("**/account"), form.getByRole("button", { name: "Sign in" }).click()]);
    await expectShown(page, "account", "Your account");
    await visit(page, "/account/orders", "account-orders", "Your orders");
    await visit(page, "/account/agents", "account-agents", "Agents");
  });
});
