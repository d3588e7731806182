/**
 * Offers that explain themselves, and a checkout that keeps what was typed, at a phone (390 × 844)
 * and a desktop (1280 × 800) size: every offer of a product page shows its shipping to the US (and
 * free-over threshold), its delivery estimate (handling + transit days) and the return window, the
 * figures the database's rates give; the featured offer says why it is featured; the cart and
 * checkout show each store's terms; checkout's test-mode note names cards that really are approved
 * and declined; typed fields survive a reload (with JavaScript as typed, without it through "Save
 * details for later"), the card number never. Screenshots: test-results/screenshots/offers-*.png.
 *
 * Needs the database (E2E_DATABASE_URL) to pick a product with several offers and read their rates.
 */
import pg from "pg";
import { expect, shots, test, type Page } from "./fixtures";

const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A product with at least two offers in stock, rates with a free-over threshold first. */
async function productWithOffers(): Promise<string> {
  const [row] = await query<{ slug: string }>(
    `SELECT p.slug FROM products p
       JOIN listings l ON l.product_id = p.id JOIN stores s ON s.id = l.store_id
       LEFT JOIN shipping_rates r ON r.template_id = l.shipping_template_id AND r.service = 'standard' AND r.region IN ('US', '*')
      WHERE p.publicly_listed AND l.status = 'active' AND s.status = 'active' AND l.quantity >= 5
      GROUP BY p.slug
     HAVING count(DISTINCT l.id) >= 2
      ORDER BY bool_or(r.free_over_cents IS NOT NULL) DESC, count(DISTINCT l.id) DESC, p.slug LIMIT 1`,
  );
  return row!.slug;
}

interface Expected {
  shipping_cents: number;
  free_over_cents: number | null;
  min_days: number | null;
  max_days: number | null;
}

/** Each offer's figures bought alone, straight from its rate (decisions.md: the US, else `*`, standard rate). */
async function expectedTerms(slug: string): Promise<Map<string, Expected>> {
  const rows = await query<{ id: string; price_cents: number; rate: number | null; free_over: number | null; handling: number | null; min_days: number | null; max_days: number | null }>(
    `SELECT l.id::text AS id, l.price_cents, r.price_cents AS rate, r.free_over_cents AS free_over, t.handling_days AS handling, r.min_days, r.max_days
       FROM listings l JOIN products p ON p.id = l.product_id
       LEFT JOIN shipping_templates t ON t.id = l.shipping_template_id
       LEFT JOIN LATERAL (SELECT * FROM shipping_rates sr WHERE sr.template_id = t.id AND sr.service = 'standard' AND sr.region IN ('US', '*')
                          ORDER BY sr.region = 'US' DESC LIMIT 1) r ON true
      WHERE p.slug = $1`,
    [slug],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        shipping_cents: r.rate === null || (r.free_over !== null && r.price_cents >= r.free_over) ? 0 : r.rate,
        free_over_cents: r.free_over,
        min_days: r.rate === null ? null : r.handling! + r.min_days!,
        max_days: r.rate === null ? null : r.handling! + r.max_days!,
      },
    ]),
  );
}

async function addToCart(page: Page, baseURL: string, listingId: string) {
  const added = await page.request.post("/cart/add", {
    form: { listing_id: listingId, quantity: "1" },
    headers: { Origin: baseURL, "Sec-Fetch-Site": "same-origin" },
    maxRedirects: 0,
  });
  expect(added.status()).toBe(303);
}

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const GUEST = { Email: "offers-guest@example.com", "Full name": "Offer Guest", "Address line 1": "12 Clear Street", City: "Portland", State: "OR", "ZIP code": "97201" };

