/**
 * Storefront and public API show the same catalog (README: "storefront and API call one query
 * library"). The pages are read through the markup hooks of docs/storefront-markup.md and
 * compared with the API's answer to the same parameters: search and category pages (results in
 * order, meta, all four facets, per-card price and offer count), product pages (offers in
 * order, buy box) and invalid parameters (400 naming the same parameter).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, expectSuccessEnvelope, flattenCategories, mapLimit, qs, type CategoryNode } from "../helpers/http";
import { FACETS, parseProductPage, parseSearchPage, type SearchPage } from "../helpers/html";

type Params = Parameters<typeof qs>[0];
type Facet = { value: string; label: string; count: number };

/** Values taken from the seeded catalog in beforeAll, so that every combination matches something. */
interface Catalog {
  topCategory: string;
  childCategory: string;
  /** A category with enough products for several pages. */
  bigCategory: string;
  brands: string[];
  /** Price facet values: a closed bucket and the open-ended top one. */
  priceClosed: [string, string];
  priceOpen: string | undefined;
  wholeCatalogPageCount: number;
}

let catalog: Catalog;

function storefront(path: string) {
  return api(baseUrl() + path, { headers: { Accept: "text/html" } });
}

async function fetchBoth(pagePath: string, apiParams: Params) {
  const [page, json] = await Promise.all([storefront(pagePath), api(`/search${qs(apiParams)}`)]);
  return { page, json };
}

/** Asserts that a parsed storefront search page shows exactly what the API answered. */
function expectSamePage(page: SearchPage, body: any, where: string) {
  expect(page.total, `${where}: main[data-total]`).toBe(body.meta.total);
  expect(page.pageNumber, `${where}: main[data-page-number]`).toBe(body.meta.page);
  expect(page.pageSize, `${where}: main[data-page-size]`).toBe(body.meta.page_size);
  expect(page.pageCount, `${where}: main[data-page-count]`).toBe(body.meta.page_count);
  expect(
    page.cards.map((c) => c.slug),
    `${where}: article[data-product-slug] in order`,
  ).toEqual(body.data.map((c: any) => c.slug));
  expect(
    page.cards.map((c) => ({ slug: c.slug, min_price_cents: c.minPriceCents, offer_count: c.offerCount })),
    `${where}: data-min-price-cents / data-offer-count per card`,
  ).toEqual(body.data.map((c: any) => ({ slug: c.slug, min_price_cents: c.min_price_cents, offer_count: c.offer_count })));
  for (const facet of FACETS) {
    expect(
      page.facets[facet].map((e) => ({ value: e.value, count: e.count })),
      `${where}: section[data-facet="${facet}"] entries (value, count, order)`,
    ).toEqual((body.meta.facets[facet] as Facet[]).map((e) => ({ value: e.value, count: e.count })));
  }
}

