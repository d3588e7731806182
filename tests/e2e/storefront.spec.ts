/**
 * The storefront in a real browser (Debian's chromium), through the markup hooks of
 * docs/storefront-markup.md: search, facets, sort, product page with offers and buy box, the
 * 404 page, help; keyboard focus (the search box, facet entries drawn as checkboxes at 390 and
 * 1280 px); and the same journey with JavaScript disabled.
 *
 * Every page visited is saved as a full-page screenshot in test-results/screenshots/<name>.png.
 */
import path from "node:path";
import { expect, test, type Locator, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");
const TERM = "headphones";

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

const main = (page: Page) => page.locator("main").first();
const cards = (page: Page) => page.locator("article[data-product-slug]");
const searchInput = (page: Page) => page.locator("form[role=search] input[name=q]").first();

async function intAttr(locator: Locator, name: string): Promise<number> {
  const value = await locator.getAttribute(name);
  expect(value, `${name} should be present`).not.toBeNull();
  expect(value, `${name} should be an integer`).toMatch(/^\d+$/);
  return Number(value);
}

/** A brand facet entry that is not selected yet and narrows the results (count < total). */
async function pickBrand(page: Page) {
  const total = await intAttr(main(page), "data-total");
  const links = page.locator('section[data-facet="brand"] a[data-facet-value]');
  const n = await links.count();
  expect(n, "brand facet entries").toBeGreaterThan(0);
  let chosen: Locator | undefined;
  for (let i = 0; i < n; i++) {
    const link = links.nth(i);
    if ((await link.getAttribute("data-selected")) === "true") continue;
    chosen ??= link;
    if ((await intAttr(link, "data-facet-count")) < total) {
      chosen = link;
      break;
    }
  }
  expect(chosen, "an unselected brand entry").toBeDefined();
  return {
    link: chosen!,
    value: (await chosen!.getAttribute("data-facet-value"))!,
    count: await intAttr(chosen!, "data-facet-count"),
  };
}

async function cardPrices(page: Page): Promise<number[]> {
  const values = await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-min-price-cents")));
  return values.map((v) => Number(v));
}

/** Tab from the top of the page until `target` has focus (at most `limit` presses). */
async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  let reached = false;
  for (let i = 0; i < limit && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await target.evaluate((el) => el === document.activeElement);
  }
  expect(reached, "reachable with Tab").toBe(true);
}

/** The focused element shows a visible focus indicator: a drawn outline or a box shadow. */
async function expectFocusRing(target: Locator): Promise<void> {
  const style = await target.evaluate((el) => {
    const s = getComputedStyle(el);
    return { outlineStyle: s.outlineStyle, outlineWidth: s.outlineWidth, boxShadow: s.boxShadow, focusVisible: el.matches(":focus-visible") };
  });
  expect(style.focusVisible).toBe(true);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow !== "none" && style.boxShadow !== "";
  expect(outline || shadow, `focus indicator (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})`).toBe(true);
}

