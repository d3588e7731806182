/**
 * Category drill-down (lib/storefront/category-drilldown.ts): when every result of a search lies
 * inside one category below its scope, the deepest category holding them all and its children.
 * Checked against the search library and the public API, never against fixed seed counts, on
 * /search, a category page and a store page. The category facet itself is unchanged (parity.test.ts).
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, search } from "../helpers/http";
import { parseHtml, parseSearchPage } from "../helpers/html";

// db() reads DATABASE_URL when first used: the test database (embedded: served by the app).
process.env.DATABASE_URL = inject("DATABASE_URL");
const { categoryDrilldown } = await import("@/lib/storefront/category-drilldown");
const { searchProducts, searchCategoryFacet } = await import("@/lib/catalog/search");
const { parseQuery } = await import("@/lib/http/query");
const { SearchQuery } = await import("@/lib/schemas/catalog");
const { db } = await import("@/lib/db");
afterAll(() => db().$disconnect());

async function drilldownOf(qs: string, restriction?: { storeId?: string }) {
  const params = parseQuery(SearchQuery, new URLSearchParams(qs));
  const result = await searchProducts(db(), params, restriction);
  return { params, result, drilldown: await categoryDrilldown(db(), params, result, restriction) };
}

async function page(path: string) {
  const res = await api(baseUrl() + path, { headers: { Accept: "text/html" } });
  expect(res.status, path).toBe(200);
  return res.text;
}

/** The drill-down as the page shows it (data-* hooks of docs/storefront-markup.md). */
function readDrilldown(html: string) {
  const $ = parseHtml(html);
  const nav = $("nav[data-category-drilldown]");
  if (nav.length === 0) return null;
  return {
    deepest: nav.attr("data-category-drilldown"),
    text: nav.find("p").first().text(),
    trail: nav
      .find("[data-drilldown-trail]")
      .toArray()
      .map((el) => ({ slug: $(el).attr("data-drilldown-trail"), href: $(el).attr("href") ?? null })),
    children: nav
      .find("[data-drilldown-value]")
      .toArray()
      .map((el) => ({ value: $(el).attr("data-drilldown-value"), count: Number($(el).attr("data-drilldown-count")), href: $(el).attr("href") })),
  };
}

describe("categoryDrilldown (the library)", () => {
  // Words whose products sit in one top-level category (the seed's catalog): one descends a level
  // and offers several children, one descends to a leaf.
  it.each(["q=laptop", "q=headphones", "q=quokkaphone", "q=bluetooth&sort=price_asc"])(
    "%s: the deepest category holding every result, and its children as the facet counts them",
    async (qs) => {
      const { params, result, drilldown } = await drilldownOf(qs);
      expect(result.meta.facets.category).toHaveLength(1);
      expect(drilldown).not.toBeNull();
      const { trail, children, total, below_scope } = drilldown!;
      expect(total).toBe(result.meta.total);
      expect(below_scope).toBe(trail.length); // no scope: every level is below it
      expect(trail[0]!.slug).toBe(result.meta.facets.category[0]!.value);
      // Each category of the trail holds every result; the deepest one's facet is `children`.
      for (const [i, category] of trail.entries()) {
        const narrowed = await searchCategoryFacet(db(), { ...params, category: category.slug });
        expect(narrowed.total, category.slug).toBe(total);
        if (i < trail.length - 1) expect(narrowed.category.map((c) => c.value)).toEqual([trail[i + 1]!.slug]);
        else expect(narrowed.category).toEqual(children);
      }
      // It stopped where the results part (or at a category holding some of them directly).
      expect(children.length !== 1 || children[0]!.count < total).toBe(true);
    },
  );

  it("within a category scope, the trail starts at the top and counts the levels below the scope", async () => {
    const { drilldown } = await drilldownOf("q=laptop&category=electronics");
    expect(drilldown).not.toBeNull();
    expect(drilldown!.trail[0]!.slug).toBe("electronics");
    expect(drilldown!.below_scope).toBe(drilldown!.trail.length - 1);
  });

  it("is null when the results span several categories, or there are none", async () => {
    for (const qs of ["", "category=electronics", "q=zzzqqqxxxyyy"]) {
      const { result, drilldown } = await drilldownOf(qs);
      expect(result.meta.facets.category.length === 1 && result.meta.facets.category[0]!.count === result.meta.total, qs).toBe(false);
      expect(drilldown, qs).toBeNull();
    }
  });

  it("at a leaf category, nothing is below the scope: null", async () => {
    const { drilldown } = await drilldownOf("q=quokkaphone");
    const leaf = drilldown!.trail.at(-1)!.slug;
    expect(drilldown!.children).toEqual([]);
    expect((await drilldownOf(`q=quokkaphone&category=${leaf}`)).drilldown).toBeNull();
  });

  it("follows a store page's restriction", async () => {
    const [store] = await db().$queryRaw<{ id: string }[]>`SELECT id FROM stores WHERE slug = 'fixture-store-a'`;
    const id = store!.id;
    const { result, drilldown } = await drilldownOf("q=quokkaphone", { storeId: id });
    expect(result.meta.total).toBeGreaterThan(0);
    expect(drilldown?.total).toBe(result.meta.total);
  });
});

