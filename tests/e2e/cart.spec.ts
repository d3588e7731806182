/**
 * The cart in a real browser: a cart link minted through the public API (spec 4.4) and opened,
 * then opened again; the cart page's quantity and remove forms; Add to cart on a product page;
 * expired and unknown links. Each test runs in a browser context of its own (Playwright's `page`
 * fixture), so the cart cookie never carries over from one test to another.
 *
 * Expiring a link and reading a stock count need the database: the global setup publishes it in
 * E2E_DATABASE_URL (set it yourself next to E2E_BASE_URL when running against an app that is
 * already up; those tests are skipped without it).
 *
 * Every page visited is saved as a full-page screenshot in test-results/screenshots/cart-*.png.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "./fixtures";
import pg from "pg";

const SCREENSHOTS = path.join("test-results", "screenshots");
const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `cart-${name}.png`), fullPage: true });
}

const main = (page: Page) => page.locator("main").first();
const cartLines = (page: Page) => page.locator("tr[data-cart-line]");
const cartLine = (page: Page, listingId: string) => page.locator(`tr[data-cart-line="${listingId}"]`);

async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh client address per test, so the API's rate-limit buckets are its own. */
function apiHeaders() {
  return { "X-Forwarded-For": `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };
}

interface Offer {
  slug: string;
  title: string;
  listingId: string;
  priceCents: number;
  storeName: string;
  /** The listing's stock count, read from the database. */
  stock: number;
}

/** `n` standing alone: not part of a longer number, a price or a decimal. */
const standalone = (n: number) => new RegExp(`(?<![\\d.,$])${n}(?![\\d.,]\\d|\\d)`);

/**
 * In-stock offers (one per product) of products found through the public search, with at least
 * 10 units in stock, so that quantities of a few units stay available. Their stock count must not
 * read as anything else on a cart page (the product title, the store name, an item count below
 * 10), so that finding it in a page can only mean the count leaked.
 */
async function pickOffers(request: APIRequestContext, headers: Record<string, string>, count: number): Promise<Offer[]> {
  const search = await request.get("/api/public/v1/search?page_size=8", { headers });
  expect(search.status()).toBe(200);
  const slugs: string[] = (await search.json()).data.map((p: any) => p.slug);
  expect(slugs.length).toBeGreaterThanOrEqual(count);
  const products = await Promise.all(
    slugs.map(async (slug) => {
      const res = await request.get(`/api/public/v1/products/${slug}`, { headers });
      expect(res.status(), `GET /products/${slug}`).toBe(200);
      return (await res.json()).data;
    }),
  );
  const offers = products.flatMap((p: any) => {
    const offer = p.offers.find((o: any) => o.in_stock);
    return offer
      ? [{ slug: p.slug, title: p.title, listingId: offer.listing_id, priceCents: offer.price_cents, storeName: offer.store_name }]
      : [];
  });
  const stock = await withDb(async (db) => {
    const { rows } = await db.query<{ id: string; quantity: number }>(
      "SELECT id::text AS id, quantity FROM listings WHERE id = ANY($1::uuid[])",
      [offers.map((o) => o.listingId)],
    );
    return new Map(rows.map((r) => [r.id, r.quantity]));
  });
  const picked = offers
    .map((o) => ({ ...o, stock: stock.get(o.listingId) ?? 0 }))
    .filter((o) => o.stock >= 10 && !standalone(o.stock).test(`${o.title} ${o.storeName}`));
  expect(picked.length, `${count} in-stock offers with 10 or more units`).toBeGreaterThanOrEqual(count);
  return picked.slice(0, count);
}

/** The page's visible text without dates (a <time> may hold any number). */
async function pageText(page: Page): Promise<string> {
  return main(page).evaluate((el) => {
    const copy = el.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("time, script, style").forEach((t) => t.remove());
    return copy.innerText || copy.textContent || "";
  });
}

/** No stock count in the page: neither these listings' counts nor "N left / in stock" wording. */
async function expectNoStockCount(page: Page, offers: Offer[]) {
  const text = await pageText(page);
  for (const offer of offers) {
    expect(text, `stock count of ${offer.slug} (${offer.stock}) in ${page.url()}`).not.toMatch(standalone(offer.stock));
  }
  expect(text).not.toMatch(/\b\d+\s+(left|remaining|in stock|available|units?)\b/i);
  expect(text).not.toMatch(/\b(only|stock:?)\s+\d+\b/i);
}

async function mintLink(request: APIRequestContext, items: Array<{ listing_id: string; quantity: number }>) {
  const res = await request.post("/api/public/v1/cart-links", { data: { items }, headers: apiHeaders() });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body)).toBe(200);
  expect(body.data.accepted).toBe(items.length);
  expect(body.data.rejected).toEqual([]);
  const url = new URL(body.data.url);
  expect(url.pathname).toMatch(/^\/cart\/l\/[A-Za-z0-9_-]{43}$/);
  // The path only: the app may be reached at another address than its PUBLIC_BASE_URL.
  return { path: url.pathname, token: url.pathname.split("/").pop()!, expiresAt: body.data.expires_at as string };
}

/** Lines shown with the expected quantities, and a subtotal of price × quantity over them. */
async function expectCart(page: Page, lines: Array<{ offer: Offer; quantity: number }>) {
  await expect(cartLines(page)).toHaveCount(lines.length);
  for (const { offer, quantity } of lines) {
    const row = cartLine(page, offer.listingId);
    await expect(row).toHaveAttribute("data-quantity", String(quantity));
    await expect(row).toHaveAttribute("data-price-cents", String(offer.priceCents));
    await expect(row).toHaveAttribute("data-status", "in_stock");
    await expect(row.locator("input[name=quantity]")).toHaveValue(String(quantity));
    await expect(row.getByRole("link", { name: offer.title })).toBeVisible();
  }
  const subtotal = lines.reduce((sum, l) => sum + l.offer.priceCents * l.quantity, 0);
  const items = lines.reduce((sum, l) => sum + l.quantity, 0);
  const total = page.locator("[data-subtotal-cents]");
  await expect(total).toHaveAttribute("data-subtotal-cents", String(subtotal));
  await expect(total).toHaveText(formatUsd(subtotal));
  await expect(page.locator(".cart-total")).toContainText(`(${items} ${items === 1 ? "item" : "items"})`);
}

function formatUsd(cents: number): string {
  return `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

test.describe("cart", () => {
  test.skip(!DATABASE_URL, "E2E_DATABASE_URL is not set (the global setup sets it when it starts the app)");
  // A form post that does not land where expected fails in seconds, not at the test timeout.
  test.use({ navigationTimeout: 15_000 });

  test("cart link: open, open again, then change and remove lines on /cart", async ({ page, request }) => {
    const [a, b] = await pickOffers(request, apiHeaders(), 2);
    const link = await mintLink(request, [
      { listing_id: a!.listingId, quantity: 2 },
      { listing_id: b!.listingId, quantity: 3 },
    ]);
    const offers = [a!, b!];

    // First open: the link's lines go into a new cart.
    const res = await page.goto(link.path);
    expect(res?.status()).toBe(200);
    await expect(main(page)).toHaveAttribute("data-cart-link-state", "opened");
    await expect(main(page)).toHaveAttribute("data-first-open", "true");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Added to your cart");
    await expect(page.locator("[data-link-changes]")).toHaveCount(0);
    await expectCart(page, [
      { offer: a!, quantity: 2 },
      { offer: b!, quantity: 3 },
    ]);
    await expectNoStockCount(page, offers);
    await shot(page, "link-opened");

    // Second open: recognised, nothing doubles.
    await page.goto(link.path);
    await expect(main(page)).toHaveAttribute("data-cart-link-state", "opened");
    await expect(main(page)).toHaveAttribute("data-first-open", "false");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Already in your cart");
    await expectCart(page, [
      { offer: a!, quantity: 2 },
      { offer: b!, quantity: 3 },
    ]);
    await expectNoStockCount(page, offers);
    await shot(page, "link-reopened");

    // The header's Cart link shows the same cart.
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart"),
      page.locator("header").getByRole("link", { name: "Cart", exact: true }).click(),
    ]);
    await expect(main(page)).toHaveAttribute("data-page", "cart");
    await expect(page.locator("[data-notice]")).toHaveCount(0);
    await expectCart(page, [
      { offer: a!, quantity: 2 },
      { offer: b!, quantity: 3 },
    ]);
    await expectNoStockCount(page, offers);
    await shot(page, "page");

    // Change a quantity through the form.
    const rowB = cartLine(page, b!.listingId);
    await rowB.locator("input[name=quantity]").fill("4");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "updated"),
      rowB.getByRole("button", { name: "Update" }).click(),
    ]);
    await expect(page.locator('[data-notice="updated"]')).toHaveText("Quantity updated.");
    await expectCart(page, [
      { offer: a!, quantity: 2 },
      { offer: b!, quantity: 4 },
    ]);
    await expectNoStockCount(page, offers);
    await shot(page, "updated");

    // Remove a line.
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "removed"),
      cartLine(page, a!.listingId).getByRole("button", { name: "Remove" }).click(),
    ]);
    await expect(page.locator('[data-notice="removed"]')).toHaveText("Removed from your cart.");
    await expect(cartLine(page, a!.listingId)).toHaveCount(0);
    await expectCart(page, [{ offer: b!, quantity: 4 }]);
    await expectNoStockCount(page, offers);
    await shot(page, "removed");
  });

  test("the quantity form on the cart link page itself works", async ({ page, request }) => {
    // The link page is served with Referrer-Policy: no-referrer, so its posts carry `Origin: null`.
    const [offer] = await pickOffers(request, apiHeaders(), 1);
    const link = await mintLink(request, [{ listing_id: offer!.listingId, quantity: 1 }]);
    await page.goto(link.path);
    await expect(main(page)).toHaveAttribute("data-first-open", "true");
    const row = cartLine(page, offer!.listingId);
    await row.locator("input[name=quantity]").fill("2");
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "updated"),
      row.getByRole("button", { name: "Update" }).click(),
    ]);
    await expectCart(page, [{ offer: offer!, quantity: 2 }]);
    await shot(page, "link-page-updated");
  });

  test("Add to cart on a product page lands on /cart with the line", async ({ page, request }) => {
    const [offer] = await pickOffers(request, apiHeaders(), 1);
    await page.goto(`/p/${offer!.slug}`);
    await expect(main(page)).toHaveAttribute("data-page", "product");
    const row = page.locator(`tr[data-listing-id="${offer!.listingId}"]`);
    await expect(row).toHaveAttribute("data-in-stock", "true");
    // Where a stock count would be shown: the buy box and the offers table.
    for (const part of [page.locator(".buy-box"), page.locator("table").first()]) {
      await expect(part).not.toContainText(standalone(offer!.stock));
    }
    await shot(page, "product");

    await Promise.all([
      page.waitForURL((url) => url.pathname === "/cart" && url.searchParams.get("notice") === "added"),
      row.getByRole("button", { name: "Add to cart" }).click(),
    ]);
    await expect(main(page)).toHaveAttribute("data-page", "cart");
    await expect(page.locator('[data-notice="added"]')).toHaveText("Added to your cart.");
    await expectCart(page, [{ offer: offer!, quantity: 1 }]);
    await expectNoStockCount(page, [offer!]);
    await shot(page, "added");
  });

  test("an expired link and an unknown link add nothing", async ({ page, request }) => {
    const [offer] = await pickOffers(request, apiHeaders(), 1);
    const link = await mintLink(request, [{ listing_id: offer!.listingId, quantity: 1 }]);
    const tokenHash = createHash("sha256").update(link.token).digest();
    const updated = await withDb((db) =>
      db.query("UPDATE cart_links SET expires_at = now() - interval '1 hour' WHERE token_hash = $1", [tokenHash]),
    );
    expect(updated.rowCount, "the minted link is in the database").toBe(1);

    const res = await page.goto(link.path);
    expect(res?.status()).toBe(200);
    await expect(main(page)).toHaveAttribute("data-cart-link-state", "expired");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This cart link has expired");
    await expect(main(page)).toContainText("Nothing was added to your cart.");
    await expect(cartLines(page)).toHaveCount(0);
    await shot(page, "link-expired");

    await page.goto(`/cart/l/${randomBytes(32).toString("base64url")}`);
    await expect(main(page)).toHaveAttribute("data-cart-link-state", "not_found");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cart link not found");
    await shot(page, "link-not-found");

    await page.goto("/cart");
    await expect(page.locator("[data-cart-empty]")).toBeVisible();
    await expect(cartLines(page)).toHaveCount(0);
    await shot(page, "empty");
  });
});
