/**
 * Spec 4.2 GET /products/{slug}, 2.3 (product record), 2.4 (offer), and the public visibility
 * rules of decisions.md, proven with the named seed fixtures of docs/fixtures.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  baseUrl,
  CONDITIONS,
  expectErrorEnvelope,
  expectExactKeys,
  expectSuccessEnvelope,
  OFFER_KEYS,
  PRODUCT_KEYS,
  search,
  type ApiResponse,
} from "../helpers/http";

function expectProductRecord(p: any) {
  expectExactKeys(p, PRODUCT_KEYS, `product ${p?.slug}`);
  expect(p.id).toBeTypeOf("string");
  expect(p.slug).toBeTypeOf("string");
  expect(p.title).toBeTypeOf("string");
  expect(p.description === null || typeof p.description === "string").toBe(true);
  expect(p.url).toBe(`${baseUrl()}/p/${p.slug}`);
  if (p.brand !== null) {
    expectExactKeys(p.brand, ["slug", "name"], "product.brand");
    expect(p.brand.slug === null || typeof p.brand.slug === "string").toBe(true);
    expect(p.brand.name).toBeTypeOf("string");
  }
  expect(Array.isArray(p.category_breadcrumb)).toBe(true);
  expect(p.category_breadcrumb.length).toBeGreaterThan(0);
  for (const c of p.category_breadcrumb) {
    expectExactKeys(c, ["slug", "name"], "breadcrumb element");
    expect(c.slug).toBeTypeOf("string");
    expect(c.name).toBeTypeOf("string");
  }
  expect(p.gtin === null || typeof p.gtin === "string").toBe(true);
  expect(p.mpn === null || typeof p.mpn === "string").toBe(true);
  expect(p.attributes).toBeTypeOf("object");
  expect(p.attributes).not.toBeNull();
  expect(Array.isArray(p.attributes)).toBe(false);
  expect(Array.isArray(p.images)).toBe(true);
  for (const img of p.images) {
    expectExactKeys(img, ["url", "alt", "width", "height"], "image");
    expect(img.url).toBeTypeOf("string");
    expect(img.alt === null || typeof img.alt === "string").toBe(true);
    expect(img.width === null || Number.isInteger(img.width)).toBe(true);
    expect(img.height === null || Number.isInteger(img.height)).toBe(true);
  }
  expect(p.rating_avg === null || typeof p.rating_avg === "number").toBe(true);
  expect(Number.isInteger(p.rating_count)).toBe(true);
  expect(p.currency).toBe("USD");
  expect(p.min_price_cents === null || Number.isInteger(p.min_price_cents)).toBe(true);
  expect(Array.isArray(p.offers)).toBe(true);
  for (const o of p.offers) expectOffer(o);
  expect(p.buy_box_listing_id === null || typeof p.buy_box_listing_id === "string").toBe(true);

  // Offers are cheapest first; min_price_cents is the cheapest; the buy box is one of them.
  const prices = p.offers.map((o: any) => o.price_cents);
  expect(prices).toEqual([...prices].sort((a, b) => a - b));
  expect(p.min_price_cents).toBe(prices.length ? Math.min(...prices) : null);
  if (p.buy_box_listing_id !== null) {
    const winner = p.offers.find((o: any) => o.listing_id === p.buy_box_listing_id);
    expect(winner, "buy box winner is one of the offers").toBeDefined();
    expect(winner.in_stock).toBe(true);
  } else {
    expect(p.offers.every((o: any) => o.in_stock === false)).toBe(true);
  }
}

function expectOffer(o: any) {
  expectExactKeys(o, OFFER_KEYS, "offer");
  expect(o.listing_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  expect(Number.isInteger(o.price_cents)).toBe(true);
  expect(Number.isInteger(o.list_price_cents)).toBe(true);
  expect(o.currency).toBe("USD");
  expect(CONDITIONS).toContain(o.condition);
  expect(o.condition_label).toBeTypeOf("string");
  expect(o.condition_label.length).toBeGreaterThan(0);
  expect(o.store_name).toBeTypeOf("string");
  expect(o.store_slug).toBeTypeOf("string");
  expect(o.in_stock).toBeTypeOf("boolean");
  expect(o.on_sale).toBe(o.list_price_cents > o.price_cents);
}

describe("Search lists only publicly listed products with a purchasable offer (fixtures)", () => {
  let slugs: string[] = [];
  let res: ApiResponse;
  beforeAll(async () => {
    res = await search({ q: "Quokkaphone", page_size: 60 });
    slugs = res.json.data.map((c: any) => c.slug);
  });

  it("q=Quokkaphone lists fixture-mixed-offers and fixture-backorder-only", () => {
    expectSuccessEnvelope(res);
    expect(slugs).toContain("fixture-mixed-offers");
    expect(slugs).toContain("fixture-backorder-only");
  });

  it.each(["fixture-unlisted", "fixture-draft-only", "fixture-suspended-only"])("never lists %s", (slug) => {
    expect(slugs).not.toContain(slug);
  });

  it("the card of fixture-mixed-offers counts its 4 purchasable offers, min price 6000", () => {
    const card = res.json.data.find((c: any) => c.slug === "fixture-mixed-offers");
    expect(card.offer_count).toBe(4);
    expect(card.min_price_cents).toBe(6000);
  });

  it("the card of fixture-backorder-only counts its one backorderable offer", () => {
    const card = res.json.data.find((c: any) => c.slug === "fixture-backorder-only");
    expect(card.offer_count).toBe(1);
  });

  it("no hidden fixture shows up under any sort or browse", async () => {
    const hidden = ["fixture-unlisted", "fixture-draft-only", "fixture-suspended-only"];
    for (const sort of ["relevance", "price_asc", "price_desc", "newest"]) {
      const r = await search({ q: "Quokkaphone", sort, page_size: 60 });
      for (const slug of hidden) expect(r.json.data.map((c: any) => c.slug)).not.toContain(slug);
    }
  });

  it("the hidden offers' prices (1000..1400) never lower fixture-mixed-offers' minimum", async () => {
    const r = await search({ q: "Quokkaphone", price_max_cents: 1500 });
    expectSuccessEnvelope(r);
    expect(r.json.data.map((c: any) => c.slug)).not.toContain("fixture-mixed-offers");
  });

  it("q=Wombatwidget finds fixture-in-inactive-category", async () => {
    const r = await search({ q: "Wombatwidget" });
    expectSuccessEnvelope(r);
    expect(r.json.data.map((c: any) => c.slug)).toContain("fixture-in-inactive-category");
  });
});

describe("Product record has exactly the fields of spec 2.3; offers exactly those of 2.4", () => {
  it.each(["fixture-mixed-offers", "fixture-backorder-only", "fixture-draft-only", "fixture-suspended-only", "fixture-in-inactive-category"])(
    "%s",
    async (slug) => {
      const res = await api(`/products/${slug}`);
      expectSuccessEnvelope(res);
      expect(res.json.data.slug).toBe(slug);
      expectProductRecord(res.json.data);
    },
  );

  it("every product of the first search page", async () => {
    const s = await search({ page_size: 12 });
    for (const card of s.json.data) {
      const res = await api(`/products/${card.slug}`);
      expectSuccessEnvelope(res);
      const p = res.json.data;
      expectProductRecord(p);
      // The card and the record agree.
      expect(p.id).toBe(card.id);
      expect(p.title).toBe(card.title);
      expect(p.url).toBe(card.url);
      expect(p.brand).toEqual(card.brand);
      expect(p.category_breadcrumb).toEqual(card.category_breadcrumb);
      expect(p.min_price_cents).toBe(card.min_price_cents);
      expect(p.offers.length).toBe(card.offer_count);
      expect(p.rating_avg).toBe(card.rating_avg);
      expect(p.rating_count).toBe(card.rating_count);
    }
  });
});

describe("fixture-mixed-offers: exactly the 4 purchasable offers, cheapest first, buy box MIX-NEW-A", () => {
  let p: any;
  beforeAll(async () => {
    const res = await api("/products/fixture-mixed-offers");
    expectSuccessEnvelope(res);
    p = res.json.data;
  });

  it("offers in order: MIX-USED-B 6000, MIX-BACKORDER-A 7000, MIX-NEW-B 9800, MIX-NEW-A 10000", () => {
    const seen = p.offers.map((o: any) => ({
      price_cents: o.price_cents,
      list_price_cents: o.list_price_cents,
      condition: o.condition,
      store_slug: o.store_slug,
      in_stock: o.in_stock,
      on_sale: o.on_sale,
    }));
    expect(seen).toEqual([
      { price_cents: 6000, list_price_cents: 6000, condition: "used", store_slug: "fixture-store-b", in_stock: true, on_sale: false },
      { price_cents: 7000, list_price_cents: 7000, condition: "like_new", store_slug: "fixture-store-a", in_stock: false, on_sale: false },
      { price_cents: 9800, list_price_cents: 9800, condition: "new", store_slug: "fixture-store-b", in_stock: true, on_sale: false },
      { price_cents: 10000, list_price_cents: 12000, condition: "new", store_slug: "fixture-store-a", in_stock: true, on_sale: true },
    ]);
  });

  it("min_price_cents is 6000", () => {
    expect(p.min_price_cents).toBe(6000);
  });

  it("buy_box_listing_id is the MIX-NEW-A listing (store A, new, 10000): lowest landed price among new", () => {
    const winner = p.offers.find(
      (o: any) => o.store_slug === "fixture-store-a" && o.condition === "new" && o.price_cents === 10000,
    );
    expect(winner).toBeDefined();
    expect(p.buy_box_listing_id).toBe(winner.listing_id);
  });

  it("listing ids are distinct", () => {
    const ids = p.offers.map((o: any) => o.listing_id);
    expect(new Set(ids).size).toBe(4);
  });

  it("condition labels are human ('New', 'Like new', 'Used')", () => {
    const labels = Object.fromEntries(p.offers.map((o: any) => [o.condition, o.condition_label]));
    expect(labels).toEqual({ new: "New", like_new: "Like new", used: "Used" });
  });

  it("no hidden listing's price (draft, inactive, archived, sold out, suspended store) shows", () => {
    for (const price of [1000, 1100, 1200, 1300, 1400]) {
      expect(p.offers.map((o: any) => o.price_cents)).not.toContain(price);
    }
    expect(p.offers.map((o: any) => o.store_slug)).not.toContain("fixture-suspended-store");
  });
});

describe("Products that are not publicly purchasable", () => {
  it("fixture-unlisted -> 404 product_not_found", async () => {
    const res = await api("/products/fixture-unlisted");
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
  });

  it("an unknown slug -> 404 product_not_found", async () => {
    const res = await api("/products/does-not-exist-0000");
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
  });

  it.each(["%27%3B%20drop%20table%20products%3B--", "a%00b", "x".repeat(300), "%F0%9F%98%80"])(
    "a hostile slug (%s) -> 404 product_not_found, never 500",
    async (slug) => {
      const res = await api(`/products/${slug}`);
      expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
    },
  );

  it("fixture-draft-only -> 200 with offers [], min_price_cents null, buy_box_listing_id null", async () => {
    const res = await api("/products/fixture-draft-only");
    expectSuccessEnvelope(res);
    expect(res.json.data.offers).toEqual([]);
    expect(res.json.data.min_price_cents).toBeNull();
    expect(res.json.data.buy_box_listing_id).toBeNull();
  });

  it("fixture-suspended-only -> 200 with offers []", async () => {
    const res = await api("/products/fixture-suspended-only");
    expectSuccessEnvelope(res);
    expect(res.json.data.offers).toEqual([]);
    expect(res.json.data.min_price_cents).toBeNull();
    expect(res.json.data.buy_box_listing_id).toBeNull();
  });

  it("fixture-backorder-only -> one offer, in_stock false, buy_box_listing_id null", async () => {
    const res = await api("/products/fixture-backorder-only");
    expectSuccessEnvelope(res);
    expect(res.json.data.offers).toHaveLength(1);
    expect(res.json.data.offers[0].in_stock).toBe(false);
    expect(res.json.data.buy_box_listing_id).toBeNull();
    expect(res.json.data.min_price_cents).toBe(res.json.data.offers[0].price_cents);
  });

  it("fixture-in-inactive-category -> 200 with its one purchasable offer", async () => {
    const res = await api("/products/fixture-in-inactive-category");
    expectSuccessEnvelope(res);
    expect(res.json.data.offers).toHaveLength(1);
  });
});