describe("the drill-down on the search page", () => {
  it("/search?q=laptop&sort=price_asc: the trail and the children, as the public API counts them", async () => {
    const html = await page("/search?q=laptop&sort=price_asc&page=1");
    const shown = readDrilldown(html);
    expect(shown).not.toBeNull();
    const total = parseSearchPage(html).total!;
    expect(shown!.text).toContain(`All ${total} results are in`);
    const deepest = shown!.trail.at(-1)!.slug!;
    expect(shown!.deepest).toBe(deepest);
    const narrowed = (await search({ q: "laptop", category: deepest })).json.meta;
    expect(narrowed.total).toBe(total);
    expect(shown!.children.map(({ value, count }) => ({ value, count }))).toEqual(
      narrowed.facets.category.map(({ value, count }: { value: string; count: number }) => ({ value, count })),
    );
    expect(shown!.children.length).toBeGreaterThan(0);
    // Every link narrows with `category`, keeping the words and sort, back to page 1.
    for (const { slug, href } of shown!.trail) expect(href).toBe(`/search?q=laptop&sort=price_asc&category=${slug}`);
    for (const { value, href } of shown!.children) expect(href).toBe(`/search?q=laptop&sort=price_asc&category=${value}`);
  });

  it("leaves the category facet as it is: one entry, the top-level category", async () => {
    const html = await page("/search?q=laptop");
    const api = (await search({ q: "laptop" })).json.meta.facets.category;
    expect(parseSearchPage(html).facets.category.map(({ value, count }) => ({ value, count }))).toEqual(
      api.map(({ value, count }: { value: string; count: number }) => ({ value, count })),
    );
  });

  it("a link of the drill-down leads to the narrowed search", async () => {
    const shown = readDrilldown(await page("/search?q=laptop"))!;
    const child = shown.children[0]!;
    const narrowed = parseSearchPage(await page(child.href!));
    expect(narrowed.total).toBe(child.count);
  });

  it("is absent when the results span several categories", async () => {
    expect(readDrilldown(await page("/search"))).toBeNull();
    expect(readDrilldown(await page("/c/electronics"))).toBeNull();
  });

  it("on a category page: categories at or above the page are text, those below link to their pages", async () => {
    const html = await page("/c/electronics?q=laptop");
    const shown = readDrilldown(html);
    expect(shown).not.toBeNull();
    expect(shown!.trail[0]).toEqual({ slug: "electronics", href: null });
    for (const { slug, href } of shown!.trail.slice(1)) expect(href).toBe(`/c/${slug}?q=laptop`);
    for (const { value, href } of shown!.children) expect(href).toBe(`/c/${value}?q=laptop`);
  });

  it("on a store page, the links keep the store", async () => {
    const shown = readDrilldown(await page("/s/fixture-store-a?q=quokkaphone"));
    expect(shown).not.toBeNull();
    for (const { slug, href } of shown!.trail) expect(href).toBe(`/s/fixture-store-a?q=quokkaphone&category=${slug}`);
  });
});
