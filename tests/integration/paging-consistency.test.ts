/**
 * Spec 4.1: total, page_count and the pages agree. The total comes from the counts statement
 * and the cards from the page statement (which pre-filters before evaluating offers), so
 * walking every page of a filtered query must yield exactly `total` distinct products.
 */
import { describe, expect, it } from "vitest";
import { search } from "../helpers/http";

const queries: Array<Record<string, string | number>> = [
  { condition: "new" },
  { condition: "used,refurbished", price_min_cents: 2500 },
  { price_min_cents: 5000, price_max_cents: 10000, sort: "price_asc" },
  { category: "electronics", condition: "like_new,very_good,good", sort: "price_desc" },
  { q: "headphones", condition: "new", price_max_cents: 20000 },
  { price_min_cents: 50000, sort: "newest" },
];

describe("walking every page yields exactly `total` distinct products", () => {
  it.each(queries)("%o", async (params) => {
    const first = await search({ ...params, page_size: 60 });
    expect(first.status).toBe(200);
    const { total, page_count } = first.json.meta;
    expect(total).toBeGreaterThan(0);
    expect(page_count).toBe(Math.ceil(total / 60));
    const slugs: string[] = first.json.data.map((c: any) => c.slug);
    for (let page = 2; page <= page_count; page++) {
      const res = await search({ ...params, page_size: 60, page });
      expect(res.status).toBe(200);
      expect(res.json.meta.total).toBe(total);
      slugs.push(...res.json.data.map((c: any) => c.slug));
    }
    expect(slugs.length).toBe(total);
    expect(new Set(slugs).size).toBe(total);
    const past = await search({ ...params, page_size: 60, page: page_count + 1 });
    expect(past.json.data).toEqual([]);
  });
});
