import { lineRefusal, type QuoteLine } from "./price";
import type { Tx } from "./types";

/**
 * Step "take the stock". The offers are locked first, in one order (by id), so that checkouts
 * sharing listings never deadlock; then every line's units are taken with one conditional
 * update: a listing gives `n` units only when it is still purchasable and holds `n` (or allows
 * backorder; a backordered listing stays at 0). A line the update skips is refused, naming it.
 * Each take is recorded as a stock adjustment once the order has its number (`adjustmentsOf`).
 */

export interface Taken {
  listing_id: string;
  store_id: string;
  before: number;
  after: number;
  allow_backorder: boolean;
}

export async function lockOffers(tx: Tx, listingIds: readonly string[]): Promise<void> {
  await tx.$queryRaw`SELECT id FROM listings WHERE id = ANY(${listingIds}::uuid[]) ORDER BY id FOR UPDATE`;
}

export async function takeStock(tx: Tx, lines: QuoteLine[]): Promise<Taken[]> {
  const rows = await tx.$queryRaw<Taken[]>`
    WITH wanted AS (
      SELECT r.listing_id, r.n, l.quantity AS before
      FROM unnest(${lines.map((l) => l.listing_id)}::uuid[], ${lines.map((l) => l.quantity)}::int[]) AS r(listing_id, n)
      JOIN listings l ON l.id = r.listing_id
    )
    UPDATE listings l SET quantity = GREATEST(l.quantity - w.n, 0)
    FROM wanted w, stores s, products p
    WHERE l.id = w.listing_id AND s.id = l.store_id AND p.id = l.product_id
      AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)
      AND (l.quantity >= w.n OR l.allow_backorder)
    RETURNING l.id::text AS listing_id, l.store_id::text AS store_id, w.before, l.quantity AS after, l.allow_backorder`;
  const done = new Set(rows.map((r) => r.listing_id));
  const missed = lines.find((l) => !done.has(l.listing_id));
  if (missed) throw lineRefusal({ ...missed, status: "short_of_stock" });
  return rows;
}

/** The stock adjustments of what an order took. */
export function adjustmentsOf(taken: ReadonlyArray<Taken>, orderNumber: string) {
  return taken.map((t) => ({ listingId: t.listing_id, delta: t.after - t.before, quantityAfter: t.after, reason: `order ${orderNumber}` }));
}

/** The listings this take sold out: it took their last units, and they allow no backorder. */
export function soldOut(taken: ReadonlyArray<Taken>): { storeId: string; id: string }[] {
  return taken.filter((t) => t.before > 0 && t.after === 0 && !t.allow_backorder).map((t) => ({ storeId: t.store_id, id: t.listing_id }));
}
