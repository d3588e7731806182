/**
 * Storefront pages read as plain HTML (no JavaScript): the help articles' links and paths lead
 * somewhere, GFM tables render as tables, not-found pages carry their message and stay out of
 * shared caches, product details have labels and units, and the search page keeps its query,
 * pages with numbers, and clears its filters.
 */
import { describe, expect, it } from "vitest";
import { readHelpArticles } from "@/lib/seed/help";
import { api, baseUrl } from "../helpers/http";
import { parseHtml, parseSearchPage } from "../helpers/html";

async function page(path: string) {
  return api(baseUrl() + path, { headers: { Accept: "text/html" } });
}

const LISTED_PRODUCT = "fixture-mixed-offers";
const HELP_ARTICLES = readHelpArticles();
const METHOD_PATH = /^(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)/;

/**
 * Every site path an article names: link targets, inline code and code-block request lines.
 * The public API article lists its endpoints relative to its base URL (`GET /search`).
 */
function mentionedPaths(body: string): string[] {
  const found = new Set<string>();
  const add = (raw: string) => {
    const path = raw.replace(/[.,;:)]+$/, "").split(/[?#]/)[0]!;
    if (!path.startsWith("/") || path.startsWith("//")) return;
    found.add(path);
  };
  for (const [, target] of body.matchAll(/\]\((\/[^)\s]*)\)/g)) add(target!);
  for (const [, code] of body.matchAll(/`([^`\n]+)`/g)) {
    const request = METHOD_PATH.exec(code!);
    if (request) add(request[2]!.startsWith("/api/") ? request[2]! : `/api/public/v1${request[2]}`);
    else if (/^\/[A-Za-z]/.test(code!) && !/\s/.test(code!)) add(code!);
  }
  for (const block of body.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split("\n")) {
      const request = METHOD_PATH.exec(line.trim());
      if (request) add(request[2]!);
    }
  }
  // A base URL (`/api/v1`) is named as the prefix of its endpoints, not as an endpoint.
  return [...found].filter((path) => ![...found].some((other) => other.startsWith(`${path}/`)) || !path.startsWith("/api/"));
}

/** Path parameters take real values from the seed. */
function withSeedValues(path: string): string {
  return path.replace(/\{slug\}|<slug>/g, LISTED_PRODUCT);
}

describe("help articles name only paths that exist", () => {
  const cases = HELP_ARTICLES.flatMap((article) => mentionedPaths(article.body).map((path) => [article.slug, path] as const));

  it("the articles mention API and page paths (the parser finds them)", () => {
    const paths = cases.map(([, path]) => path);
    expect(paths).toContain("/api/v1/listings");
    expect(paths).toContain("/api/public/v1/search");
    expect(paths).toContain("/seller");
    expect(paths).toContain("/help/seller-api-keys");
  });

  it.each(cases)("%s mentions %s, which answers something other than 404", async (_slug, path) => {
    const res = await page(withSeedValues(path));
    expect(res.status, `${path} -> ${res.status}`).not.toBe(404);
    expect(res.status, `${path} -> ${res.status}`).toBeLessThan(500);
  });
});

describe("help articles link only API paths that answer 200", () => {
  const linked = HELP_ARTICLES.flatMap((article) => [...article.body.matchAll(/\]\((\/api\/[^)\s]*)\)/g)].map((m) => [article.slug, m[1]!] as const));

  it("a base URL named in an article links to its API's OpenAPI document (the base path itself is a 404)", () => {
    const bases = ["/api/public/v1", "/api/v1", "/api/v1/buyer"];
    const named = HELP_ARTICLES.flatMap((article) => [...article.body.matchAll(/(\[)?`(\/api\/[a-z0-9/]*?)\/?`(\]\([^)]*\))?/g)].filter((m) => bases.includes(m[2]!)).map((m) => [article.slug, m[0]] as const));
    expect(new Set(named.map(([slug]) => slug)).size).toBeGreaterThanOrEqual(3);
    for (const [slug, mention] of named) {
      const base = /`([^`]+)`/.exec(mention)![1]!;
      expect(mention, slug).toBe(`[\`${base}\`](${base}/openapi.json)`);
    }
  });

  it.each(linked)("%s links %s, which answers 200", async (_slug, path) => {
    const res = await page(withSeedValues(path));
    expect(res.status, `${path} -> ${res.status}`).toBe(200);
  });
});

