import { AppError } from "@/lib/errors";
import { parcelTerms, type LineTerms, type ParcelTerms } from "@/lib/orders/shipping";
import type { ConditionValue } from "@/lib/schemas/catalog";
import type { SourceLine } from "./lines";
import type { Executor } from "./types";
import { CURRENCY } from "@/lib/currency";

/**
 * Step "price the lines": each line re-read as it stands now, with its store and its standard
 * shipping rate for the address's country; each store's shipping (lib/orders/shipping.ts); the
 * totals over the lines that can be bought; and what changed since the cart was last seen.
 * `readOffers` is the one query; `priceQuote` is the rule, database-free.
 */

/**
 * How a line stands now: `in_stock` and `backorder` can be bought; `short_of_stock` (fewer units
 * than asked, no backorder), `sold_out` (none left, no backorder) and `unavailable` (the listing,
 * its store or its product was deactivated, or it is gone) cannot.
 */
export type QuoteLineStatus = "in_stock" | "backorder" | "short_of_stock" | "sold_out" | "unavailable";

/** What changed since the cart was last seen (price) or since it was filled (the rest). */
export type QuoteChangeKind = "price_changed" | "short_of_stock" | "sold_out" | "unavailable";

export interface QuoteLine {
  /** 0-based, in the source's order: the `param` of a refusal is `lines[position]`. */
  position: number;
  listing_id: string;
  /** Null when the product is no longer publicly listed (or the listing is gone). */
  product_slug: string | null;
  title: string | null;
  store_id: string | null;
  store_slug: string | null;
  store_name: string | null;
  condition: ConditionValue | null;
  quantity: number;
  unit_price_cents: number | null;
  /** The price the cart last showed, when it differs from the current one. */
  previous_price_cents: number | null;
  line_total_cents: number;
  status: QuoteLineStatus;
  purchasable: boolean;
}

export interface QuoteChange {
  position: number;
  listing_id: string;
  title: string | null;
  kind: QuoteChangeKind;
  previous_price_cents?: number;
  price_cents?: number;
}

export interface QuoteStore {
  store_id: string;
  store_slug: string;
  store_name: string;
  lines: QuoteLine[];
  subtotal_cents: number;
  /** This store's shipping for its purchasable lines (lib/orders/shipping.ts). */
  shipping_cents: number;
  /** Its parcel's shipping, free-over threshold, delivery estimate and return window (`parcelTerms`); null on a placed order's quote. */
  terms: ParcelTerms | null;
}

export interface Quote {
  lines: QuoteLine[];
  /** Stores of the purchasable lines, in the order their first line appears. */
  stores: QuoteStore[];
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  currency: string;
  changes: QuoteChange[];
  /** Every line can be bought now and there is at least one. */
  ready: boolean;
  /** The country the shipping was quoted for. */
  country: string;
}

/** A line's offer as `readOffers` finds it. */
export interface OfferRow {
  position: number;
  listing_id: string;
  quantity: number;
  seen_price_cents: number | null;
  found: boolean;
  price_cents: number | null;
  currency: string | null;
  condition: ConditionValue | null;
  stock: number | null;
  allow_backorder: boolean | null;
  /** The listing, its store and its product are all active and listed. */
  listed: boolean;
  store_id: string | null;
  store_slug: string | null;
  store_name: string | null;
  product_slug: string | null;
  product_title: string | null;
  rate_price_cents: number | null;
  rate_free_over_cents: number | null;
  /** The listing template's handling days and the rate's transit days (null without a rate). */
  rate_handling_days: number | null;
  rate_min_days: number | null;
  rate_max_days: number | null;
}

