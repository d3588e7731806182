/**
 * Store pages (issue 13, item 3): /s/{store_slug} shows an active store's name, since when it
 * sells, its shipping and returns summary, and its listings as a search scoped to the store. The
 * listings are checked through the public API's data only: the API search's products whose
 * `GET /products/{slug}` offers include the store. Suspended, closed and unknown stores are 404;
 * seller names on product pages link to the store page.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, flattenCategories, mapLimit, search, type CategoryNode } from "../helpers/http";
import { parseHtml, parseSearchPage } from "../helpers/html";

const page = (path: string) => api(baseUrl() + path);

interface Card {
  slug: string;
}
interface Offer {
  store_slug: string;
  price_cents: number;
  condition: string;
}

/** A leaf category with a few dozen products, the store with most of them, and its offers there. */
let sample: { category: string; store: string; cards: Card[]; expected: Card[]; offers: Map<string, Offer[]> };

async function offersOf(slugs: string[]): Promise<Map<string, Offer[]>> {
  const entries = await mapLimit(slugs, 6, async (slug) => {
    const res = await api(`/products/${slug}`);
    expect(res.status).toBe(200);
    return [slug, res.json.data.offers as Offer[]] as const;
  });
  return new Map(entries);
}

beforeAll(async () => {
  const tree = await api("/categories");
  const leaves = flattenCategories(tree.json.data as CategoryNode[]).filter((c) => c.children.length === 0);
  for (const leaf of leaves) {
    const res = await search({ category: leaf.slug, page_size: 60, sort: "newest" });
    const total: number = res.json.meta.total;
    if (total < 8 || total > 60) continue;
    const cards = res.json.data as Card[];
    const offers = await offersOf(cards.map((c) => c.slug));
    const tally = new Map<string, number>();
    for (const list of offers.values()) for (const s of new Set(list.map((o) => o.store_slug))) tally.set(s, (tally.get(s) ?? 0) + 1);
    const [store, count] = [...tally].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
    if (count < 2 || count === cards.length) continue;
    const expected = cards.filter((c) => offers.get(c.slug)!.some((o) => o.store_slug === store));
    sample = { category: leaf.slug, store, cards, expected, offers };
    break;
  }
  expect(sample, "a leaf category with 8 to 60 products, some but not all from one store").toBeDefined();
});

const storeOffers = (slug: string) => sample.offers.get(slug)!.filter((o) => o.store_slug === sample.store);

describe("GET /s/{store_slug}", () => {
  it("lists exactly the API search's products that have an offer from the store, in the API's order", async () => {
    const res = await page(`/s/${sample.store}?category=${sample.category}&page_size=60&sort=newest`);
    expect(res.status).toBe(200);
    const parsed = parseSearchPage(res.text);
    expect(parsed.page).toBe("store");
    expect(parsed.total).toBe(sample.expected.length);
    expect(parsed.cards.map((c) => c.slug)).toEqual(sample.expected.map((c) => c.slug));
    // Only the store's offers count: the card's price and offer count are the store's own.
    for (const card of parsed.cards) {
      const own = storeOffers(card.slug);
      expect(card.minPriceCents, card.slug).toBe(Math.min(...own.map((o) => o.price_cents)));
      expect(card.offerCount, card.slug).toBe(own.length);
      expect(card.href).toBe(`/p/${card.slug}`);
    }
  });

  it("filters by condition over the store's own offers", async () => {
    const conditions = new Set(sample.expected.flatMap((c) => storeOffers(c.slug).map((o) => o.condition)));
    for (const condition of conditions) {
      const res = await page(`/s/${sample.store}?category=${sample.category}&condition=${condition}&page_size=60&sort=newest`);
      const slugs = parseSearchPage(res.text).cards.map((c) => c.slug);
      const expected = sample.expected.filter((c) => storeOffers(c.slug).some((o) => o.condition === condition)).map((c) => c.slug);
      expect(slugs, condition).toEqual(expected);
    }
  });

  it("shows the store's name, since when it sells, shipping and the 30-day returns rule", async () => {
    const res = await page(`/s/${sample.store}`);
    expect(res.status).toBe(200);
    const $ = parseHtml(res.text);
    expect($("main").attr("data-store-slug")).toBe(sample.store);
    expect($("h1").first().text().trim().length).toBeGreaterThan(0);
    expect($("main").text()).toMatch(/Selling since (January|February|March|April|May|June|July|August|September|October|November|December) \d{4}/);
    expect($("[data-store-shipping]").text()).toMatch(/Standard shipping within the US: (free|\$\d)/);
    expect($("[data-store-returns]").text()).toMatch(/within 30 days of delivery/);
  });

  it("has the usual facets and paging, with links that stay on the store page", async () => {
    const res = await page(`/s/${sample.store}?page_size=5`);
    const parsed = parseSearchPage(res.text);
    expect(parsed.total!).toBeGreaterThan(5);
    expect(parsed.pageCount).toBe(Math.ceil(parsed.total! / 5));
    expect(parsed.facets.category.length).toBeGreaterThan(0);
    expect(parsed.facets.category.reduce((sum, e) => sum + e.count, 0)).toBeLessThanOrEqual(parsed.total!);
    for (const entry of [...parsed.facets.category, ...parsed.facets.brand, ...parsed.facets.condition]) {
      expect(entry.href).toMatch(new RegExp(`^/s/${sample.store}\\?`));
    }
    const $ = parseHtml(res.text);
    expect($("[data-pagination] a[rel=next]").attr("href")).toMatch(new RegExp(`^/s/${sample.store}\\?.*page=2`));
  });

  it("lists a fixture store's purchasable offers only (no unlisted product, no draft listing)", async () => {
    const res = await page("/s/fixture-store-a?page_size=60");
    expect(res.status).toBe(200);
    const cards = parseSearchPage(res.text).cards;
    const slugs = cards.map((c) => c.slug);
    expect(slugs).toContain("fixture-mixed-offers");
    // docs/fixtures.md: store A's purchasable offers of it are MIX-NEW-A ($100) and MIX-BACKORDER-A ($70).
    const mixed = cards.find((c) => c.slug === "fixture-mixed-offers")!;
    expect([mixed.minPriceCents, mixed.offerCount]).toEqual([7000, 2]);
    expect(slugs).not.toContain("fixture-unlisted");
    expect(slugs).not.toContain("fixture-draft-only");
    const offers = await offersOf(slugs);
    for (const slug of slugs) expect(offers.get(slug)!.some((o) => o.store_slug === "fixture-store-a"), slug).toBe(true);
  });

  it("renders an invalid parameter as the search page does", async () => {
    const res = await page(`/s/${sample.store}?sort=sideways`);
    expect(res.status).toBe(200);
    expect(parseSearchPage(res.text).searchError).toBe("sort");
  });

  it("is 404 for a suspended, a closed or an unknown store", async () => {
    for (const slug of ["fixture-suspended-store", "sunset-liquidators", "no-such-store", "%00"]) {
      const res = await page(`/s/${slug}`);
      expect(res.status, slug).toBe(404);
    }
  });
});

describe("seller names link to the store page", () => {
  it("on the product page: every offer row and the featured offer", async () => {
    const res = await page("/p/fixture-mixed-offers");
    const $ = parseHtml(res.text);
    const rows = $("tr[data-listing-id]").toArray();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const store = $(row).attr("data-store-slug");
      expect($(row).find(`a[href="/s/${store}"]`).length, store).toBe(1);
    }
    expect($(".buy-box a[href^='/s/']").length).toBe(1);
  });
});
