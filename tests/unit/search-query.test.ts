import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseQuery } from "@/lib/http/query";
import { SearchQuery } from "@/lib/schemas/catalog";

const parse = (qs: string) => parseQuery(SearchQuery, new URLSearchParams(qs));
const rejected = (qs: string): AppError => {
  try {
    parse(qs);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error(`expected '${qs}' to be rejected`);
};

describe("search parameters (spec 4.1)", () => {
  it("defaults page 1, page_size 24, sort relevance", () => {
    expect(parse("")).toMatchObject({ page: 1, page_size: 24, sort: "relevance" });
  });

  it("clamps page_size above 60 to 60, however large", () => {
    expect(parse("page_size=61").page_size).toBe(60);
    expect(parse("page_size=99999999999999999999999").page_size).toBe(60);
  });

  it.each([
    ["page=0", "page"],
    ["page=501", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["page=-1", "page"],
    ["page_size=0", "page_size"],
    ["page_size=abc", "page_size"],
    ["sort=cheapest", "sort"],
    ["condition=brand_new", "condition"],
    ["price_min_cents=-1", "price_min_cents"],
    ["price_min_cents=2147483648", "price_min_cents"],
    ["price_min_cents=500&price_max_cents=500", "price_max_cents"],
    ["category=Not-A-Slug", "category"],
    [`q=${"a".repeat(201)}`, "q"],
    ["q=a%00b", "q"],
    ["page=1&page=2", "page"],
    ["q=a&q=b", "q"],
    [`brand=${Array.from({ length: 51 }, (_, i) => `b${i}`).join(",")}`, "brand"],
  ])("rejects %s naming %s", (qs, param) => {
    const err = rejected(qs);
    expect(err.code).toBe("parameter_invalid");
    expect(err.param).toBe(param);
  });

  it("counts q length in characters, not UTF-16 units", () => {
    expect(parse(`q=${encodeURIComponent("😀".repeat(200))}`).q).toBe("😀".repeat(200));
  });

  it("accepts lists repeated or comma-separated, deduplicated", () => {
    expect(parse("brand=a,b&brand=b&brand=c").brand).toEqual(["a", "b", "c"]);
    expect(parse("condition=new,used").condition).toEqual(["new", "used"]);
  });

  it("treats a blank q as no query and ignores unknown parameters", () => {
    expect(parse("q=%20%20&utm_source=x").q).toBeUndefined();
  });
});
