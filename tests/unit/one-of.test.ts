import { describe, expect, it } from "vitest";
import { CreateListing, InventoryAdjustment } from "@/lib/schemas/seller/listings";

const base = { sku: "SKU-1", condition: "new", price_cents: 100 };
const messages = (schema: typeof CreateListing | typeof InventoryAdjustment, body: unknown) => {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join("."), i.message, i.code === "custom" ? (i.params?.missing ?? false) : false]);
};

describe("exactlyOneOf: the message names every alternative", () => {
  it("none given: reported at the first alternative as missing, naming all of them", () => {
    expect(messages(CreateListing, base)).toEqual([["product_id", "give exactly one of product_id, gtin or product", true]]);
    expect(messages(InventoryAdjustment, { listing_id: "00000000-0000-4000-8000-000000000000" })).toContainEqual(["delta", "give exactly one of delta or set_quantity", true]);
  });

  it("two given: reported at the second, naming all and what was given", () => {
    expect(messages(CreateListing, { ...base, product_id: "p", gtin: "00012345678905" })).toEqual([
      ["gtin", "give exactly one of product_id, gtin or product (product_id and gtin were given)", false],
    ]);
  });

  it("one given: no issue", () => {
    expect(messages(CreateListing, { ...base, product_id: "p" })).toEqual([]);
  });
});
