import { RETURN_WINDOW_DAYS } from "@/lib/schemas/orders";

/**
 * Shipping at checkout, charged once per store (decisions.md "Orders, checkout and returns"; the
 * help article "Checking out" and the Order schema say the same):
 *
 * 1. Each line's rate is its listing's shipping template's `standard` rate for the shipping
 *    address's country: the rate of that country's region (`US` for a US address), else the `*`
 *    rate (everywhere else). A listing without a template, or a template without either rate,
 *    ships free. For a US address this is exactly the rate the buy box compares
 *    (lib/catalog/product.ts).
 * 2. A store's shipping is the highest such rate among its lines (by price; between rates of
 *    equal price, the one with the higher free-shipping threshold, "never free" above all), so
 *    one parcel of a store costs what its most expensive line costs to ship.
 * 3. It is waived when the store's subtotal (its lines' unit price × quantity) reaches that
 *    rate's `free_over_cents`.
 *
 * The order's shipping is the sum over its stores.
 */

/** A line's standard rate for the address's country; null when it ships free. */
export interface LineRate {
  priceCents: number;
  /** The store subtotal at which this rate is waived; null: never. */
  freeOverCents: number | null;
}

export interface StoreLineForShipping {
  lineTotalCents: number;
  rate: LineRate | null;
}

/** The rate that governs a store's parcel: the highest of its lines' rates (rule 2), or null. */
export function governingRate<R extends LineRate>(rates: ReadonlyArray<R | null>): R | null {
  let best: R | null = null;
  for (const rate of rates) {
    if (!rate) continue;
    if (!best || rate.priceCents > best.priceCents || (rate.priceCents === best.priceCents && stricter(rate, best))) best = rate;
  }
  return best;
}

/** Whether `a` waives later than `b` (null, never free, is the strictest). */
function stricter(a: LineRate, b: LineRate): boolean {
  if (a.freeOverCents === null) return b.freeOverCents !== null;
  return b.freeOverCents !== null && a.freeOverCents > b.freeOverCents;
}

/** A store's shipping charge for its lines of one order (rules 2 and 3). */
export function storeShippingCents(lines: ReadonlyArray<StoreLineForShipping>): number {
  const rate = governingRate(lines.map((l) => l.rate));
  if (!rate) return 0;
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  return rate.freeOverCents !== null && subtotal >= rate.freeOverCents ? 0 : rate.priceCents;
}

/** A line's rate with what the estimate needs: the template's handling days and the rate's transit days. */
export interface LineTerms extends LineRate {
  handlingDays: number;
  minDays: number;
  maxDays: number;
}

/**
 * What a parcel's buyer is told before buying (product page, cart, checkout, agents' checkout
 * quotes): its shipping charge (rules 1-3 above), the threshold that would waive it, when it
 * arrives and how long it can be returned.
 */
export interface ParcelTerms {
  /** What the parcel's shipping costs (`storeShippingCents`). */
  shipping_cents: number;
  /** The governing rate's price before any waiver; null when no line has a rate (it ships free). */
  rate_cents: number | null;
  /** The store subtotal from which the governing rate is waived; null: never (or no rate). */
  free_over_cents: number | null;
  /**
   * Business days from the order to delivery: the store's handling days plus the carrier's transit
   * days. A parcel goes out whole, so it arrives with its slowest line. Null when no line has a rate.
   */
  delivery: { handling_days: number; min_days: number; max_days: number } | null;
  /** Days after delivery within which it can be returned (the marketplace's rule for every store). */
  return_window_days: number;
}

export interface StoreLineForTerms {
  lineTotalCents: number;
  rate: LineTerms | null;
}

/** The terms of a store's parcel of `lines` (one line of quantity 1: an offer on the product page). */
export function parcelTerms(lines: ReadonlyArray<StoreLineForTerms>): ParcelTerms {
  const governing = governingRate(lines.map((l) => l.rate));
  const rated = lines.flatMap((l) => (l.rate ? [l.rate] : []));
  const delivery = rated.length
    ? {
        handling_days: Math.max(...rated.map((r) => r.handlingDays)),
        min_days: Math.max(...rated.map((r) => r.handlingDays + r.minDays)),
        max_days: Math.max(...rated.map((r) => r.handlingDays + r.maxDays)),
      }
    : null;
  return {
    shipping_cents: storeShippingCents(lines),
    rate_cents: governing?.priceCents ?? null,
    free_over_cents: governing?.freeOverCents ?? null,
    delivery,
    return_window_days: RETURN_WINDOW_DAYS,
  };
}

/** "4–6 business days", "1 business day": how an estimate reads wherever it is shown. */
export function businessDays(min: number, max: number): string {
  return min === max ? `${min} business ${min === 1 ? "day" : "days"}` : `${min}–${max} business days`;
}