for (const size of SIZES) {
  test.describe(`offers and checkout at ${size.width} × ${size.height}`, () => {
    test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL");
    test.use({ viewport: { width: size.width, height: size.height } });

    test("every offer shows shipping, estimate and returns; the featured one says why", async ({ page }) => {
      const slug = await productWithOffers();
      const expected = await expectedTerms(slug);
      await page.goto(`/p/${slug}`);
      const rows = page.locator("table.offers tbody tr[data-listing-id]");
      const n = await rows.count();
      expect(n).toBeGreaterThanOrEqual(2);
      for (let i = 0; i < n; i++) {
        const row = rows.nth(i);
        const want = expected.get((await row.getAttribute("data-listing-id"))!)!;
        const terms = row.locator("[data-parcel-terms]");
        await expect(terms).toBeVisible();
        await expect(terms).toHaveAttribute("data-shipping-cents", String(want.shipping_cents));
        await expect(terms).toHaveAttribute("data-free-over-cents", want.free_over_cents === null ? "" : String(want.free_over_cents));
        await expect(terms).toHaveAttribute("data-delivery-min-days", want.min_days === null ? "" : String(want.min_days));
        await expect(terms).toHaveAttribute("data-delivery-max-days", want.max_days === null ? "" : String(want.max_days));
        await expect(terms.locator("[data-term=shipping]")).toHaveText(want.shipping_cents === 0 ? /^Free shipping to the US/ : /^Shipping to the US: \$\d+\.\d\d/);
        if (want.free_over_cents !== null) await expect(terms.locator("[data-term=shipping]")).toContainText(/free over \$\d/);
        await expect(terms.locator("[data-term=delivery]")).toHaveText(want.min_days === null ? "No delivery estimate" : new RegExp(`^Arrives in ${want.min_days}(–${want.max_days})? business day`));
        await expect(terms.locator("[data-term=returns]")).toHaveText("Returns within 30 days of delivery");
      }
      const buyBox = page.locator("section.buy-box");
      await expect(buyBox.locator("[data-buy-box-reason]")).toHaveText(/^Why this offer: the lowest price with shipping to the US among (new offers in stock|offers in stock)/);
      await expect(buyBox.locator("[data-parcel-terms]")).toBeVisible();
      await shots(page, "offers", `product-${size.name}`);
    });

    test("cart and checkout show each store's terms and the test cards; typed fields survive a reload, the card number does not", async ({ page, baseURL }) => {
      const slug = await productWithOffers();
      await page.goto(`/p/${slug}`);
      const listingId = (await page.locator("table.offers tbody tr[data-in-stock=true]").first().getAttribute("data-listing-id"))!;
      await addToCart(page, baseURL!, listingId);

      await page.goto("/cart");
      await expect(page.locator("[data-cart-store] [data-parcel-terms]").first()).toContainText(/Arrives in|No delivery estimate/);
      await expect(page.locator("[data-cart-store] [data-parcel-terms]").first()).toContainText("Returns within 30 days of delivery");
      await page.getByRole("button", { name: "Checkout" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
      await expect(page.locator("[data-store] [data-parcel-terms]").first()).toContainText("Returns within 30 days of delivery");

      const note = page.locator("[data-test-mode]");
      await expect(note).toBeVisible();
      const approved = (await note.locator("[data-test-card=approved]").textContent())!;
      const declined = (await note.locator("[data-test-card=declined]").textContent())!;
      expect(approved.replace(/\s/g, "")).toMatch(/^\d{16}$/);
      expect(declined.replace(/\s/g, "")).toMatch(/0002$/);

      const form = page.getByRole("form", { name: "Checkout" });
      await expect(form.getByLabel("Address line 1")).toHaveAttribute("autocomplete", "shipping address-line1");
      await expect(form.getByLabel("ZIP code")).toHaveAttribute("autocomplete", "shipping postal-code");
      await expect(form.getByLabel("Email")).toHaveAttribute("autocomplete", "email");
      await expect(form.getByLabel("Card number")).toHaveAttribute("autocomplete", "cc-number");
      for (const [label, value] of Object.entries(GUEST)) {
        if (label === "ZIP code") continue;
        await form.getByLabel(label, { exact: true }).fill(value);
      }
      await form.getByLabel("Card number").fill(approved);
      const saved = page.waitForResponse((r) => r.url().endsWith("/checkout/draft") && (r.request().postData() ?? "").includes("97201"));
      await form.getByLabel("ZIP code").fill(GUEST["ZIP code"]);
      await saved;

      await page.reload();
      for (const [label, value] of Object.entries(GUEST)) await expect(form.getByLabel(label, { exact: true })).toHaveValue(value);
      await expect(form.getByLabel("Card number")).toHaveValue("");
      const [draft] = await query<{ draft: string }>(`SELECT checkout_draft::text AS draft FROM carts WHERE checkout_draft::text LIKE '%offers-guest@example.com%'`);
      expect(draft?.draft).toContain("12 Clear Street");
      expect(draft?.draft).not.toContain(approved.replace(/\s/g, "").slice(-4));
      await shots(page, "offers", `checkout-${size.name}`);

      // The note's numbers behave as it says: the declined one is declined, the approved one places the order.
      await form.getByLabel("Card number").fill(declined);
      await form.getByRole("button", { name: "Place order" }).click();
      await expect(page.locator("#checkout-error")).toContainText(/declined/i);
      await expect(form.getByLabel("City")).toHaveValue("Portland");
      await form.getByLabel("Card number").fill(approved);
      await form.getByRole("button", { name: "Place order" }).click();
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Order M-\d+ placed$/);
    });
  });
}

test.describe("checkout draft without JavaScript", () => {
  test.skip(!DATABASE_URL, "needs E2E_DATABASE_URL");
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("Save details for later keeps the typed fields for the next visit, not the card number", async ({ page, baseURL }) => {
    const slug = await productWithOffers();
    await page.goto(`/p/${slug}`);
    await addToCart(page, baseURL!, (await page.locator("table.offers tbody tr[data-in-stock=true]").first().getAttribute("data-listing-id"))!);
    await page.goto("/checkout");
    await expect(page.locator("[data-test-mode]")).toBeVisible();
    const form = page.getByRole("form", { name: "Checkout" });
    await form.getByLabel("Email").fill("nojs-draft@example.com");
    await form.getByLabel("Address line 1").fill("3 Plain Road");
    await form.getByLabel("Card number").fill("4242 4242 4242 4242");
    await form.getByRole("button", { name: "Save details for later" }).click();
    await expect(page.locator("[data-draft-saved]")).toBeVisible();
    await page.goto("/checkout");
    await expect(form.getByLabel("Email")).toHaveValue("nojs-draft@example.com");
    await expect(form.getByLabel("Address line 1")).toHaveValue("3 Plain Road");
    await expect(form.getByLabel("Card number")).toHaveValue("");
  });
});