describe("help articles render GFM", () => {
  it("a markdown table is a <table>, never raw pipes", async () => {
    const res = await page("/help/returns");
    expect(res.status).toBe(200);
    const $ = parseHtml(res.text);
    const table = $("main article table").first();
    expect(table.length).toBe(1);
    expect(table.find("th").first().text()).toBe("Status");
    expect(table.find("tbody tr").length).toBeGreaterThanOrEqual(5);
    expect($("main").text()).not.toContain("|---|");
  });
});

describe("not-found pages, without JavaScript", () => {
  /** The not-found message with the site header, in the HTML itself (scripts removed). */
  function expectNotFoundPage(res: { status: number; headers: Headers; text: string }, path: string) {
    expect(res.status, path).toBe(404);
    // Never kept by a shared cache: the subject may appear a moment later.
    const cacheControl = res.headers.get("cache-control") ?? "";
    expect(cacheControl, path).toMatch(/\b(no-store|private)\b/);
    expect(cacheControl, path).not.toMatch(/\bpublic\b|s-maxage/);
    const $ = parseHtml(res.text);
    $("script").remove();
    expect($('main[data-page="not-found"] h1').text(), path).toBe("Page not found");
    expect($("main").text(), path).toContain("This page does not exist, or the product is no longer listed.");
    // The visitor can go on: the site header's search box and the links of the message.
    expect($('header form[role="search"][action="/search"] input[name="q"]').length, path).toBe(1);
    expect($('main a[href="/search"]').length, path).toBe(1);
  }

  it("a path no route matches: 404, and the message is in the HTML", async () => {
    expectNotFoundPage(await page("/no/such/page-xyz"), "/no/such/page-xyz");
  });

  // notFound() thrown while a page renders sends Next's error shell, empty without JavaScript
  // (vercel/next.js #98954 on next 16.4.6): the proxy sends these to the not-found page first.
  const missing = [
    ["product", "/p/no-such-product-xyz"],
    ["product not publicly listed", "/p/fixture-unlisted"],
    ["product, a slug no product can have", "/p/%00"],
    ["category", "/c/no_such_category"],
    ["inactive category", "/c/fixture_inactive"],
    ["store", "/s/no-such-store"],
    ["suspended store", "/s/fixture-suspended-store"],
    ["help article", "/help/no-such-article"],
    ["help article, encoded slug", "/help/how%20search%20works"],
  ] as const;

  it.each(missing)("%s (%s): 404, the message in the HTML, not shared-cacheable", async (_kind, path) => {
    expectNotFoundPage(await page(path), path);
  });

  it("with query parameters as well", async () => {
    expectNotFoundPage(await page("/c/no_such_category?q=lamp&sort=price_asc"), "/c/no_such_category?q=...");
  });

  const existing = [
    ["product", `/p/${LISTED_PRODUCT}`, "product"],
    ["category", "/c/electronics", "search"],
    ["store", "/s/fixture-store-a", "store"],
    ["help article", "/help/returns", "help-article"],
  ] as const;

  it.each(existing)("an existing %s page is unchanged: 200, shared-cacheable (%s)", async (_kind, path, dataPage) => {
    const res = await page(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=60");
    expect(parseHtml(res.text)("main").attr("data-page")).toBe(dataPage);
  });
});

describe("product details: labels and units from one table", () => {
  it("fixture attributes read as labels with units, booleans as Yes/No", async () => {
    const res = await page(`/p/${LISTED_PRODUCT}`);
    const $ = parseHtml(res.text);
    const row = (key: string) => {
      const r = $(`tr[data-attribute="${key}"]`);
      return [r.find("th").text(), r.find("td").text()];
    };
    expect(row("color")).toEqual(["Color", "Black"]);
    expect(row("storage_gb")).toEqual(["Storage", "128 GB"]);
    expect(row("wireless")).toEqual(["Wireless", "Yes"]);
  });

  it("a generated product's weight and warranty carry their units", async () => {
    const search = await api("/search?q=headphones&page_size=50");
    const slugs: string[] = search.json.data.map((p: { slug: string }) => p.slug);
    let checked = 0;
    for (const slug of slugs.slice(0, 10)) {
      const product = (await api(`/products/${slug}`)).json.data;
      const $ = parseHtml((await page(`/p/${slug}`)).text);
      if (typeof product.attributes.weight_g === "number") {
        const r = $('tr[data-attribute="weight_g"]');
        expect(r.find("th").text()).toBe("Weight");
        expect(r.find("td").text()).toBe(`${product.attributes.weight_g.toLocaleString("en-US")} g`);
        checked++;
      }
      if (typeof product.attributes.warranty_months === "number") {
        const r = $('tr[data-attribute="warranty_months"]');
        expect(r.find("th").text()).toBe("Warranty");
        expect(r.find("td").text()).toBe(`${product.attributes.warranty_months} months`);
      }
      expect($("tr[data-attribute] th").text()).not.toMatch(/_/);
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe("search page", () => {
  it("the header search box holds the query on the results page", async () => {
    const res = await page("/search?q=headphones");
    const $ = parseHtml(res.text);
    expect($('header form[role="search"] input[name="q"]').attr("value")).toBe("headphones");
  });

  it("elsewhere the header search box is empty", async () => {
    const $ = parseHtml((await page("/help?q=headphones")).text);
    expect($('header form[role="search"] input[name="q"]').attr("value")).toBeUndefined();
  });

  it("numbered pagination: first, previous, a window of pages, next, last, the current one marked", async () => {
    const res = await page("/search?page_size=5&page=4");
    const parsed = parseSearchPage(res.text);
    expect(parsed.pageNumber).toBe(4);
    const $ = parseHtml(res.text);
    const nav = $("nav[data-pagination]");
    const link = (name: string) => nav.find(`a[data-page-link="${name}"]`);
    expect(link("first").attr("href")).toBe("/search?page_size=5");
    expect(link("previous").attr("href")).toBe("/search?page_size=5&page=3");
    expect(link("previous").attr("rel")).toBe("prev");
    expect(link("next").attr("href")).toBe("/search?page_size=5&page=5");
    expect(link("next").attr("rel")).toBe("next");
    expect(link("last").attr("href")).toBe(`/search?page_size=5&page=${parsed.pageCount}`);
    const numbers = nav.find("a[data-page-link]").toArray().map((a) => $(a).attr("data-page-link")).filter((v) => /^\d+$/.test(v!));
    expect(numbers).toEqual(["2", "3", "4", "5", "6"]);
    expect(nav.find('a[aria-current="page"]').attr("data-page-link")).toBe("4");
    expect(nav.find("a[aria-current]").length).toBe(1);
  });

  it("the first page has neither first nor previous; the last has neither next nor last", async () => {
    const first = parseHtml((await page("/search?page_size=5")).text);
    expect(first('a[data-page-link="first"], a[rel="prev"]').length).toBe(0);
    expect(first('nav[data-pagination] a[aria-current="page"]').attr("data-page-link")).toBe("1");
    const count = parseSearchPage((await page("/search?page_size=5")).text).pageCount!;
    const last = parseHtml((await page(`/search?page_size=5&page=${count}`)).text);
    expect(last('a[data-page-link="last"], a[rel="next"]').length).toBe(0);
    expect(last('nav[data-pagination] a[aria-current="page"]').attr("data-page-link")).toBe(String(count));
  });

  it("“Clear all filters” keeps q and sort, drops the filters; absent without filters", async () => {
    const res = await page("/search?q=headphones&brand=voltix&condition=new&price_min_cents=2500&price_max_cents=5000&sort=price_asc&page=2");
    const $ = parseHtml(res.text);
    expect($("a[data-clear-filters]").attr("href")).toBe("/search?q=headphones&sort=price_asc");
    const plain = parseHtml((await page("/search?q=headphones")).text);
    expect(plain("a[data-clear-filters]").length).toBe(0);
  });

  it("the sort form still has its button and keeps the other parameters", async () => {
    const $ = parseHtml((await page("/search?q=headphones&brand=voltix")).text);
    const form = $("form[data-sort-form]");
    expect(form.find('button[type="submit"]').length).toBe(1);
    expect(form.find('input[type="hidden"][name="q"]').attr("value")).toBe("headphones");
    expect(form.find('select[name="sort"]').length).toBe(1);
  });
});
