import type { ProductRecordData } from "@/lib/schemas/catalog";

const SCHEMA_ORG = "https://schema.org";

/**
 * schema.org `Product` for a product page, built from the same record the public API returns:
 * one `AggregateOffer` over the purchasable offers (absent when there are none), a rating only
 * when there is one. Optional properties are omitted rather than sent as null.
 */
export function productJsonLd(product: ProductRecordData): Record<string, unknown> {
  const data: Record<string, unknown> = {
    "@context": SCHEMA_ORG,
    "@type": "Product",
    name: product.title,
    url: product.url,
  };
  if (product.description) data.description = product.description;
  if (product.images.length > 0) data.image = product.images.map((image) => image.url);
  if (product.gtin) data[gtinProperty(product.gtin)] = product.gtin;
  if (product.mpn) data.mpn = product.mpn;
  if (product.brand) data.brand = { "@type": "Brand", name: product.brand.name };
  if (product.category_breadcrumb.length > 0) {
    data.category = product.category_breadcrumb.map((c) => c.name).join(" > ");
  }
  if (product.rating_count > 0 && product.rating_avg !== null) {
    data.aggregateRating = {
      "@type": "AggregateRating",
      ratingValue: product.rating_avg,
      reviewCount: product.rating_count,
    };
  }
  if (product.offers.length > 0) {
    const prices = product.offers.map((o) => o.price_cents);
    data.offers = {
      "@type": "AggregateOffer",
      priceCurrency: product.offers[0]?.currency ?? product.currency,
      lowPrice: decimalPrice(Math.min(...prices)),
      highPrice: decimalPrice(Math.max(...prices)),
      offerCount: product.offers.length,
      // Every purchasable offer is in stock or backorderable (docs/fixtures.md, decisions.md).
      availability: `${SCHEMA_ORG}/${product.offers.some((o) => o.in_stock) ? "InStock" : "BackOrder"}`,
      url: product.url,
    };
  }
  return data;
}

/**
 * JSON for the body of a `<script type="application/ld+json">` element. `<`, `>` and `&` become
 * JSON escapes, so a title containing `</script>` or `<!--` cannot end the element; U+2028/U+2029
 * are escaped for older JavaScript parsers. The result parses to the same value.
 */
export function jsonLdScript(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (ch) => UNSAFE[ch] ?? ch);
}

const UNSAFE: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Integer cents to the decimal string schema.org prices use: 6000 -> "60.00". */
function decimalPrice(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** schema.org has one property per GTIN length (gtin8/12/13/14); `gtin` takes any of them. */
function gtinProperty(gtin: string): string {
  return /^\d+$/.test(gtin) && [8, 12, 13, 14].includes(gtin.length) ? `gtin${gtin.length}` : "gtin";
}
