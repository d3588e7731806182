import type { Prisma } from "@/lib/db";

/**
 * Whether an offer can supply a quantity now. `in_stock` and `backorder` are purchasable;
 * `insufficient_stock` means the offer is purchasable but holds fewer units than asked (and does
 * not allow backorder); `unavailable` is everything else. The stock count itself never leaves
 * this query.
 */
export type LineStatus = "in_stock" | "backorder" | "insufficient_stock" | "unavailable";

export interface LineCheck {
  listing_id: string;
  quantity: number;
  status: LineStatus;
  /** Current price; null when the listing does not exist. */
  price_cents: number | null;
}

export function isPurchasable(status: LineStatus): boolean {
  return status === "in_stock" || status === "backorder";
}

type Executor = Pick<Prisma.TransactionClient, "$queryRaw">;

/**
 * Checks lines against the current offers, in the given order. Whether an offer is purchasable at
 * all is the one SQL definition, offer_is_purchasable (prisma/migrations/..._purchasable_offer).
 */
export async function checkLines(
  executor: Executor,
  lines: ReadonlyArray<{ listing_id: string; quantity: number }>,
): Promise<LineCheck[]> {
  if (lines.length === 0) return [];
  const ids = lines.map((l) => l.listing_id);
  const quantities = lines.map((l) => l.quantity);
  return executor.$queryRaw<LineCheck[]>`
    SELECT r.listing_id::text AS listing_id, r.quantity, l.price_cents,
           CASE
             WHEN l.id IS NULL OR NOT offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)
               THEN 'unavailable'
             WHEN l.quantity >= r.quantity THEN 'in_stock'
             WHEN l.allow_backorder THEN 'backorder'
             ELSE 'insufficient_stock'
           END AS status
    FROM unnest(${ids}::uuid[], ${quantities}::int[]) WITH ORDINALITY AS r(listing_id, quantity, ord)
    LEFT JOIN listings l ON l.id = r.listing_id
    LEFT JOIN stores s ON s.id = l.store_id
    LEFT JOIN products p ON p.id = l.product_id
    ORDER BY r.ord`;
}