/** The lines' offers as they stand now, in the lines' order, with each one's rate for `country`. */
export async function readOffers(executor: Executor, lines: SourceLine[], country: string): Promise<OfferRow[]> {
  if (lines.length === 0) return [];
  return executor.$queryRaw<OfferRow[]>`
    SELECT (r.ord - 1)::int AS position, r.listing_id::text AS listing_id, r.quantity, r.seen_price_cents,
           l.id IS NOT NULL AS found, l.price_cents, l.currency, l.condition, l.quantity AS stock, l.allow_backorder,
           coalesce(l.status = 'active' AND s.status = 'active' AND p.publicly_listed, false) AS listed,
           s.id::text AS store_id, s.slug AS store_slug, s.name AS store_name,
           CASE WHEN p.publicly_listed THEN p.slug END AS product_slug,
           CASE WHEN p.publicly_listed THEN p.title END AS product_title,
           rate.price_cents AS rate_price_cents, rate.free_over_cents AS rate_free_over_cents,
           rate.handling_days AS rate_handling_days, rate.min_days AS rate_min_days, rate.max_days AS rate_max_days
    FROM unnest(${lines.map((l) => l.listing_id)}::uuid[], ${lines.map((l) => l.quantity)}::int[],
                ${lines.map((l) => l.seen_price_cents)}::int[])
         WITH ORDINALITY AS r(listing_id, quantity, seen_price_cents, ord)
    LEFT JOIN listings l ON l.id = r.listing_id
    LEFT JOIN stores s ON s.id = l.store_id
    LEFT JOIN products p ON p.id = l.product_id
    LEFT JOIN LATERAL (
      SELECT sr.price_cents, sr.free_over_cents, st.handling_days, sr.min_days, sr.max_days
      FROM shipping_rates sr JOIN shipping_templates st ON st.id = sr.template_id
      WHERE sr.template_id = l.shipping_template_id AND sr.service = 'standard' AND sr.region IN (${country}, '*')
      ORDER BY sr.region = ${country} DESC LIMIT 1
    ) rate ON true
    ORDER BY r.ord`;
}

export function lineStatus(row: OfferRow): QuoteLineStatus {
  if (!row.found || !row.listed) return "unavailable";
  if (row.stock! >= row.quantity) return "in_stock";
  if (row.allow_backorder) return "backorder";
  return row.stock! > 0 ? "short_of_stock" : "sold_out";
}

/** A row's standard rate for the quote's country, with its handling and transit days; null: it ships free. */
export function lineTermsOf(row: OfferRow): LineTerms | null {
  if (row.rate_price_cents === null) return null;
  return {
    priceCents: row.rate_price_cents,
    freeOverCents: row.rate_free_over_cents,
    handlingDays: row.rate_handling_days ?? 0,
    minDays: row.rate_min_days ?? 0,
    maxDays: row.rate_max_days ?? 0,
  };
}

/** The quote of `rows` (from `readOffers`) shipped to `country`. */
export function priceQuote(rows: ReadonlyArray<OfferRow>, country: string): Quote {
  const lines: QuoteLine[] = [];
  const rates: Array<LineTerms | null> = [];
  for (const row of rows) {
    const status = lineStatus(row);
    lines.push({
      position: row.position,
      listing_id: row.listing_id,
      product_slug: row.product_slug,
      title: row.product_title,
      store_id: row.store_id,
      store_slug: row.store_slug,
      store_name: row.store_name,
      condition: row.condition,
      quantity: row.quantity,
      unit_price_cents: row.found ? row.price_cents : null,
      previous_price_cents: row.found && row.seen_price_cents !== null && row.seen_price_cents !== row.price_cents ? row.seen_price_cents : null,
      line_total_cents: row.found ? row.price_cents! * row.quantity : 0,
      status,
      purchasable: status === "in_stock" || status === "backorder",
    });
    rates.push(lineTermsOf(row));
  }

  const stores = new Map<string, QuoteStore & { rates: Array<LineTerms | null> }>();
  lines.forEach((line, i) => {
    if (!line.purchasable) return;
    let store = stores.get(line.store_id!);
    if (!store) {
      store = { store_id: line.store_id!, store_slug: line.store_slug!, store_name: line.store_name!, lines: [], subtotal_cents: 0, shipping_cents: 0, terms: null, rates: [] };
      stores.set(line.store_id!, store);
    }
    store.lines.push(line);
    store.rates.push(rates[i]!);
    store.subtotal_cents += line.line_total_cents;
  });
  const storeList = [...stores.values()].map(({ rates: storeRates, ...store }) => {
    const terms = parcelTerms(store.lines.map((l, i) => ({ lineTotalCents: l.line_total_cents, rate: storeRates[i]! })));
    return { ...store, shipping_cents: terms.shipping_cents, terms };
  });

  const changes: QuoteChange[] = [];
  for (const line of lines) {
    const base = { position: line.position, listing_id: line.listing_id, title: line.title };
    if (line.previous_price_cents !== null) {
      changes.push({ ...base, kind: "price_changed", previous_price_cents: line.previous_price_cents, price_cents: line.unit_price_cents! });
    }
    if (!line.purchasable) changes.push({ ...base, kind: line.status as QuoteChangeKind });
  }

  const subtotal = storeList.reduce((sum, s) => sum + s.subtotal_cents, 0);
  const shipping = storeList.reduce((sum, s) => sum + s.shipping_cents, 0);
  return {
    lines,
    stores: storeList,
    subtotal_cents: subtotal,
    shipping_cents: shipping,
    total_cents: subtotal + shipping,
    currency: rows.find((r) => r.currency)?.currency ?? CURRENCY,
    changes,
    ready: lines.length > 0 && lines.every((l) => l.purchasable),
    country,
  };
}

