/**
 * Reads storefront pages through the markup hooks of docs/storefront-markup.md (data-*
 * attributes), so that tests compare pages with the public API without depending on layout.
 */
import * as cheerio from "cheerio";

export type Html = cheerio.CheerioAPI;

export function parseHtml(html: string): Html {
  return cheerio.load(html);
}

export const FACETS = ["category", "brand", "condition", "price"] as const;
export type FacetName = (typeof FACETS)[number];

export interface PageFacetEntry {
  value: string;
  count: number;
  selected: boolean;
  href: string | null;
}

export interface PageCard {
  slug: string;
  minPriceCents: number | null;
  offerCount: number;
  /** href of the first link in the card that points at the product page. */
  href: string | null;
}

export interface SearchPage {
  /** `data-page` of <main>, e.g. "search". */
  page: string | null;
  total: number | null;
  pageNumber: number | null;
  pageSize: number | null;
  pageCount: number | null;
  cards: PageCard[];
  /** Every facet; a facet whose <section> is absent reads as no entries. */
  facets: Record<FacetName, PageFacetEntry[]>;
  /** Whether <section data-facet=...> exists, per facet. */
  facetSections: Record<FacetName, boolean>;
  /** `data-search-error` (the parameter name) when the page shows an error. */
  searchError: string | null;
}

/** "" or a missing attribute reads as null; anything else must be an integer. */
function intAttr(value: string | undefined): number | null {
  if (value === undefined || value === "") return null;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new Error(`expected an integer attribute, got ${JSON.stringify(value)}`);
  return n;
}

function boolAttr(value: string | undefined): boolean | null {
  if (value === "true") return true;
  if (value === "false") return false;
  return null;
}

/** The one <main> of a storefront page (the first one when there are several). */
function main($: Html) {
  return $("main").first();
}