test.describe("storefront", () => {
  test("search, brand facet, sort, open a product", async ({ page }) => {
    await page.goto("/search");
    await expect(main(page)).toHaveAttribute("data-page", "search");
    await shot(page, "search-all");

    // Search from the search box.
    await searchInput(page).fill(TERM);
    await Promise.all([page.waitForURL(/\/search\?(.*&)?q=headphones/), searchInput(page).press("Enter")]);
    await expect(main(page)).toHaveAttribute("data-total", /^[1-9]\d*$/);
    await expect(cards(page).first()).toBeVisible();
    expect(await cards(page).count()).toBeGreaterThan(0);
    await shot(page, "search-results");

    // A brand facet narrows the results to exactly its count.
    const brand = await pickBrand(page);
    await Promise.all([
      page.waitForURL((url) => url.searchParams.getAll("brand").join(",").split(",").includes(brand.value)),
      brand.link.click(),
    ]);
    expect(new URL(page.url()).searchParams.get("q")).toBe(TERM);
    await expect(main(page)).toHaveAttribute("data-total", String(brand.count));
    await expect(
      page.locator(`section[data-facet="brand"] a[data-facet-value="${brand.value}"]`),
    ).toHaveAttribute("data-selected", "true");
    await shot(page, "search-brand-facet");

    // Sort by price, low to high: the form may submit on change (with JavaScript) or need its button.
    const sortForm = page.locator("form[data-sort-form]");
    await sortForm.locator("select[name=sort]").selectOption("price_asc");
    const sorted = (url: URL) => url.searchParams.get("sort") === "price_asc";
    const autoSubmitted = await page
      .waitForURL(sorted, { timeout: 2_000 })
      .then(() => true)
      .catch(() => false);
    if (!autoSubmitted) {
      await Promise.all([
        page.waitForURL(sorted),
        sortForm.locator('button[type=submit], input[type=submit], button:not([type])').first().click(),
      ]);
    }
    await expect(main(page)).toHaveAttribute("data-total", String(brand.count));
    const url = new URL(page.url());
    expect(url.searchParams.get("q"), "the sort form keeps q").toBe(TERM);
    expect(url.searchParams.getAll("brand").join(","), "the sort form keeps brand").toContain(brand.value);
    const prices = await cardPrices(page);
    expect(prices.length).toBeGreaterThan(0);
    expect(prices, "cards ordered by price, low to high").toEqual([...prices].sort((a, b) => a - b));
    await shot(page, "search-sorted");

    // Open the first product.
    const first = cards(page).first();
    const slug = (await first.getAttribute("data-product-slug"))!;
    await Promise.all([page.waitForURL(new RegExp(`/p/${slug}$`)), first.locator(`a[href$="/p/${slug}"]`).first().click()]);
    await expect(main(page)).toHaveAttribute("data-page", "product");
    await expect(main(page)).toHaveAttribute("data-product-slug", slug);
    const rows = page.locator("tr[data-listing-id]");
    expect(await rows.count(), "offer rows").toBeGreaterThan(0);
    expect(await page.locator('tr[data-listing-id][data-buy-box="true"]').count()).toBeLessThanOrEqual(1);
    await shot(page, "product-from-search");
  });

  test("product page: offers table with exactly one buy-box row", async ({ page }) => {
    const res = await page.goto("/p/fixture-mixed-offers");
    expect(res?.status()).toBe(200);
    await expect(main(page)).toHaveAttribute("data-product-slug", "fixture-mixed-offers");
    const rows = page.locator("tr[data-listing-id]");
    await expect(rows).toHaveCount(4);
    const buyBox = page.locator('tr[data-listing-id][data-buy-box="true"]');
    await expect(buyBox).toHaveCount(1);
    const buyBoxId = await main(page).getAttribute("data-buy-box-listing-id");
    expect(buyBoxId).toBeTruthy();
    await expect(buyBox).toHaveAttribute("data-listing-id", buyBoxId!);
    // Cheapest first (spec): 6000, 7000, 9800, 10000; the buy box is store A's new offer.
    const prices = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-price-cents"))));
    expect(prices).toEqual([6000, 7000, 9800, 10000]);
    await expect(buyBox).toHaveAttribute("data-price-cents", "10000");
    await expect(buyBox).toHaveAttribute("data-condition", "new");
    await expect(buyBox).toHaveAttribute("data-store-slug", "fixture-store-a");
    await shot(page, "product-mixed-offers");
  });

  test("an unlisted product answers 404 with the not-found page", async ({ page }) => {
    const res = await page.goto("/p/fixture-unlisted");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: /not found/i }).first()).toBeVisible();
    await expect(page.locator("tr[data-listing-id]")).toHaveCount(0);
    await shot(page, "product-not-found");
  });

  test("help center and a help article", async ({ page }) => {
    const res = await page.goto("/help");
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading").first()).toBeVisible();
    await shot(page, "help");
    const article = page.locator('main a[href^="/help/"]').first();
    await expect(article).toBeVisible();
    const href = (await article.getAttribute("href"))!;
    await Promise.all([page.waitForURL((url) => url.pathname === href.split(/[?#]/)[0]), article.click()]);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    expect((await main(page).innerText()).length).toBeGreaterThan(200);
    await shot(page, `help-${href.split("/").pop()}`);
    const missing = await page.goto("/help/no-such-article");
    expect(missing?.status()).toBe(404);
  });

  test("keyboard: Tab reaches the search box, which shows a visible focus indicator", async ({ page }) => {
    await page.goto("/search");
    const input = searchInput(page);
    await tabTo(page, input);
    await expectFocusRing(input);
    await shot(page, "keyboard-focus-search");
    // And the search runs from the keyboard.
    await page.keyboard.type(TERM);
    await Promise.all([page.waitForURL(/q=headphones/), page.keyboard.press("Enter")]);
    expect(await cards(page).count()).toBeGreaterThan(0);
  });
});

test.describe("facet entries", () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`at ${viewport.width} px: each looks like a checkbox, shows a focus ring from the keyboard, and Enter applies it`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`/search?q=${TERM}`);
      // A phone shows the panels behind "Filters", opened from the keyboard too.
      const filters = page.locator("details.filters-disclosure > summary");
      const openFilters = async () => {
        if (!(await filters.isVisible())) return;
        await tabTo(page, filters, 200);
        await page.keyboard.press("Enter");
      };
      await openFilters();
      const { link, value } = await pickBrand(page);
      // A box is drawn before the label: empty while unselected, ticked once selected.
      const box = (entry: Locator) =>
        entry.locator(".box").evaluate((el) => {
          const s = getComputedStyle(el, "::before");
          return { width: parseFloat(s.width), border: s.borderTopStyle, content: s.content };
        });
      const before = await box(link);
      expect(before.width).toBeGreaterThan(10);
      expect(before.border).toBe("solid");
      expect(before.content).toBe('""');
      await tabTo(page, link, 200);
      await expectFocusRing(link);
      await shot(page, `facet-focus-${viewport.width}`);
      await Promise.all([page.waitForURL(/brand=/), page.keyboard.press("Enter")]);
      const selected = page.locator(`section[data-facet="brand"] a[data-facet-value="${value}"]`);
      await expect(selected).toHaveAttribute("data-selected", "true");
      expect((await box(selected)).content).toBe('"✓"');
      await openFilters();
      await shot(page, `facet-selected-${viewport.width}`);
    });
  }
});