/**
 * The terms of each offer bought alone (quantity 1) and shipped to `country`, by listing id: what
 * the product page shows beside each offer, from the same rows and rule as a checkout quote.
 * Offers that cannot be found are left out.
 */
export async function offerTerms(executor: Executor, listingIds: ReadonlyArray<string>, country: string): Promise<Map<string, ParcelTerms>> {
  const rows = await readOffers(executor, listingIds.map((id) => ({ listing_id: id, quantity: 1, seen_price_cents: null })), country);
  const terms = new Map<string, ParcelTerms>();
  for (const row of rows) {
    if (row.found) terms.set(row.listing_id, parcelTerms([{ lineTotalCents: row.price_cents!, rate: lineTermsOf(row) }]));
  }
  return terms;
}

/** Reads and prices the lines for `country`. */
export async function priceLines(executor: Executor, lines: SourceLine[], country: string): Promise<Quote> {
  return priceQuote(await readOffers(executor, lines, country), country);
}

/** The refusal of a line that cannot be bought (409 naming it as `lines[position]`). */
export function lineRefusal(line: Pick<QuoteLine, "position" | "listing_id" | "title" | "quantity" | "status">): AppError {
  const name = line.title ? `'${line.title}'` : "An item";
  const param = `lines[${line.position}]`;
  const extra = { extra: { listing_id: line.listing_id } };
  switch (line.status) {
    case "short_of_stock":
      return new AppError("insufficient_stock", `${name} does not have ${line.quantity} in stock any more; lower the quantity.`, param, extra);
    case "sold_out":
      return new AppError("insufficient_stock", `${name} sold out.`, param, extra);
    default:
      return new AppError("listing_unavailable", `${name} can no longer be bought.`, param, extra);
  }
}

/** What `quoteOfOrders` reads of a placed order. */
export interface PlacedOrderRow {
  currency: string;
  shippingAddress: unknown;
  parts: Array<{
    storeId: string;
    shippingCents: number;
    lines: Array<{ position: number; listingId: string; productSlug: string; title: string; storeSlug: string; condition: ConditionValue; quantity: number; unitPriceCents: number; lineTotalCents: number }>;
  }>;
}

/** The quote a completed session's orders hold: what was bought, at the prices paid. */
export function quoteOfOrders(orders: ReadonlyArray<PlacedOrderRow>, storeNames: ReadonlyMap<string, string>): Quote {
  const lines: QuoteLine[] = [];
  const stores: QuoteStore[] = [];
  for (const order of orders) {
    for (const part of order.parts) {
      const partLines = [...part.lines]
        .sort((a, b) => a.position - b.position)
        .map(
          (l): QuoteLine => ({
            position: l.position,
            listing_id: l.listingId,
            product_slug: l.productSlug,
            title: l.title,
            store_id: part.storeId,
            store_slug: l.storeSlug,
            store_name: storeNames.get(part.storeId) ?? l.storeSlug,
            condition: l.condition,
            quantity: l.quantity,
            unit_price_cents: l.unitPriceCents,
            previous_price_cents: null,
            line_total_cents: l.lineTotalCents,
            status: "in_stock",
            purchasable: true,
          }),
        );
      lines.push(...partLines);
      const first = partLines[0];
      stores.push({
        store_id: part.storeId,
        store_slug: first?.store_slug ?? "",
        store_name: first?.store_name ?? "",
        lines: partLines,
        subtotal_cents: partLines.reduce((sum, l) => sum + l.line_total_cents, 0),
        shipping_cents: part.shippingCents,
        terms: null,
      });
    }
  }
  lines.sort((a, b) => a.position - b.position);
  stores.sort((a, b) => (a.lines[0]?.position ?? 0) - (b.lines[0]?.position ?? 0));
  const subtotal = stores.reduce((sum, s) => sum + s.subtotal_cents, 0);
  const shipping = stores.reduce((sum, s) => sum + s.shipping_cents, 0);
  const country = (orders[0]?.shippingAddress as { country?: string } | undefined)?.country ?? "US";
  return {
    lines,
    stores,
    subtotal_cents: subtotal,
    shipping_cents: shipping,
    total_cents: subtotal + shipping,
    currency: orders[0]?.currency ?? CURRENCY,
    changes: [],
    ready: false,
    country,
  };
}
