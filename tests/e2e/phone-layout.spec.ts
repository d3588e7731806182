/**
 * The storefront from a phone up (issue 13, items 1 and 8), at 390x844 and 1280x800, with
 * JavaScript on and off: no page is wider than the screen (scrollWidth equals the page's width on
 * every page visited); on the product page the featured offer's and each offer's "Add to cart"
 * sit inside the screen; the search filters open (a <details> disclosure on a phone) and apply;
 * the cart, filled from two stores through the product page's own buttons, shows one parcel per
 * store, the count in the header and a visible total.
 *
 * Every page visited is saved as a full-page screenshot in
 * test-results/screenshots/phone-layout-<page>-<width>[-nojs].png.
 */
import path from "node:path";
import { expect, test, type Locator, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");
/** Four offers from two stores, one of them the buy box (lib/seed/seed.ts). */
const PRODUCT = "fixture-mixed-offers";
const TERM = "headphones";

const main = (page: Page) => page.locator("main").first();

/** The page is exactly as wide as the screen: nothing runs off the right edge. */
async function expectFits(page: Page, width: number) {
  const sizes = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    innerWidth: window.innerWidth,
  }));
  expect(sizes.innerWidth, "viewport").toBe(width);
  expect(sizes.scrollWidth, `${page.url()}: scrollWidth equals the page's width`).toBe(sizes.clientWidth);
}

/** Visible once scrolled to vertically, wholly inside the screen, with no horizontal scroll. */
async function expectReachable(page: Page, locator: Locator, what: string) {
  await locator.scrollIntoViewIfNeeded();
  await expect(locator, what).toBeInViewport();
  const box = (await locator.boundingBox())!;
  const { clientWidth, innerHeight } = await page.evaluate(() => ({
    clientWidth: document.documentElement.clientWidth,
    innerHeight: window.innerHeight,
  }));
  // Half a pixel of slack for sub-pixel layout.
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(clientWidth + 0.5);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(-0.5);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(innerHeight + 0.5);
  expect(await page.evaluate(() => window.scrollX), `${what}: no horizontal scroll`).toBe(0);
}

for (const javaScriptEnabled of [true, false]) {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const phone = viewport.width < 800;
    const suffix = `${viewport.width}${javaScriptEnabled ? "" : "-nojs"}`;
    const shot = (page: Page, name: string) =>
      page.screenshot({ path: path.join(SCREENSHOTS, `phone-layout-${name}-${suffix}.png`), fullPage: true });
    /** Open a page, check it fits the screen, save its screenshot. */
    const visit = async (page: Page, url: string, name: string) => {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(200);
      await expectFits(page, viewport.width);
      await shot(page, name);
    };

    test.describe(`${viewport.width}x${viewport.height}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ viewport, javaScriptEnabled });
      // A form post that does not land where expected fails in seconds, not at the test timeout.
      test.use({ navigationTimeout: 15_000 });

      test("home, category and search fit the screen; the filters open and apply", async ({ page }) => {
        await visit(page, "/", "home");
        const category = await page.locator('main a[href^="/c/"]').first().getAttribute("href");
        expect(category, "a category link on the home page").toBeTruthy();
        await visit(page, category!, "category");

        await visit(page, `/search?q=${TERM}`, "search");
        await expect(main(page)).toHaveAttribute("data-total", /^[1-9]\d*$/);
        const summary = page.locator("details.filters-disclosure > summary");
        const brands = page.locator('section[data-facet="brand"] a[data-facet-value]');
        if (phone) {
          // Closed on a phone: the results come first, the panels one tap away.
          await expect(summary).toHaveText("Filters");
          await expect(brands.first()).toBeHidden();
          await expectReachable(page, page.locator("article[data-product-slug]").first(), "first result");
          await summary.click();
          await expect(brands.first()).toBeVisible();
          await expectFits(page, viewport.width);
          await shot(page, "search-filters-open");
        } else {
          // Wide screens show the panels beside the results, no disclosure to open.
          await expect(summary).toBeHidden();
          await expect(brands.first()).toBeVisible();
        }
        const brand = brands.first();
        const value = (await brand.getAttribute("data-facet-value"))!;
        const count = await brand.getAttribute("data-facet-count");
        await Promise.all([
          page.waitForURL((url) => url.searchParams.getAll("brand").join(",").split(",").includes(value)),
          brand.click(),
        ]);
        await expect(main(page)).toHaveAttribute("data-total", count!);
        await expect(page.locator(`section[data-facet="brand"] a[data-facet-value="${value}"]`)).toHaveAttribute(
          "data-selected",
          "true",
        );
        await expectFits(page, viewport.width);
        await shot(page, "search-filtered");
      });

      test("product page: every Add to cart inside the screen; a cart from two stores shows its total", async ({ page }) => {
        await visit(page, `/p/${PRODUCT}`, "product");
        const buyBoxId = (await main(page).getAttribute("data-buy-box-listing-id"))!;
        expect(buyBoxId).toBeTruthy();
        const featured = page.locator(".buy-box").getByRole("button", { name: "Add to cart" });
        await expectReachable(page, featured, "the featured offer's Add to cart");
        const rows = page.locator("tr[data-listing-id]");
        expect(await rows.count()).toBe(4);
        for (const row of await rows.all()) {
          const id = await row.getAttribute("data-listing-id");
          await expectReachable(page, row.getByRole("button", { name: "Add to cart" }), `Add to cart of offer ${id}`);
          await expectReachable(page, row.locator("td").nth(3), `availability of offer ${id}`);
        }

        // The featured offer from its box, then an in-stock offer of the other store from its row.
        const buyBoxStore = (await page.locator(`tr[data-listing-id="${buyBoxId}"]`).getAttribute("data-store-slug"))!;
        const other = page.locator(`tr[data-in-stock="true"]:not([data-store-slug="${buyBoxStore}"])`).first();
        const otherId = (await other.getAttribute("data-listing-id"))!;
        const otherStore = (await other.getAttribute("data-store-slug"))!;
        await Promise.all([page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "added"), featured.click()]);
        await page.goto(`/p/${PRODUCT}`);
        await Promise.all([
          page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "added"),
          page.locator(`tr[data-listing-id="${otherId}"]`).getByRole("button", { name: "Add to cart" }).click(),
        ]);

        await visit(page, "/cart", "cart");
        await expect(page.locator("[data-cart-store]")).toHaveCount(2);
        await expect(page.locator(`[data-cart-store="${buyBoxStore}"] tr[data-cart-line="${buyBoxId}"]`)).toHaveCount(1);
        await expect(page.locator(`[data-cart-store="${otherStore}"] tr[data-cart-line="${otherId}"]`)).toHaveCount(1);
        const cartLink = page.locator("header").getByRole("link", { name: /^Cart\b/ });
        await expect(cartLink).toHaveText("Cart (2)");
        await expect(cartLink).toHaveAttribute("data-cart-count", "2");
        for (const row of await page.locator("tr[data-cart-line]").all()) {
          await expect(row.locator("img")).toBeVisible();
          await expectReachable(page, row.locator("td.amount"), "a line's Total");
        }
        await expectReachable(page, page.locator("[data-subtotal-cents]"), "the cart's subtotal");
        await expectReachable(page, page.getByRole("button", { name: "Checkout" }), "Checkout");

        // Back on a publicly cached page the header shows no count.
        await visit(page, "/", "home-with-cart");
        await expect(page.locator("header").getByRole("link", { name: /^Cart\b/ })).toHaveText("Cart");
      });
    });
  }
}
