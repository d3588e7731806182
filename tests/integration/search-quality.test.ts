/**
 * decisions.md "Search forgives the way people and agents type", through GET /search: relaxed
 * matching ranked by coverage, typo correction, the last word as a prefix, attribute words,
 * Unicode folding, no query syntax in plain words, and the two headers that say what happened.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { parseHtml } from "../helpers/html";
import { api, baseUrl, expectParamInvalid, expectSuccessEnvelope, search } from "../helpers/http";

const slugs = (res: { json: any }) => res.json.data.map((c: any) => c.slug as string);
const titles = (res: { json: any }) => res.json.data.map((c: any) => c.title as string);
const corrected = (res: { headers: Headers }) => {
  const value = res.headers.get("x-corrected-query");
  return value === null ? null : decodeURIComponent(value);
};
const relaxed = (res: { headers: Headers }) => res.headers.get("x-query-relaxed");
const FIXTURES = ["fixture-backorder-only", "fixture-mixed-offers"];

describe("Every word matching: the full matches, nothing said", () => {
  it("a known word is never corrected or relaxed", async () => {
    const res = await search({ q: "Quokkaphone" });
    expectSuccessEnvelope(res);
    expect(res.json.meta.total).toBe(2);
    expect(corrected(res)).toBeNull();
    expect(relaxed(res)).toBeNull();
  });

  it("two words that occur together give only products with both", async () => {
    const both = await search({ q: "wireless headphones", page_size: 60 });
    const one = await search({ q: "headphones", page_size: 60 });
    expect(both.json.meta.total).toBeGreaterThan(0);
    expect(both.json.meta.total).toBeLessThan(one.json.meta.total);
    expect(relaxed(both)).toBeNull();
  });

  it("stop words never had to match: `for` and `with` change nothing", async () => {
    const plain = await search({ q: "Quokkaphone" });
    const filler = await search({ q: "for Quokkaphone with the" });
    expect(slugs(filler)).toEqual(slugs(plain));
    expect(relaxed(filler)).toBeNull();
  });
});

describe("Relaxed matching: X-Query-Relaxed: true, products covering most of the query first", () => {
  it("an unknown extra word (no correction) is dropped: the rest still matches", async () => {
    const res = await search({ q: "Quokkaphone zorblattiq" });
    expect(res.json.meta.total).toBe(2);
    expect(slugs(res).sort()).toEqual(FIXTURES);
    expect(relaxed(res)).toBe("true");
    expect(corrected(res)).toBeNull();
  });

  it("filler people type (`cheap`, `best`, `men's`) never empties the page", async () => {
    for (const q of ["cheap Quokkaphone", "best Quokkaphone for men's", "Quokkaphone cheap"]) {
      const res = await search({ q });
      expect(res.json.meta.total, q).toBeGreaterThanOrEqual(2);
      expect(slugs(res).slice(0, 2).sort(), q).toEqual(FIXTURES);
    }
  });

  it("words no product has together: the rarer word's products rank first, the header says so", async () => {
    const res = await search({ q: "Quokkaphone headphones", page_size: 60 });
    expect(relaxed(res)).toBe("true");
    const headphones = await search({ q: "headphones" });
    // Products with either word; those with the rare one (2 products) cover more of the query.
    expect(res.json.meta.total).toBe(headphones.json.meta.total + 2);
    expect(slugs(res).slice(0, 2).sort()).toEqual(FIXTURES);
  });

  it("total, paging and facets describe the relaxed set", async () => {
    const first = await search({ q: "Quokkaphone headphones", page_size: 5 });
    const second = await search({ q: "Quokkaphone headphones", page_size: 5, page: 2 });
    expect(second.json.meta.total).toBe(first.json.meta.total);
    const overlap = slugs(first).filter((s: string) => slugs(second).includes(s));
    expect(overlap).toEqual([]);
    const categoryTotal = first.json.meta.facets.category.reduce((sum: number, f: any) => sum + f.count, 0);
    expect(categoryTotal).toBe(first.json.meta.total);
  });

  it("a query of words that match nothing at all gives an empty page", async () => {
    const res = await search({ q: "zorblattiq xqzvvkjw" });
    expect(res.json.meta.total).toBe(0);
    expect(res.json.data).toEqual([]);
  });
});

describe("Typo tolerance: one edit from 5 letters, two from 9; X-Corrected-Query names the query run", () => {
  it.each([
    ["Quokkaphnoe", "swap of adjacent letters"],
    ["Quokkaphne", "deleted letter"],
    ["Quokkaphoone", "inserted letter"],
    ["Quokkaphane", "substituted letter"],
    ["Qokkaphoen", "two edits in an 11-letter word"],
  ])("%s (%s) finds the Quokkaphone products", async (q) => {
    const res = await search({ q });
    expect(slugs(res).sort()).toEqual(FIXTURES);
    expect(corrected(res)).toBe("quokkaphone");
  });

  it("the header is percent-encoded UTF-8 of the whole query run, the correct words kept", async () => {
    const res = await search({ q: "wireless headphnes" });
    expect(res.headers.get("x-corrected-query")).toBe("wireless%20headphones");
    const exact = await search({ q: "wireless headphones" });
    expect(slugs(res)).toEqual(slugs(exact));
  });

  it("three edits are too many; a word under 5 letters is never corrected", async () => {
    expect((await search({ q: "Qokaphoen" })).json.meta.total).toBe(0);
    const short = await search({ q: "Quokkaphone silc" });
    expect(corrected(short)).toBeNull();
  });

  it("the CORS answer exposes both headers to browsers", async () => {
    const res = await search({ q: "Quokkaphnoe" });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(["X-Corrected-Query", "X-Query-Relaxed"]));
  });
});

describe("The last word matches as a prefix, as typed", () => {
  it("`Quokkaph` finds the Quokkaphone products without a correction", async () => {
    const res = await search({ q: "Quokkaph" });
    expect(slugs(res).sort()).toEqual(FIXTURES);
    expect(corrected(res)).toBeNull();
    expect(relaxed(res)).toBeNull();
  });

  it("`headp` finds headphones first", async () => {
    const res = await search({ q: "headp", page_size: 10 });
    expect(res.json.meta.total).toBeGreaterThan(0);
    for (const title of titles(res)) expect(title.toLowerCase()).toMatch(/headp/);
  });

  it("only the last word: a half word elsewhere must match as typed", async () => {
    expect((await search({ q: "Quokkaph" })).json.meta.total).toBe(2);
    const res = await search({ q: "Quokkaph headphones" });
    expect(relaxed(res)).toBe("true");
  });
});

describe("Unicode: NFKC, case and diacritics fold in query and index alike", () => {
  it.each(["ＱＵＯＫＫＡＰＨＯＮＥ", "QUOKKAPHONE", "Quökkàphóne", "quokkaphone"])("%s", async (q) => {
    const res = await search({ q });
    expect(slugs(res).sort()).toEqual(FIXTURES);
    expect(corrected(res)).toBeNull();
  });
});

describe("Plain words: no query syntax leaks", () => {
  it.each([
    ["a 600-letter word after NFKC (ﬃ x 200)", "ﬃ".repeat(200)],
    ["a ligature NFKC expands 18-fold (ﷺ x 200)", "ﷺ".repeat(200)],
    ["200 one-letter words", "a b ".repeat(50).trim()],
    ["a right-to-left override", "head\u202ephones"],
    ["tsquery operators only", "!& | <-> :* ( ) '"],
  ])("%s: 200 in the envelope", async (_name, q) => {
    const res = await search({ q });
    expectSuccessEnvelope(res);
  });

  it("NUL and control characters are refused as before: 400 naming q", async () => {
    expectParamInvalid(await search({ q: "head\u0000phones" }), "q");
    expectParamInvalid(await search({ q: "headphones\u0007" }), "q");
  });

  it("an exact title with a spaced hyphen finds that product first", async () => {
    const candidates = await search({ q: "headphones", page_size: 60 });
    const title = titles(candidates).find((t: string) => t.includes(" - "));
    expect(title, "the seed has a title with a spaced hyphen").toBeDefined();
    const res = await search({ q: title });
    expect(res.json.data[0].title).toBe(title);
    expect(relaxed(res)).toBeNull();
  });

  it("a word with a leading minus excludes products containing it", async () => {
    const all = await search({ q: "headphones", page_size: 60 });
    const some = await search({ q: "headphones -wireless", page_size: 60 });
    expect(some.json.meta.total).toBeGreaterThan(0);
    expect(some.json.meta.total).toBeLessThan(all.json.meta.total);
    for (const title of titles(some)) expect(title.toLowerCase()).not.toContain("wireless");
  });
});

describe("Attribute words are in the document with the lowest weight", () => {
  const client: PrismaClient = createDb(inject("DATABASE_URL"));
  afterAll(() => client.$disconnect());

  it("a colour, a material and a true flag of the attributes are searchable, weighted D", async () => {
    const rows = await client.$queryRaw<{ attributes: Record<string, unknown>; vector: string }[]>`
      SELECT attributes, search_vector::text AS vector FROM products
      WHERE attributes ? 'color' AND attributes ? 'material' AND attributes @> '{"wireless": true}' LIMIT 1`;
    expect(rows.length, "the seed has such a product").toBe(1);
    const [{ attributes, vector }] = rows as [{ attributes: Record<string, string>; vector: string }];
    const lexemes = await client.$queryRaw<{ lexeme: string }[]>`
      SELECT unnest(tsvector_to_array(to_tsvector('catalog', ${`${attributes.color} ${attributes.material} wireless`}))) AS lexeme`;
    expect(lexemes.length).toBeGreaterThanOrEqual(3);
    for (const { lexeme } of lexemes) {
      // `'red':3A,17`: positions with their weight letter; D, the lowest, is printed without one.
      const positions = vector.match(new RegExp(`'${lexeme}':(\\S+)`))?.[1]?.split(",") ?? [];
      expect(positions.some((p) => /^\d+$/.test(p)), `${lexeme} in ${vector}`).toBe(true);
    }
  });

  it("an attribute value finds products whose title and description lack it", async () => {
    const [row] = await client.$queryRaw<{ slug: string; color: string }[]>`
      SELECT p.slug, p.attributes->>'color' AS color
      FROM products p JOIN product_search ps ON ps.product_id = p.id
      WHERE p.attributes->>'color' ~ '^[A-Za-z]{5,}$'
        AND position(lower(p.attributes->>'color') IN lower(p.title || ' ' || coalesce(p.description, ''))) = 0
      ORDER BY p.slug LIMIT 1`;
    expect(row, "the seed has such a product").toBeDefined();
    const res = await api(`/search?q=${encodeURIComponent(row!.color)}&page_size=60`);
    expect(res.json.meta.total).toBeGreaterThan(0);
    let found = slugs(res).includes(row!.slug);
    for (let page = 2; !found && page <= res.json.meta.page_count; page++) {
      found = slugs(await api(`/search?q=${encodeURIComponent(row!.color)}&page_size=60&page=${page}`)).includes(row!.slug);
    }
    expect(found).toBe(true);
  });
});

describe("The storefront says how it read the words and offers a way on", () => {
  const page = async (query: Record<string, string>) => {
    const res = await api(`${baseUrl()}/search?${new URLSearchParams(query)}`);
    expect(res.status).toBe(200);
    return parseHtml(res.text);
  };

  it("a corrected query: 'Showing results for' the query run, and a link that searches the words as typed", async () => {
    const $ = await page({ q: "wireless headphnes" });
    const notice = $("[data-query-notice=corrected]");
    expect(notice.text()).toContain("Showing results for wireless headphones.");
    const link = notice.find("a");
    expect(link.text()).toBe("Search instead for “wireless headphnes”");
    const href = new URL(link.attr("href")!, baseUrl());
    expect(href.pathname).toBe("/search");
    expect(href.searchParams.get("q")).toBe("wireless headphnes");
    expect(href.searchParams.get("exact")).toBe("1");

    // As typed, `headphnes` matches nothing: no correction, no notice, the way-on suggestions.
    const exact = await page(Object.fromEntries(href.searchParams));
    expect(exact("main").attr("data-total")).toBe("0");
    expect(exact("[data-query-notice]").length).toBe(0);
    expect(exact("[data-suggested-term=headphones]").length).toBe(1);
  });

  it("a relaxed query says that not every word matched", async () => {
    const $ = await page({ q: "Quokkaphone headphones" });
    expect($("[data-query-notice=relaxed]").text()).toContain("No product matches every word");
    expect($("[data-query-notice=corrected]").length).toBe(0);
  });

  it("a query read word for word shows no notice and no suggestions", async () => {
    const $ = await page({ q: "Quokkaphone" });
    expect($("[data-query-notice]").length).toBe(0);
    expect($("[data-suggestions]").length).toBe(0);
  });

  it("an empty page offers similar catalog words and categories to browse", async () => {
    const $ = await page({ q: "zorblattiq" });
    expect($("main").attr("data-total")).toBe("0");
    expect($("[data-suggestions] h2").text()).toBe("Try instead");
    const categories = $("[data-suggested-category]").map((_, a) => $(a).attr("href")).get();
    expect(categories.length).toBeGreaterThan(0);
    for (const href of categories) expect(href).toMatch(/^\/c\/[a-z0-9_]+$/);
    const headphones = await page({ q: "headphonez zorblattiq" });
    // `headphonez` is corrected, so this one is not empty and offers nothing.
    expect(headphones("[data-suggestions]").length).toBe(0);
  });
});