test.describe("how the search read the words", () => {
  test("a misspelt word: 'Showing results for', 'Search instead for', then suggestions on the empty page", async ({ page }) => {
    await page.goto("/");
    await searchInput(page).fill("wireless headphnes");
    await Promise.all([page.waitForURL(/\/search\?(.*&)?q=wireless/), searchInput(page).press("Enter")]);
    const notice = page.locator("[data-query-notice=corrected]");
    await expect(notice).toContainText("Showing results for wireless headphones.");
    expect(await cards(page).count()).toBeGreaterThan(0);
    await expect(searchInput(page), "the header box keeps the words as typed").toHaveValue("wireless headphnes");
    await shot(page, "search-corrected");

    const instead = notice.getByRole("link", { name: "Search instead for “wireless headphnes”" });
    await Promise.all([page.waitForURL((url) => url.searchParams.get("exact") === "1"), instead.click()]);
    await expect(main(page)).toHaveAttribute("data-total", "0");
    await expect(page.locator("[data-query-notice]")).toHaveCount(0);
    const suggestions = page.getByRole("region", { name: "Try instead" });
    await expect(suggestions).toBeVisible();
    await shot(page, "search-exact-empty");

    await Promise.all([page.waitForURL(/q=headphones/), suggestions.getByRole("link", { name: "headphones", exact: true }).click()]);
    expect(await cards(page).count()).toBeGreaterThan(0);
    await expect(page.locator("[data-query-notice]")).toHaveCount(0);
  });

  test("words no product has together: the relaxed notice above results", async ({ page }) => {
    await page.goto("/search?q=Quokkaphone+headphones");
    await expect(page.locator("[data-query-notice=relaxed]")).toContainText("No product matches every word");
    await expect(cards(page).first()).toHaveAttribute("data-product-slug", /^fixture-/);
    await shot(page, "search-relaxed");
  });
});

test.describe("storefront without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search, facet, sort and paging work through plain links and forms", async ({ page }) => {
    await page.goto("/search");
    await searchInput(page).fill(TERM);
    await Promise.all([page.waitForURL(/\/search\?(.*&)?q=headphones/), searchInput(page).press("Enter")]);
    expect(await cards(page).count()).toBeGreaterThan(0);
    await shot(page, "nojs-search-results");

    const brand = await pickBrand(page);
    const href = await brand.link.getAttribute("href");
    expect(href, "facet entries are plain links").toBeTruthy();
    await Promise.all([page.waitForURL(/brand=/), brand.link.click()]);
    await expect(main(page)).toHaveAttribute("data-total", String(brand.count));
    await shot(page, "nojs-brand-facet");

    const sortForm = page.locator("form[data-sort-form]");
    await sortForm.locator("select[name=sort]").selectOption("price_desc");
    await Promise.all([
      page.waitForURL((url) => url.searchParams.get("sort") === "price_desc"),
      sortForm.locator('button[type=submit], input[type=submit], button:not([type])').first().click(),
    ]);
    await expect(main(page)).toHaveAttribute("data-total", String(brand.count));
    const prices = await cardPrices(page);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    await shot(page, "nojs-sorted");

    // Paging through the whole catalog with rel=next.
    await page.goto("/search?page_size=5");
    const next = page.locator("nav[data-pagination] a[rel=next]");
    await expect(next).toBeVisible();
    await Promise.all([page.waitForURL((url) => url.searchParams.get("page") === "2"), next.click()]);
    await expect(main(page)).toHaveAttribute("data-page-number", "2");
    await expect(cards(page)).toHaveCount(5);
    await expect(page.locator("nav[data-pagination] a[rel=prev]")).toBeVisible();
    await shot(page, "nojs-page-2");
  });
});
