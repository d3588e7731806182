import { describe, expect, it } from "vitest";
import { priceBuckets } from "./price-buckets";

describe("price facet buckets (decisions.md)", () => {
  const buckets = priceBuckets([0, 2500, 5000, 10000, 20000, 50000]);

  it("has values {min}-{max} in cents with an open last bucket", () => {
    expect(buckets.map((b) => b.value)).toEqual([
      "0-2500",
      "2500-5000",
      "5000-10000",
      "10000-20000",
      "20000-50000",
      "50000-",
    ]);
  });

  it("has human labels", () => {
    expect(buckets.map((b) => b.label)).toEqual([
      "Under $25",
      "$25 to $50",
      "$50 to $100",
      "$100 to $200",
      "$200 to $500",
      "$500 & up",
    ]);
  });

  it("assigns one bit per bucket, in order", () => {
    expect(buckets.map((b) => b.bit)).toEqual([1, 2, 4, 8, 16, 32]);
  });
});
