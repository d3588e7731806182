/**
 * Spec 1: money is integer minor units; inventory depth is never exposed (only `in_stock`).
 * One recursive scan over a set of responses that covers every public read.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, findInventoryLeak, flattenCategories, search, type ApiResponse } from "../helpers/http";

const INTEGER_KEYS = new Set(["count", "total", "page", "page_size", "page_count", "offer_count", "rating_count", "width", "height"]);
const NULLABLE_INTEGER_KEYS = new Set(["min_price_cents", "width", "height"]);

interface TypeProblem {
  path: string;
  value: unknown;
}

/** Every *_cents and count-like field is an integer; rating_avg is a number or null. */
function findTypeProblems(json: unknown): TypeProblem[] {
  const problems: TypeProblem[] = [];
  const walk = (node: unknown, path: string, inAttributes: boolean) => {
    if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${path}[${i}]`, inAttributes));
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const p = path ? `${path}.${key}` : key;
      // Product attributes are free-form seller data, not fields of the contract.
      const attrs = inAttributes || key === "attributes";
      if (!attrs) {
        const isInt = Number.isInteger(value);
        if (key.endsWith("_cents") || INTEGER_KEYS.has(key)) {
          const nullable = NULLABLE_INTEGER_KEYS.has(key);
          if (!(isInt || (nullable && value === null))) problems.push({ path: p, value });
        }
        if (key === "rating_avg" && !(value === null || (typeof value === "number" && Number.isFinite(value)))) {
          problems.push({ path: p, value });
        }
        if (key === "rating_avg" && typeof value === "number" && (value < 0 || value > 5)) {
          problems.push({ path: p, value });
        }
      }
      walk(value, p, attrs);
    }
  };
  walk(json, "", false);
  return problems;
}

describe("Response set covering every public read", () => {
  const responses: [string, ApiResponse][] = [];

  beforeAll(async () => {
    const paths = [
      "/search",
      "/search?q=Quokkaphone",
      "/search?q=Quokkaphone&condition=like_new",
      "/search?q=Wombatwidget",
      "/search?sort=price_desc&page_size=60",
      "/search?sort=newest&page=2",
      "/search?condition=used,refurbished&price_min_cents=1000",
      "/categories",
      "/products/fixture-mixed-offers",
      "/products/fixture-backorder-only",
      "/products/fixture-draft-only",
      "/products/fixture-suspended-only",
      "/products/fixture-in-inactive-category",
    ];
    for (const p of paths) responses.push([p, await api(p)]);
    const cats = flattenCategories(responses.find(([p]) => p === "/categories")![1].json.data);
    const leaf = cats.find((c) => c.children.length === 0)!;
    responses.push([`/search?category=${leaf.slug}`, await search({ category: leaf.slug })]);
    // A spread of ordinary products too.
    const browse = await search({ sort: "price_desc", page_size: 8 });
    for (const card of browse.json.data) {
      const p = `/products/${card.slug}`;
      responses.push([p, await api(p)]);
    }
  });

  it("all responses are 200", () => {
    for (const [path, res] of responses) expect(res.status, path).toBe(200);
  });

  it("every *_cents and count is an integer; rating_avg is null or a number in [0, 5]", () => {
    const problems = responses.flatMap(([path, res]) =>
      findTypeProblems(res.json).map((x) => `${path} ${x.path} = ${JSON.stringify(x.value)}`),
    );
    expect(problems).toEqual([]);
  });

  it("no response carries an inventory count (only the boolean in_stock of an offer)", () => {
    const leaks = responses.flatMap(([path, res]) =>
      findInventoryLeak(res.json).map((l) => `${path} ${l.path} = ${JSON.stringify(l.value)}`),
    );
    expect(leaks).toEqual([]);
  });

  it("in_stock is a boolean wherever it appears", () => {
    for (const [path, res] of responses) {
      for (const o of res.json?.data?.offers ?? []) expect(typeof o.in_stock, path).toBe("boolean");
    }
  });

  it("no quantity of a fixture listing appears as a number next to an offer", () => {
    // MIX-NEW-A has 5 units, MIX-NEW-B 3, MIX-USED-B 2: no offer field may carry them.
    const p = responses.find(([path]) => path === "/products/fixture-mixed-offers")![1].json.data;
    for (const o of p.offers) {
      const numbers = Object.entries(o)
        .filter(([, v]) => typeof v === "number")
        .map(([k]) => k)
        .sort();
      expect(numbers).toEqual(["list_price_cents", "price_cents"]);
    }
  });
});

describe("findInventoryLeak (the scanner itself)", () => {
  it("finds disguised counts and allows the documented count fields by exact path", () => {
    const body = {
      data: [{ offer_count: 2, rating_count: 1, stock: 3, extra: { available_quantity: 1 } }],
      meta: { total: 1, count: 1, facets: { brand: [{ value: "x", label: "X", count: 1 }] }, qty: 4 },
    };
    expect(findInventoryLeak(body).map((l) => l.path)).toEqual([
      "data[].stock",
      "data[].extra.available_quantity",
      "meta.qty",
    ]);
    expect(findInventoryLeak({ data: { offers: [{ in_stock: true, quantity: 2 }], units: 1 } }).map((l) => l.path)).toEqual([
      "data.offers[].quantity",
      "data.units",
    ]);
    expect(findInventoryLeak({ data: [{ count: 1 }] }).map((l) => l.path)).toEqual(["data[].count"]);
    expect(
      findInventoryLeak({ data: { stockLevel: 1, count_on_hand: 2, unitsLeft: 3, country: "US", discount: 1 } }).map(
        (l) => l.path,
      ),
    ).toEqual(["data.stockLevel", "data.count_on_hand", "data.unitsLeft"]);
  });
});
