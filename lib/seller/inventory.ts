import type { DbClient } from "@/lib/db";
import { randomUUID } from "node:crypto";
import { AppError } from "@/lib/errors";
import { type InventoryBatchInput, LISTING_LIMITS, type StockAdjustmentData } from "@/lib/schemas/seller/listings";
import { isUuid } from "@/lib/ids";
import { listingNotFound } from "./listings/listing-row";

type Adjustment = InventoryBatchInput["adjustments"][number];

/**
 * POST /inventory/batch: applies the adjustments in request order, all or none, in the caller's
 * transaction. The listings are locked first, in id order (SELECT ... FOR UPDATE), so two batches
 * on the same listings queue instead of deadlocking, and each reads the quantity the other wrote:
 * no update is ever lost. The first failing adjustment fails the batch and is named in `param`.
 * Answers one stock adjustment (reason `batch`) per adjustment, in request order.
 */
export async function applyInventoryBatch(db: DbClient, storeId: string, adjustments: readonly Adjustment[]): Promise<StockAdjustmentData[]> {
  // Ids that are not UUIDs are simply not found, at their place in the order.
  const ids = [...new Set(adjustments.map((a) => a.listing_id.toLowerCase()).filter(isUuid))].sort();
  const rows = await db.$queryRaw<{ id: string; quantity: number; status: string }[]>`
    SELECT id::text AS id, quantity, status::text AS status FROM listings
    WHERE store_id = ${storeId}::uuid AND id = ANY(${ids}::uuid[])
    ORDER BY id
    FOR UPDATE`;
  const held = new Map(rows.map((r) => [r.id, { quantity: Number(r.quantity), status: r.status }]));
  const planned = planInventoryBatch(held, adjustments);

  // One statement writes the new quantities and the adjustments (a listing the batch leaves as
  // it was is not rewritten). Every adjustment's created_at is the transaction's start, as the
  // column default stores it (rounded to the millisecond), so it is read back once, not per row.
  const finals = [...held.entries()];
  const ids2 = planned.map(() => randomUUID());
  const [written] = await db.$queryRaw<{ created_at: string }[]>`
    WITH updated AS (
      UPDATE listings l SET quantity = f.quantity
      FROM unnest(${finals.map(([id]) => id)}::uuid[], ${finals.map(([, l]) => l.quantity)}::int[]) AS f(id, quantity)
      WHERE l.id = f.id AND l.quantity <> f.quantity
    ), inserted AS (
      INSERT INTO stock_adjustments (id, listing_id, delta, quantity_after, reason)
      SELECT a.id, a.listing_id, a.delta, a.quantity_after, 'batch'
      FROM unnest(${ids2}::uuid[], ${planned.map((p) => p.listingId)}::uuid[], ${planned.map((p) => p.delta)}::int[],
                  ${planned.map((p) => p.after)}::int[]) AS a(id, listing_id, delta, quantity_after)
    )
    SELECT to_char(now()::timestamptz(3) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at`;
  const createdAt = written!.created_at;
  return planned.map((p, i) => ({
    id: ids2[i]!,
    object: "stock_adjustment" as const,
    listing_id: p.listingId,
    delta: p.delta,
    quantity_after: p.after,
    reason: "batch" as const,
    created_at: createdAt,
  }));
}

/** A listing of the batch as locked: its quantity (the batch's running quantity) and status. */
export interface HeldListing {
  quantity: number;
  status: string;
}

export interface PlannedAdjustment {
  listingId: string;
  delta: number;
  after: number;
}

/**
 * The batch's rule, without the database: the adjustments in request order against the listings
 * held (keyed by lower-case id), each seeing the quantity the ones before it left; `held` ends
 * with the final quantities. The first adjustment that cannot be made throws, naming its field
 * (`adjustments[i].listing_id`, `.expected_quantity`, `.delta` or `.set_quantity`).
 */
export function planInventoryBatch(held: Map<string, HeldListing>, adjustments: readonly Adjustment[]): PlannedAdjustment[] {
  const at = (i: number, field: string) => `adjustments[${i}].${field}`;
  const planned: PlannedAdjustment[] = [];
  adjustments.forEach((a, i) => {
    const listingId = a.listing_id.toLowerCase();
    const listing = held.get(listingId);
    if (!listing) throw listingNotFound(a.listing_id, at(i, "listing_id"));
    if (listing.status === "archived") {
      throw new AppError("listing_archived", `Adjustment ${i}: the listing is archived; an archived listing is read-only.`, at(i, "listing_id"));
    }
    if (a.expected_quantity !== undefined && a.expected_quantity !== listing.quantity) {
      throw new AppError(
        "stale_quantity",
        `Adjustment ${i}: the listing holds ${listing.quantity}, not the expected ${a.expected_quantity}; nothing was changed.`,
        at(i, "expected_quantity"),
      );
    }
    const field = a.delta !== undefined ? "delta" : "set_quantity";
    const after = a.delta !== undefined ? listing.quantity + a.delta : a.set_quantity!;
    if (after < 0) {
      throw new AppError("quantity_negative", `Adjustment ${i} would take the quantity from ${listing.quantity} to ${after}; nothing was changed.`, at(i, field));
    }
    if (after > LISTING_LIMITS.quantityMax) {
      throw new AppError(
        "parameter_invalid",
        `Invalid '${at(i, field)}': adjustment ${i} would take the quantity to ${after}, above ${LISTING_LIMITS.quantityMax}.`,
        at(i, field),
      );
    }
    planned.push({ listingId, delta: after - listing.quantity, after });
    listing.quantity = after;
  });
  return planned;
}
