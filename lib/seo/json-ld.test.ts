import { describe, expect, it } from "vitest";
import type { ProductRecordData } from "@/lib/schemas/catalog";
import { jsonLdScript, productJsonLd } from "./json-ld";

type Offer = ProductRecordData["offers"][number];

function offer(listing_id: string, price_cents: number, in_stock: boolean): Offer {
  return {
    listing_id,
    price_cents,
    list_price_cents: price_cents,
    currency: "USD",
    condition: "new",
    condition_label: "New",
    store_name: "Store",
    store_slug: "store",
    in_stock,
    on_sale: false,
  };
}

function product(overrides: Partial<ProductRecordData> = {}): ProductRecordData {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    slug: "quokkaphone-x",
    title: "Quokkaphone X",
    description: "A phone for quokkas.",
    url: "https://shop.example.com/p/quokkaphone-x",
    brand: { slug: "acme", name: "Acme" },
    category_breadcrumb: [
      { slug: "electronics", name: "Electronics" },
      { slug: "phones", name: "Phones" },
    ],
    gtin: "4006381333931",
    mpn: "QX-1",
    attributes: { color: "brown" },
    images: [
      { url: "https://shop.example.com/images/qx-1.jpg", alt: "front", width: 800, height: 800 },
      { url: "https://shop.example.com/images/qx-2.jpg", alt: null, width: null, height: null },
    ],
    rating_avg: 4.5,
    rating_count: 12,
    currency: "USD",
    min_price_cents: 6000,
    offers: [offer("l-1", 6000, false), offer("l-2", 7005, true), offer("l-3", 10000, true)],
    buy_box_listing_id: "l-2",
    ...overrides,
  };
}

describe("productJsonLd", () => {
  it("builds a schema.org Product with an AggregateOffer over the offers", () => {
    expect(productJsonLd(product())).toEqual({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "Quokkaphone X",
      description: "A phone for quokkas.",
      url: "https://shop.example.com/p/quokkaphone-x",
      image: ["https://shop.example.com/images/qx-1.jpg", "https://shop.example.com/images/qx-2.jpg"],
      gtin13: "4006381333931",
      mpn: "QX-1",
      brand: { "@type": "Brand", name: "Acme" },
      category: "Electronics > Phones",
      aggregateRating: { "@type": "AggregateRating", ratingValue: 4.5, reviewCount: 12 },
      offers: {
        "@type": "AggregateOffer",
        priceCurrency: "USD",
        lowPrice: "60.00",
        highPrice: "100.00",
        offerCount: 3,
        availability: "https://schema.org/InStock",
        url: "https://shop.example.com/p/quokkaphone-x",
      },
    });
  });

  it("formats cents as two-decimal strings", () => {
    const ld = productJsonLd(product({ offers: [offer("a", 5, true), offer("b", 7005, true)] }));
    expect(ld.offers).toMatchObject({ lowPrice: "0.05", highPrice: "70.05", offerCount: 2 });
  });

  it("says BackOrder when no offer is in stock", () => {
    const ld = productJsonLd(product({ offers: [offer("a", 7000, false)], buy_box_listing_id: null }));
    expect(ld.offers).toEqual({
      "@type": "AggregateOffer",
      priceCurrency: "USD",
      lowPrice: "70.00",
      highPrice: "70.00",
      offerCount: 1,
      availability: "https://schema.org/BackOrder",
      url: "https://shop.example.com/p/quokkaphone-x",
    });
  });

  it("omits offers when there are none, and the rating when there is none", () => {
    const ld = productJsonLd(
      product({ offers: [], min_price_cents: null, buy_box_listing_id: null, rating_avg: null, rating_count: 0 }),
    );
    expect(ld).not.toHaveProperty("offers");
    expect(ld).not.toHaveProperty("aggregateRating");
    expect(ld.name).toBe("Quokkaphone X");
  });

  it("omits absent optional fields instead of sending nulls", () => {
    const ld = productJsonLd(
      product({ description: null, brand: null, category_breadcrumb: [], gtin: null, mpn: null, images: [] }),
    );
    expect(Object.keys(ld).sort()).toEqual(["@context", "@type", "aggregateRating", "name", "offers", "url"]);
  });

  it("uses the GTIN property matching the code's length", () => {
    expect(productJsonLd(product({ gtin: "012345678905" }))).toHaveProperty("gtin12", "012345678905");
    expect(productJsonLd(product({ gtin: "96385074" }))).toHaveProperty("gtin8", "96385074");
    expect(productJsonLd(product({ gtin: "ABC-123" }))).toHaveProperty("gtin", "ABC-123");
  });
});

describe("jsonLdScript", () => {
  it("cannot be broken out of by </script> in a title, and parses back to the same value", () => {
    const data = productJsonLd(product({ title: 'Evil </script><script>alert("x")</script> & <!-- co' }));
    const script = jsonLdScript(data);
    expect(script).not.toMatch(/[<>]/);
    expect(script.toLowerCase()).not.toContain("</script");
    expect(script).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(script)).toEqual(data);
  });

  it("escapes line and paragraph separators", () => {
    const script = jsonLdScript({ name: "a\u2028b\u2029c" });
    expect(script).toBe('{"name":"a\\u2028b\\u2029c"}');
    expect(JSON.parse(script)).toEqual({ name: "a\u2028b\u2029c" });
  });
});
