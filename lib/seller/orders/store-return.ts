import type { DbClient } from "@/lib/db";
import { getDeskReturn, type DeskReturn } from "@/lib/returns/queries";
import type { StoreReturnData } from "@/lib/schemas/seller/orders";

/**
 * A store's return in the seller API's `return` shape: what GET /returns/{id} answers and what the
 * `return.*` webhook events carry (lib/seller/webhooks/events.ts). Reads only, so that the events,
 * which lib/returns' moves emit, do not import the moves back.
 */

export function toStoreReturn(desk: DeskReturn): StoreReturnData {
  const { return: r } = desk;
  return {
    id: r.id,
    object: "return",
    order_id: r.order_id,
    order_number: desk.order_number,
    status: r.status,
    lines: desk.lines,
    value_cents: desk.value_cents,
    refund_cents: desk.refund_cents,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** GET /returns/{id}. */
export async function getStoreReturn(db: DbClient, storeId: string, id: string): Promise<StoreReturnData> {
  return toStoreReturn(await getDeskReturn(db, [storeId], id));
}