export function parseSearchPage(html: string): SearchPage {
  const $ = parseHtml(html);
  const m = main($);
  const cards: PageCard[] = $("article[data-product-slug]")
    .toArray()
    .map((el) => {
      const a = $(el);
      const slug = a.attr("data-product-slug") ?? "";
      const link = a.find("a[href]").filter((_, x) => /\/p\/[^/?#]+/.test($(x).attr("href") ?? "")).first();
      return {
        slug,
        minPriceCents: intAttr(a.attr("data-min-price-cents")),
        offerCount: intAttr(a.attr("data-offer-count")) ?? NaN,
        href: link.length ? (link.attr("href") ?? null) : null,
      };
    });
  const facets = {} as Record<FacetName, PageFacetEntry[]>;
  const facetSections = {} as Record<FacetName, boolean>;
  for (const facet of FACETS) {
    const section = $(`section[data-facet="${facet}"]`);
    facetSections[facet] = section.length > 0;
    facets[facet] = section
      .find("[data-facet-value]")
      .toArray()
      .map((el) => {
        const e = $(el);
        return {
          value: e.attr("data-facet-value") ?? "",
          count: intAttr(e.attr("data-facet-count")) ?? NaN,
          selected: boolAttr(e.attr("data-selected")) ?? false,
          href: e.attr("href") ?? null,
        };
      });
  }
  const errorEl = $("[data-search-error]").first();
  return {
    page: m.attr("data-page") ?? null,
    total: intAttr(m.attr("data-total")),
    pageNumber: intAttr(m.attr("data-page-number")),
    pageSize: intAttr(m.attr("data-page-size")),
    pageCount: intAttr(m.attr("data-page-count")),
    cards,
    facets,
    facetSections,
    searchError: errorEl.length ? (errorEl.attr("data-search-error") ?? "") : null,
  };
}

export interface PageOffer {
  listingId: string;
  priceCents: number | null;
  condition: string | null;
  storeSlug: string | null;
  inStock: boolean | null;
  buyBox: boolean | null;
}

export interface ProductPage {
  page: string | null;
  slug: string | null;
  /** `data-buy-box-listing-id`; "" (no buy box) reads as null, a missing attribute as undefined. */
  buyBoxListingId: string | null | undefined;
  /** `data-min-price-cents`; "" reads as null, a missing attribute as undefined. */
  minPriceCents: number | null | undefined;
  offers: PageOffer[];
  /** Parsed `<script type="application/ld+json">` blocks. */
  jsonLd: unknown[];
  canonical: string | null;
  /** The featured offer box's add-to-cart form; null when the box has none. */
  buyBoxForm: AddToCartForm | null;
  /** Each offer row's add-to-cart form, by listing id of the row. */
  offerForms: Record<string, AddToCartForm | null>;
}

export interface AddToCartForm {
  method: string | null;
  action: string | null;
  /** The hidden `listing_id` value. */
  listingId: string | null;
  /** Whether it has a `quantity` input. */
  hasQuantity: boolean;
  /** Its submit button's text. */
  button: string | null;
}

function readAddToCartForm($: Html, form: ReturnType<Html>): AddToCartForm | null {
  if (!form.length) return null;
  const button = form.find('button[type="submit"], button:not([type])').first();
  return {
    method: form.attr("method") ?? null,
    action: form.attr("action") ?? null,
    listingId: form.find('input[name="listing_id"]').attr("value") ?? null,
    hasQuantity: form.find('input[name="quantity"]').length === 1,
    button: button.length ? $(button).text().trim() : null,
  };
}

/** The header's Cart link: its text and `data-cart-count` (null when the page shows no count). */
export function parseHeaderCart(html: string): { text: string; count: number | null } | null {
  const $ = parseHtml(html);
  const link = $('header a[href="/cart"]').first();
  if (!link.length) return null;
  return { text: link.text().replace(/\s+/g, " ").trim(), count: intAttr(link.attr("data-cart-count")) };
}

export function parseProductPage(html: string): ProductPage {
  const $ = parseHtml(html);
  const m = main($);
  const offers = $("tr[data-listing-id]")
    .toArray()
    .map((el) => {
      const r = $(el);
      return {
        listingId: r.attr("data-listing-id") ?? "",
        priceCents: intAttr(r.attr("data-price-cents")),
        condition: r.attr("data-condition") ?? null,
        storeSlug: r.attr("data-store-slug") ?? null,
        inStock: boolAttr(r.attr("data-in-stock")),
        buyBox: boolAttr(r.attr("data-buy-box")),
      };
    });
  const jsonLd = $('script[type="application/ld+json"]')
    .toArray()
    .map((el) => {
      try {
        return JSON.parse($(el).text()) as unknown;
      } catch {
        return null;
      }
    });
  const buyBox = m.attr("data-buy-box-listing-id");
  return {
    page: m.attr("data-page") ?? null,
    slug: m.attr("data-product-slug") ?? null,
    buyBoxListingId: buyBox === undefined ? undefined : buyBox === "" ? null : buyBox,
    minPriceCents: m.attr("data-min-price-cents") === undefined ? undefined : intAttr(m.attr("data-min-price-cents")),
    offers,
    jsonLd,
    canonical: $('link[rel="canonical"]').attr("href") ?? null,
    buyBoxForm: readAddToCartForm($, $(".buy-box form").first()),
    offerForms: Object.fromEntries(
      $("tr[data-listing-id]")
        .toArray()
        .map((el) => [$(el).attr("data-listing-id") ?? "", readAddToCartForm($, $(el).find("form").first())]),
    ),
  };
}

export interface CartPageLine {
  listingId: string;
  quantity: number | null;
  priceCents: number | null;
  /** `in_stock`, `backorder`, `insufficient_stock` or `unavailable`. */
  status: string | null;
}

export interface CartLinkChange {
  listingId: string;
  status: string | null;
  /** The sentence shown for the line (what changed). */
  text: string;
}

export interface CartPage {
  /** `data-page` of <main>: "cart" or "cart-link". */
  page: string | null;
  /** `data-cart-link-state`: opened, expired, not_found or cart_full (link page only). */
  linkState: string | null;
  /** `data-first-open` (link page, state opened only). */
  firstOpen: boolean | null;
  lines: CartPageLine[];
  /** `data-subtotal-cents`; null when the cart is empty (no subtotal shown). */
  subtotalCents: number | null;
  /** Whether the empty-cart message (`data-cart-empty`) is shown. */
  empty: boolean;
  /** `data-notice` of the cart page's message after a form post. */
  notice: string | null;
  /** `data-link-line` entries: what changed on a link's lines since it was made. */
  changes: CartLinkChange[];
  /** `data-cart-store` sections in page order: one parcel per store. */
  stores: CartPageStore[];
  /** The header's Cart link (see parseHeaderCart). */
  headerCart: { text: string; count: number | null } | null;
}

export interface CartPageStore {
  slug: string;
  /** The section's heading text. */
  heading: string;
  /** Its lines: listing id and thumbnail `src` (null without one), in page order. */
  lines: Array<{ listingId: string; thumbnail: string | null }>;
}

/** Reads /cart and /cart/l/{token} through their hooks (docs/storefront-markup.md). */
export function parseCartPage(html: string): CartPage {
  const $ = parseHtml(html);
  const m = main($);
  const lines = $("[data-cart-line]")
    .toArray()
    .map((el) => {
      const r = $(el);
      return {
        listingId: r.attr("data-cart-line") ?? "",
        quantity: intAttr(r.attr("data-quantity")),
        priceCents: intAttr(r.attr("data-price-cents")),
        status: r.attr("data-status") ?? null,
      };
    });
  const changes = $("[data-link-line]")
    .toArray()
    .map((el) => {
      const r = $(el);
      return {
        listingId: r.attr("data-link-line") ?? "",
        status: r.attr("data-status") ?? null,
        text: r.text().replace(/\s+/g, " ").trim(),
      };
    });
  const subtotal = $("[data-subtotal-cents]").first();
  const notice = $("[data-notice]").first();
  return {
    page: m.attr("data-page") ?? null,
    linkState: m.attr("data-cart-link-state") ?? null,
    firstOpen: boolAttr(m.attr("data-first-open")),
    lines,
    subtotalCents: subtotal.length ? intAttr(subtotal.attr("data-subtotal-cents")) : null,
    empty: $("[data-cart-empty]").length > 0,
    notice: notice.length ? (notice.attr("data-notice") ?? "") : null,
    changes,
    stores: $("[data-cart-store]")
      .toArray()
      .map((el) => {
        const section = $(el);
        return {
          slug: section.attr("data-cart-store") ?? "",
          heading: section.find("h2, h3").first().text().replace(/\s+/g, " ").trim(),
          lines: section
            .find("[data-cart-line]")
            .toArray()
            .map((row) => ({
              listingId: $(row).attr("data-cart-line") ?? "",
              thumbnail: $(row).find("img").attr("src") ?? null,
            })),
        };
      }),
    headerCart: parseHeaderCart(html),
  };
}
