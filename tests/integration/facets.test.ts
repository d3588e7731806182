/**
 * Spec 2.2 (facet entries) and decisions.md "Catalog semantics": disjunctive facets, the
 * category/brand/condition/price facet values, price buckets with an exclusive max.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  api,
  CONDITIONS,
  expectSuccessEnvelope,
  flattenCategories,
  mapLimit,
  search,
  type ApiResponse,
  type CategoryNode,
} from "../helpers/http";

type Facet = { value: string; label: string; count: number };
const byValue = (entries: Facet[]) => [...entries].sort((a, b) => a.value.localeCompare(b.value));

function bucketParams(value: string): Record<string, string> {
  const [min = "", max = ""] = value.split("-");
  return max === "" ? { price_min_cents: min } : { price_min_cents: min, price_max_cents: max };
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US")}`;

describe("Facets are disjunctive: a facet's counts ignore that facet's own filter", () => {
  let base: ApiResponse;
  beforeAll(async () => {
    base = await search();
    expectSuccessEnvelope(base);
  });

  it("with brand=X the brand facet still lists the other brands with the same counts", async () => {
    const brands: Facet[] = base.json.meta.facets.brand;
    expect(brands.length).toBeGreaterThanOrEqual(2);
    const x = brands[0]!.value;
    const filtered = await search({ brand: x });
    expectSuccessEnvelope(filtered);
    expect(byValue(filtered.json.meta.facets.brand)).toEqual(byValue(brands));
  });

  it("with condition=new the condition facet is unchanged", async () => {
    const filtered = await search({ condition: "new" });
    expectSuccessEnvelope(filtered);
    expect(byValue(filtered.json.meta.facets.condition)).toEqual(byValue(base.json.meta.facets.condition));
  });

  it("with a price range the price facet is unchanged", async () => {
    const filtered = await search({ price_min_cents: 2500, price_max_cents: 5000 });
    expectSuccessEnvelope(filtered);
    expect(byValue(filtered.json.meta.facets.price)).toEqual(byValue(base.json.meta.facets.price));
  });

  it("with brand=X the other facets do apply the brand filter", async () => {
    const x: Facet = base.json.meta.facets.brand[0];
    const filtered = await search({ brand: x.value });
    const conditionSum = filtered.json.meta.facets.condition.reduce((s: number, f: Facet) => s + f.count, 0);
    const priceSum = filtered.json.meta.facets.price.reduce((s: number, f: Facet) => s + f.count, 0);
    expect(filtered.json.meta.total).toBe(x.count);
    expect(conditionSum).toBeGreaterThanOrEqual(x.count);
    expect(priceSum).toBeGreaterThanOrEqual(x.count);
    const baseTotal = base.json.meta.total;
    if (x.count < baseTotal) {
      const baseConditionSum = base.json.meta.facets.condition.reduce((s: number, f: Facet) => s + f.count, 0);
      expect(conditionSum).toBeLessThan(baseConditionSum);
    }
  });
});

describe("Condition facet: values from spec 2.7, human labels, counts of matching products", () => {
  it("sum of condition counts >= total (a product may have offers in several conditions)", async () => {
    for (const params of [{}, { q: "Quokkaphone" }, { price_min_cents: 5000 }]) {
      const res = await search(params);
      expectSuccessEnvelope(res);
      const sum = res.json.meta.facets.condition.reduce((s: number, f: Facet) => s + f.count, 0);
      expect(sum).toBeGreaterThanOrEqual(res.json.meta.total);
    }
  });

  it("values are condition enum values with a human label ('Like new')", async () => {
    const res = await search();
    for (const f of res.json.meta.facets.condition as Facet[]) {
      expect(CONDITIONS).toContain(f.value);
      expect(f.label.length).toBeGreaterThan(0);
      expect(f.label).not.toContain("_");
      expect(f.count).toBeGreaterThan(0);
      if (f.value === "like_new") expect(f.label).toBe("Like new");
      if (f.value === "new") expect(f.label).toBe("New");
    }
  });

  it("applying a condition value gives total = its count", async () => {
    const res = await search();
    const entries: Facet[] = res.json.meta.facets.condition;
    expect(entries.length).toBeGreaterThan(0);
    for (const f of entries) {
      const applied = await search({ condition: f.value });
      expect(applied.json.meta.total, `condition=${f.value}`).toBe(f.count);
    }
  });
});

describe("Brand facet: value = brand slug, label = brand name; applying a value gives total = count", () => {
  it("every brand entry (up to 10) applied as brand=value gives total = count", async () => {
    const res = await search();
    const entries: Facet[] = res.json.meta.facets.brand;
    expect(entries.length).toBeGreaterThan(0);
    for (const f of entries.slice(0, 10)) {
      const applied = await search({ brand: f.value, page_size: 60 });
      expectSuccessEnvelope(applied);
      expect(applied.json.meta.total, `brand=${f.value}`).toBe(f.count);
      const card = applied.json.data[0];
      expect(card.brand).toEqual({ slug: f.value, name: f.label });
    }
  });

  it("within a query: q=Quokkaphone brand values applied give total = count", async () => {
    const res = await search({ q: "Quokkaphone" });
    for (const f of res.json.meta.facets.brand as Facet[]) {
      const applied = await search({ q: "Quokkaphone", brand: f.value });
      expect(applied.json.meta.total, `brand=${f.value}`).toBe(f.count);
    }
  });
});

describe("Category facet: the children of the current scope; applying a value gives total = count", () => {
  let tree: CategoryNode[] = [];
  beforeAll(async () => {
    tree = (await api("/categories")).json.data;
  });

  it("without category, the facet lists top-level categories (value = slug, label = name)", async () => {
    const res = await search();
    const entries: Facet[] = res.json.meta.facets.category;
    expect(entries.length).toBeGreaterThan(0);
    const top = new Map(tree.map((c) => [c.slug, c.name]));
    for (const f of entries) {
      expect(top.has(f.value), `${f.value} is top-level`).toBe(true);
      expect(f.label).toBe(top.get(f.value));
      expect(f.count).toBeGreaterThan(0);
    }
  });

  it("applying each top-level category value gives total = its count", async () => {
    const res = await search();
    const entries: Facet[] = res.json.meta.facets.category;
    const results = await mapLimit(entries, 6, (f) => search({ category: f.value }));
    entries.forEach((f, i) => expect(results[i]!.json.meta.total, `category=${f.value}`).toBe(f.count));
  });

  it("with category=<top>, the facet lists that category's children and their counts apply", async () => {
    const top = tree.find((c) => c.children.length > 0)!;
    expect(top).toBeDefined();
    const res = await search({ category: top.slug });
    expectSuccessEnvelope(res);
    const childSlugs = new Map(top.children.map((c) => [c.slug, c.name]));
    const entries: Facet[] = res.json.meta.facets.category;
    expect(entries.length).toBeGreaterThan(0);
    for (const f of entries) {
      expect(childSlugs.has(f.value), `${f.value} is a child of ${top.slug}`).toBe(true);
      expect(f.label).toBe(childSlugs.get(f.value));
      const applied = await search({ category: f.value });
      expect(applied.json.meta.total, `category=${f.value}`).toBe(f.count);
    }
  });

  it("fixture_inactive never appears as a category facet value", async () => {
    const slugs = flattenCategories(tree).filter((c) => c.children.length > 0).map((c) => c.slug);
    const results = await mapLimit([undefined, ...slugs], 6, (slug) => search(slug ? { category: slug } : {}));
    for (const r of results) {
      expect(r.json.meta.facets.category.map((f: Facet) => f.value)).not.toContain("fixture_inactive");
    }
    const w = await search({ q: "Wombatwidget" });
    expect(w.json.meta.facets.category.map((f: Facet) => f.value)).not.toContain("fixture_inactive");
  });
});

describe("Price facet: USD buckets '{min}-{max}' in cents, max exclusive, only counts > 0", () => {
  const queries: [string, Record<string, string>][] = [
    ["browse", {}],
    ["q=Quokkaphone", { q: "Quokkaphone" }],
    ["condition=new", { condition: "new" }],
  ];

  it.each(queries)("%s: values match ^\\d+-(\\d+)?$, labels match the bounds, counts > 0", async (_l, params) => {
    const res = await search(params);
    expectSuccessEnvelope(res);
    const entries: Facet[] = res.json.meta.facets.price;
    expect(entries.length).toBeGreaterThan(0);
    for (const f of entries) {
      expect(f.value).toMatch(/^\d+-(\d+)?$/);
      expect(f.count).toBeGreaterThan(0);
      const [min, max] = f.value.split("-").map((x) => (x === "" ? null : Number(x)));
      if (max === null) {
        expect(f.label).toBe(`${dollars(min!)} & up`);
      } else {
        expect(max).toBeGreaterThan(min!);
        expect([`${dollars(min!)} to ${dollars(max!)}`, ...(min === 0 ? [`Under ${dollars(max!)}`] : [])]).toContain(
          f.label,
        );
      }
    }
  });

  it.each(queries)("%s: each bucket applied as price_min_cents/price_max_cents gives total = its count", async (_l, params) => {
    const res = await search(params);
    const entries: Facet[] = res.json.meta.facets.price;
    const applied = await mapLimit(entries, 6, (f) => search({ ...params, ...bucketParams(f.value) }));
    entries.forEach((f, i) => {
      expectSuccessEnvelope(applied[i]!);
      expect(applied[i]!.json.meta.total, `bucket ${f.value}`).toBe(f.count);
    });
  });

  it("buckets are the documented ones, ordered by price", async () => {
    const res = await search();
    const known = ["0-2500", "2500-5000", "5000-10000", "10000-20000", "20000-50000", "50000-"];
    const values = res.json.meta.facets.price.map((f: Facet) => f.value);
    for (const v of values) expect(known).toContain(v);
    expect(values).toEqual(known.filter((k) => values.includes(k)));
  });

  it("when nothing matches, no zero-count bucket is listed", async () => {
    const res = await search({ q: "Quokkaphone", brand: "no-such-brand-zzz" });
    expectSuccessEnvelope(res);
    expect(res.json.meta.total).toBe(0);
    expect(res.json.meta.facets.price).toEqual([]);
  });
});
