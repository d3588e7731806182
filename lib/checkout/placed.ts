import type { DbClient } from "@/lib/db";
import { orderRefWhere } from "@/lib/orders/common";
import { isConfirmationKey, confirmationPath } from "@/lib/orders/confirmation";
import { ORDER_INCLUDE, toOrder, type OrderRow } from "@/lib/orders/shape";
import type { PlacedOrder } from "./types";

const firstPosition = (part: OrderRow["parts"][number]) => Math.min(...part.lines.map((l) => l.position));

/** A session's orders in the order of their first line (orders written together share a creation time). */
export function byFirstLine<T extends OrderRow>(rows: T[]): T[] {
  const first = (row: OrderRow) => Math.min(...row.parts.flatMap((p) => p.lines.map((l) => l.position)));
  return [...rows].sort((a, b) => first(a) - first(b));
}

/** A store's id, slug and name, when the caller already has them (right after placing). */
export interface KnownStore {
  store_id: string;
  store_slug: string;
  store_name: string;
}

/** The order as callers get it; `known` saves reading the stores' names again right after placing. */
export async function describePlaced(client: DbClient, row: OrderRow, replayed: boolean, known: ReadonlyArray<KnownStore> | null = null): Promise<PlacedOrder> {
  const stores = known
    ? known.map((s) => ({ id: s.store_id, slug: s.store_slug, name: s.store_name }))
    : await client.store.findMany({ where: { id: { in: row.parts.map((p) => p.storeId) } }, select: { id: true, slug: true, name: true } });
  const storeOf = new Map(stores.map((s) => [s.id, s]));
  return {
    order: toOrder(row),
    replayed,
    account_holder: row.userId !== null,
    confirmation_path: confirmationPath(row),
    email: row.email,
    payment_last4: row.paymentLast4,
    // In the order of their first line; the slug as the lines keep it (from the moment of
    // purchase), so that lines group by it.
    stores: [...row.parts]
      .sort((a, b) => firstPosition(a) - firstPosition(b))
      .map((p) => ({
        store_slug: p.lines[0]?.storeSlug ?? storeOf.get(p.storeId)?.slug ?? "",
        store_name: storeOf.get(p.storeId)?.name ?? "",
        shipping_cents: p.shippingCents,
        subtotal_cents: p.lines.reduce((sum, l) => sum + l.lineTotalCents, 0),
      })),
  };
}

/**
 * An order for its confirmation page: the signed-in account holder's own order, or a guest's
 * order with its confirmation key (lib/orders/confirmation.ts). Anything else, a forged number or
 * key included, is null (the page answers 404).
 */
export async function orderForConfirmation(client: DbClient, number: string, viewer: { userId: string | null; key: unknown }): Promise<PlacedOrder | null> {
  const where = orderRefWhere(number);
  if (!where || !("number" in where)) return null;
  const row = await client.order.findUnique({ where, include: ORDER_INCLUDE });
  if (!row) return null;
  const allowed = row.userId ? row.userId === viewer.userId : isConfirmationKey(row.id, viewer.key);
  return allowed ? describePlaced(client, row, true) : null;
}