/** The parameter combinations compared on /search; each names what it exercises. */
const COMBINATIONS: { name: string; params: () => Params }[] = [
  { name: "no parameters (whole catalog)", params: () => ({}) },
  { name: "text: a common word", params: () => ({ q: "headphones" }) },
  { name: "text: two words", params: () => ({ q: "wireless headphones" }) },
  { name: "text: misspelt (typo tolerance)", params: () => ({ q: "hedphones" }) },
  { name: "text: fixture word", params: () => ({ q: "Quokkaphone" }) },
  { name: "text: web-search syntax with exclusion", params: () => ({ q: '"noise-cancelling" -earbuds' }) },
  { name: "text: matches nothing", params: () => ({ q: "zzqxjvbnonexistentword" }) },
  { name: "text: corrected (X-Corrected-Query)", params: () => ({ q: "wireless headphnes" }) },
  { name: "text: relaxed, no product has every word (X-Query-Relaxed)", params: () => ({ q: "Quokkaphone headphones" }) },
  { name: "text: relaxed, filler and an unknown word", params: () => ({ q: "cheap wireless headphones zorblattiq" }) },
  { name: "text: last word as a prefix", params: () => ({ q: "wireless headp" }) },
  { name: "top-level category", params: () => ({ category: catalog.topCategory }) },
  { name: "child category", params: () => ({ category: catalog.childCategory }) },
  { name: "one brand", params: () => ({ brand: catalog.brands[0] }) },
  { name: "two brands, repeated parameter", params: () => ({ brand: catalog.brands.slice(0, 2) }) },
  { name: "two brands, comma separated", params: () => ({ brand: catalog.brands.slice(1, 3).join(",") }) },
  { name: "unknown brand matches nothing", params: () => ({ brand: "no-such-brand" }) },
  { name: "condition new", params: () => ({ condition: "new" }) },
  { name: "conditions used + like_new", params: () => ({ condition: ["used", "like_new"] }) },
  {
    name: "price range from a closed price facet bucket",
    params: () => ({ price_min_cents: catalog.priceClosed[0], price_max_cents: catalog.priceClosed[1] }),
  },
  { name: "open-ended price facet bucket", params: () => ({ price_min_cents: catalog.priceOpen ?? catalog.priceClosed[1] }) },
  { name: "price max only", params: () => ({ price_max_cents: 5000 }) },
  { name: "sort relevance (text)", params: () => ({ q: "headphones", sort: "relevance" }) },
  { name: "sort price_asc", params: () => ({ q: "headphones", sort: "price_asc" }) },
  { name: "sort price_desc", params: () => ({ category: catalog.topCategory, sort: "price_desc" }) },
  { name: "sort newest", params: () => ({ sort: "newest" }) },
  { name: "sort relevance (browse = popularity)", params: () => ({ category: catalog.bigCategory, sort: "relevance" }) },
  { name: "page 2", params: () => ({ category: catalog.bigCategory, page: 2 }) },
  { name: "deep page (last page of the catalog)", params: () => ({ page: catalog.wholeCatalogPageCount }) },
  { name: "past the last page", params: () => ({ page: catalog.wholeCatalogPageCount + 1 }) },
  { name: "page 500 (maximum)", params: () => ({ q: "headphones", page: 500 }) },
  { name: "page_size 5, page 3", params: () => ({ page_size: 5, page: 3, sort: "price_asc" }) },
  { name: "page_size 1", params: () => ({ page_size: 1, q: "headphones" }) },
  { name: "page_size 60", params: () => ({ page_size: 60, sort: "newest" }) },
  { name: "page_size 1000 (clamped to 60)", params: () => ({ page_size: 1000, category: catalog.topCategory }) },
  {
    name: "everything at once",
    params: () => ({
      q: "headphones",
      category: catalog.topCategory,
      brand: catalog.brands.slice(0, 5),
      condition: ["new", "used", "refurbished"],
      price_min_cents: 1000,
      price_max_cents: 50000,
      sort: "price_desc",
      page: 1,
      page_size: 7,
    }),
  },
  {
    name: "filters without text, page 2",
    params: () => ({ brand: catalog.brands.slice(0, 10), condition: "new", sort: "price_asc", page: 2, page_size: 10 }),
  },
];

beforeAll(async () => {
  const cats = await api("/categories");
  expectSuccessEnvelope(cats);
  const roots: CategoryNode[] = cats.json.data;
  const all = flattenCategories(roots);
  const whole = await api("/search");
  expectSuccessEnvelope(whole);
  const facets = whole.json.meta.facets;
  const topFacet: Facet[] = facets.category;
  const top = topFacet[0]!.value;
  const topNode = all.find((c) => c.slug === top)!;
  const child = flattenCategories(topNode.children)[0]?.slug ?? top;
  const brands = (facets.brand as Facet[]).map((b) => b.value);
  const prices = (facets.price as Facet[]).map((p) => p.value);
  const closed = prices.find((v) => /^\d+-\d+$/.test(v) && !v.startsWith("0-")) ?? prices.find((v) => /^\d+-\d+$/.test(v))!;
  const [min, max] = closed.split("-") as [string, string];
  const open = prices.find((v) => v.endsWith("-"))?.slice(0, -1);
  // The biggest leaf-or-not category below the top level, for paging.
  const childCounts = await api(`/search${qs({ category: top })}`);
  const biggest = (childCounts.json.meta.facets.category as Facet[]).slice().sort((a, b) => b.count - a.count)[0];
  catalog = {
    topCategory: top,
    childCategory: child,
    bigCategory: biggest && biggest.count > 48 ? biggest.value : top,
    brands,
    priceClosed: [min, max],
    priceOpen: open,
    wholeCatalogPageCount: whole.json.meta.page_count,
  };
  expect(brands.length).toBeGreaterThanOrEqual(10);
});

