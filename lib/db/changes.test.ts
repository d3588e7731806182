/**
 * lib/db/changes.ts parseCatalogChange: the payloads the catalog triggers send on the channel
 * catalog_changes (prisma/migrations/*_catalog_notify, *_facet_counts), and what anything else
 * becomes (null: ignored by the listener).
 */
import { describe, expect, it } from "vitest";
import { parseCatalogChange } from "./changes";

const A = "117c67c0-cc13-4f54-9a59-ad14ed46ddda";
const B = "0021fa43-cd9b-498c-8b53-fbceb091fa31";

describe("parseCatalogChange", () => {
  it("search", () => {
    expect(parseCatalogChange("search")).toEqual({ kind: "search" });
  });

  it("products:* is every product", () => {
    expect(parseCatalogChange("products:*")).toEqual({ kind: "products", ids: "all" });
  });

  it("products:<id> and products:<id>,<id> name the products, in lower case", () => {
    expect(parseCatalogChange(`products:${A}`)).toEqual({ kind: "products", ids: [A] });
    expect(parseCatalogChange(`products:${A},${B.toUpperCase()}`)).toEqual({ kind: "products", ids: [A, B] });
  });

  it("a hundred ids (the most a trigger names) parse", () => {
    const ids = Array.from({ length: 100 }, (_, i) => `${i.toString(16).padStart(8, "0")}-0000-4000-8000-000000000000`);
    expect(parseCatalogChange(`products:${ids.join(",")}`)).toEqual({ kind: "products", ids });
  });

  it.each([
    "",
    "Search",
    "search ",
    "products",
    "products:",
    "products:**",
    `products:${A},`,
    `products: ${A}`,
    `products:${A},*`,
    `products:${A};${B}`,
    "products:not-a-uuid",
    `product:${A}`,
    "stores:*",
  ])("%j is unknown (null)", (payload) => {
    expect(parseCatalogChange(payload)).toBeNull();
  });
});
