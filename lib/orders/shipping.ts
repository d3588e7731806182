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
export function governingRate(rates: ReadonlyArray<LineRate | null>): LineRate | null {
  let best: LineRate | null = null;
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