describe("Search page equals GET /search for the same parameters", () => {
  it("covers at least 20 parameter combinations", () => {
    expect(COMBINATIONS.length).toBeGreaterThanOrEqual(20);
  });

  it.each(COMBINATIONS.map((c) => [c.name, c] as const))("%s", async (_name, combo) => {
    const params = combo.params();
    const query = qs(params);
    const { page, json } = await fetchBoth(`/search${query}`, params);
    expectSuccessEnvelope(json);
    expect(page.status, `GET /search${query} status`).toBe(200);
    expect(page.headers.get("content-type") ?? "").toMatch(/text\/html/);
    const parsed = parseSearchPage(page.text);
    expect(parsed.page, "main[data-page]").toBe("search");
    expect(parsed.searchError, "no data-search-error").toBeNull();
    expectSamePage(parsed, json.json, `/search${query}`);
  });

  it("facet links mark the selected brand and condition values", async () => {
    const params = { brand: catalog.brands.slice(0, 2), condition: ["new", "used"] };
    const page = parseSearchPage((await storefront(`/search${qs(params)}`)).text);
    const selected = (facet: "brand" | "condition") =>
      page.facets[facet]
        .filter((e) => e.selected)
        .map((e) => e.value)
        .sort();
    expect(selected("brand")).toEqual([...params.brand].sort());
    expect(selected("condition")).toEqual(["new", "used"]);
  });

  it("a facet link applies that facet value, and the page then totals the facet's count", async () => {
    const page = parseSearchPage((await storefront(`/search${qs({ q: "headphones" })}`)).text);
    const entries = [
      page.facets.brand[0],
      page.facets.condition[0],
      page.facets.price.find((e) => !e.selected),
      page.facets.category[0],
    ].filter((e) => e !== undefined);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    await mapLimit(entries, 4, async (entry) => {
      expect(entry.href, `href of facet entry ${entry.value}`).toBeTruthy();
      const target = new URL(entry.href!, baseUrl() + "/search");
      const next = parseSearchPage((await storefront(target.pathname + target.search)).text);
      expect(next.total, `total after following the facet link ${entry.href}`).toBe(entry.count);
    });
  });
});

describe("Category page /c/{slug} equals GET /search?category={slug}", () => {
  const cases: { name: string; slug: () => string; params: () => Params }[] = [
    { name: "top-level category", slug: () => catalog.topCategory, params: () => ({}) },
    { name: "child category", slug: () => catalog.childCategory, params: () => ({}) },
    { name: "category, page 2 by price", slug: () => catalog.bigCategory, params: () => ({ page: 2, sort: "price_desc" }) },
    {
      name: "category with text, brands and condition",
      slug: () => catalog.topCategory,
      params: () => ({ q: "wireless", brand: catalog.brands.slice(0, 8), condition: "new", page_size: 12 }),
    },
    {
      name: "category with a price bucket, newest",
      slug: () => catalog.topCategory,
      params: () => ({ price_min_cents: catalog.priceClosed[0], price_max_cents: catalog.priceClosed[1], sort: "newest" }),
    },
    { name: "category, past the last page", slug: () => catalog.childCategory, params: () => ({ page: 400 }) },
  ];

  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const slug = c.slug();
    const params = c.params();
    const { page, json } = await fetchBoth(`/c/${slug}${qs(params)}`, { ...params, category: slug });
    expectSuccessEnvelope(json);
    expect(page.status, `GET /c/${slug}${qs(params)} status`).toBe(200);
    const parsed = parseSearchPage(page.text);
    expect(parsed.searchError).toBeNull();
    expectSamePage(parsed, json.json, `/c/${slug}${qs(params)}`);
  });
});

