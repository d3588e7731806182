/**
 * MCP tool arguments (lib/mcp/arguments.ts): JSON arguments become exactly the API's validated
 * input, by the API's own schemas, or the API's AppError naming the argument.
 */
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseQuery } from "@/lib/http/query";
import { bodyArguments, searchArguments, searchInputSchema } from "@/lib/mcp/arguments";
import { CartLinkRequest } from "@/lib/schemas/cart";
import { SearchQuery } from "@/lib/schemas/catalog";

const api = (qs: string) => parseQuery(SearchQuery, new URLSearchParams(qs));

function refused(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected the arguments to be refused");
}

describe("search_products arguments: JSON types in, the API's parameters out", () => {
  it.each([
    [{}, ""],
    [{ page: 2, page_size: 5 }, "page=2&page_size=5"],
    [{ page: "2", page_size: "5" }, "page=2&page_size=5"],
    [{ brand: ["acme", "zeta"] }, "brand=acme&brand=zeta"],
    [{ brand: "acme,zeta" }, "brand=acme,zeta"],
    [{ condition: ["new", "used", "new"] }, "condition=new&condition=used"],
    [{ brand: [] }, ""],
    [{ price_min_cents: 0, price_max_cents: 2500 }, "price_min_cents=0&price_max_cents=2500"],
    [{ page_size: 10_000 }, "page_size=10000"],
    [{ page_size: 1e300 }, "page_size=60"],
    [{ q: "  lamp  ", sort: "newest" }, "q=lamp&sort=newest"],
    [{ q: null, category: null, page: null }, ""],
  ])("%j is what GET /search?%s gets", (args, qs) => {
    expect(searchArguments(args)).toEqual(api(qs));
  });

  it.each([
    [{ page: 0 }, "page=0"],
    [{ page: 1.5 }, "page=1.5"],
    [{ page: -3 }, "page=-3"],
    [{ page: 1e21 }, "page=1000000000000000000000"],
    [{ q: "x".repeat(201) }, `q=${"x".repeat(201)}`],
    [{ condition: ["mint"] }, "condition=mint"],
    [{ brand: Array.from({ length: 51 }, (_, i) => `b${i}`) }, `brand=${Array.from({ length: 51 }, (_, i) => `b${i}`).join(",")}`],
    [{ price_min_cents: 10, price_max_cents: 10 }, "price_min_cents=10&price_max_cents=10"],
  ])("%j is refused as GET /search?%s is", (args, qs) => {
    const tool = refused(() => searchArguments(args));
    const query = refused(() => api(qs));
    expect({ code: tool.code, param: tool.param, message: tool.message }).toEqual({ code: query.code, param: query.param, message: query.message });
  });

  it.each([
    [{ page: true }, "page", "Invalid 'page': must be an integer."],
    [{ page: [1, 2] }, "page", "Invalid 'page': must be an integer."],
    [{ page: Number.NaN }, "page", "Invalid 'page': must be an integer."],
    [{ q: 42 }, "q", "Invalid 'q': must be a string."],
    [{ sort: ["newest"] }, "sort", "Invalid 'sort': must be a string."],
    [{ brand: [1] }, "brand", "Invalid 'brand': must be an array of strings."],
    [{ condition: { new: true } }, "condition", "Invalid 'condition': must be an array of strings."],
    [{ colour: "red" }, "colour", "Unknown field 'colour'."],
  ])("%j is refused naming %s", (args, param, message) => {
    const err = refused(() => searchArguments(args));
    expect(err).toMatchObject({ code: "parameter_invalid", param, message });
  });

  it("advertises JSON types, from the same schema as openapi.json, and no other arguments", () => {
    const schema = searchInputSchema() as { type: string; properties: Record<string, { type: string }>; additionalProperties: boolean };
    expect(schema.type).toBe("object");
    expect(schema.additionalProperties).toBe(false);
    expect(Object.fromEntries(Object.entries(schema.properties).map(([name, p]) => [name, p.type]))).toEqual({
      q: "string",
      category: "string",
      brand: "array",
      condition: "array",
      price_min_cents: "integer",
      price_max_cents: "integer",
      sort: "string",
      page: "integer",
      page_size: "integer",
    });
  });
});

describe("body-shaped arguments: validated as the API validates a body", () => {
  const id = "7d0f6c1e-3c2a-4b8e-9f51-2a9c8d1e4b07";

  it("accepts what POST /cart-links accepts", () => {
    expect(bodyArguments(CartLinkRequest, { items: [{ listing_id: id.toUpperCase(), quantity: 2 }] })).toEqual({
      items: [{ listing_id: id, quantity: 2 }],
    });
  });

  it.each([
    [{}, "parameter_missing", "items"],
    [{ items: null }, "parameter_missing", "items"],
    [{ items: [{ listing_id: id, quantity: 0 }] }, "parameter_invalid", "items[0].quantity"],
    [{ items: [{ listing_id: id, quantity: 1, note: "x" }] }, "parameter_invalid", "items[0].note"],
    [{ items: [{ listing_id: id, quantity: 1 }], note: "x" }, "parameter_invalid", "note"],
  ])("%j: %s naming %s", (args, code, param) => {
    expect(refused(() => bodyArguments(CartLinkRequest, args))).toMatchObject({ code, param });
  });
});