describe("Product page equals GET /products/{slug}", () => {
  let slugs: string[] = [];
  beforeAll(async () => {
    const res = await api(`/search${qs({ q: "headphones", page_size: 5, sort: "price_desc" })}`);
    expectSuccessEnvelope(res);
    const fromSearch: string[] = res.json.data.map((c: any) => c.slug);
    expect(fromSearch.length).toBe(5);
    slugs = ["fixture-mixed-offers", "fixture-backorder-only", "fixture-draft-only", ...fromSearch];
  });

  it("offers (listing ids, order, price, condition, store, in_stock), buy box and min price", async () => {
    await mapLimit(slugs, 4, async (slug) => {
      const [page, json] = await Promise.all([storefront(`/p/${slug}`), api(`/products/${slug}`)]);
      expectSuccessEnvelope(json);
      expect(page.status, `GET /p/${slug}`).toBe(200);
      const product = json.json.data;
      const parsed = parseProductPage(page.text);
      expect(parsed.page, `/p/${slug} main[data-page]`).toBe("product");
      expect(parsed.slug, `/p/${slug} main[data-product-slug]`).toBe(slug);
      expect(
        parsed.offers.map((o) => ({
          listing_id: o.listingId,
          price_cents: o.priceCents,
          condition: o.condition,
          store_slug: o.storeSlug,
          in_stock: o.inStock,
        })),
        `/p/${slug} tr[data-listing-id] rows`,
      ).toEqual(
        product.offers.map((o: any) => ({
          listing_id: o.listing_id,
          price_cents: o.price_cents,
          condition: o.condition,
          store_slug: o.store_slug,
          in_stock: o.in_stock,
        })),
      );
      expect(
        parsed.offers.map((o) => o.buyBox),
        `/p/${slug} data-buy-box per row`,
      ).toEqual(product.offers.map((o: any) => o.listing_id === product.buy_box_listing_id));
      expect(parsed.buyBoxListingId, `/p/${slug} main[data-buy-box-listing-id]`).toBe(product.buy_box_listing_id);
      expect(parsed.minPriceCents, `/p/${slug} main[data-min-price-cents]`).toBe(product.min_price_cents);

      // For crawlers: canonical URL, shared-cacheable page, and schema.org JSON-LD that parses
      // and states the same facts as the API record.
      expect(parsed.canonical, `/p/${slug} canonical`).toBe(product.url);
      expect(page.headers.get("cache-control"), `/p/${slug} Cache-Control`).toBe("public, s-maxage=60");
      expect(parsed.jsonLd, `/p/${slug} JSON-LD blocks`).toHaveLength(1);
      const ld = parsed.jsonLd[0] as any;
      expect(ld["@context"]).toBe("https://schema.org");
      expect(ld["@type"]).toBe("Product");
      expect(ld.name).toBe(product.title);
      expect(ld.url).toBe(product.url);
      if (product.offers.length === 0) {
        expect(ld.offers, `/p/${slug} no offers, no AggregateOffer`).toBeUndefined();
      } else {
        const prices = product.offers.map((o: any) => o.price_cents);
        expect(ld.offers).toMatchObject({
          "@type": "AggregateOffer",
          priceCurrency: "USD",
          offerCount: product.offers.length,
          lowPrice: (Math.min(...prices) / 100).toFixed(2),
          highPrice: (Math.max(...prices) / 100).toFixed(2),
        });
      }
    });
  });

  it("fixture-mixed-offers: four offers, exactly one buy-box row (MIX-NEW-A)", async () => {
    const parsed = parseProductPage((await storefront("/p/fixture-mixed-offers")).text);
    expect(parsed.offers.map((o) => o.priceCents)).toEqual([6000, 7000, 9800, 10000]);
    const buyBox = parsed.offers.filter((o) => o.buyBox);
    expect(buyBox).toHaveLength(1);
    expect(buyBox[0]).toMatchObject({ priceCents: 10000, condition: "new", storeSlug: "fixture-store-a", inStock: true });
  });

  it("fixture-backorder-only: one offer not in stock and no buy box", async () => {
    const parsed = parseProductPage((await storefront("/p/fixture-backorder-only")).text);
    expect(parsed.offers).toHaveLength(1);
    expect(parsed.offers[0]).toMatchObject({ inStock: false, buyBox: false });
    expect(parsed.buyBoxListingId).toBeNull();
  });

  it("unlisted and unknown products answer 404 on both", async () => {
    for (const slug of ["fixture-unlisted", "no-such-product-anywhere"]) {
      const [page, json] = await Promise.all([storefront(`/p/${slug}`), api(`/products/${slug}`)]);
      expect(json.status).toBe(404);
      expect(page.status, `GET /p/${slug}`).toBe(404);
      expect(parseProductPage(page.text).offers).toHaveLength(0);
    }
  });
});

// The API answers 400; a page cannot choose that status in the App Router, so it renders the
// error (never a 500, never results) naming the same parameter (docs/storefront-markup.md).
describe("Invalid parameters: the page shows the error naming the same parameter as the API's 400", () => {
  const cases: [string, string][] = [
    ["page=0", "page"],
    ["page=501", "page"],
    ["page=abc", "page"],
    ["page=1&page=2", "page"],
    ["sort=bogus", "sort"],
    ["page_size=0", "page_size"],
    ["page_size=-3", "page_size"],
    ["condition=mint", "condition"],
    ["price_min_cents=abc", "price_min_cents"],
    ["price_min_cents=5000&price_max_cents=5000", "price_max_cents"],
    ["category=fixture_inactive", "category"],
    ["category=no_such_category", "category"],
    ["category=Not-A-Slug", "category"],
    ["brand=BAD!", "brand"],
    [`q=${"x".repeat(201)}`, "q"],
  ];

  it.each(cases)("/search?%s", async (query, param) => {
    const [page, json] = await Promise.all([storefront(`/search?${query}`), api(`/search?${query}`)]);
    expect(json.status, `API status for ${query}`).toBe(400);
    expect(json.json.error.param).toBe(param);
    const parsed = parseSearchPage(page.text);
    expect(parsed.searchError, `data-search-error for ${query}`).toBe(json.json.error.param);
    expect(page.status, `storefront status for ${query}`).toBe(200);
    expect(parsed.cards, `no results rendered for ${query}`).toEqual([]);
  });

  it("/c/{slug} with an invalid parameter shows the same error", async () => {
    const slug = catalog.topCategory;
    const [page, json] = await Promise.all([
      storefront(`/c/${slug}?sort=bogus`),
      api(`/search?category=${slug}&sort=bogus`),
    ]);
    expect(json.status).toBe(400);
    expect(parseSearchPage(page.text).searchError).toBe(json.json.error.param);
    expect(page.status).toBe(200);
  });
});
