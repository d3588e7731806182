import type { DbClient } from "@/lib/db";
import type { Page } from "@/lib/orders/common";
import { getDeskReturn, listDeskReturns, moveReturn, type DeskReturn, type ReturnMove } from "@/lib/returns";
import type { ListReturnsQueryData, StoreReturnData } from "@/lib/schemas/seller/orders";

/**
 * The seller API's returns: the desk's own reads and moves (lib/returns: approve, receive, refund
 * through the order's payment provider, reject; the same rules and the buyer's e-mail), for one
 * store, in the `return` shape of the seller API.
 */

function toStoreReturn(desk: DeskReturn): StoreReturnData {
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

/** GET /returns: the store's returns, newest first. */
export async function listStoreReturns(db: DbClient, storeId: string, query: ListReturnsQueryData): Promise<Page<StoreReturnData>> {
  const page = await listDeskReturns(db, [storeId], query);
  return { list: page.list.map(toStoreReturn), next_cursor: page.next_cursor };
}

/** GET /returns/{id}. */
export async function getStoreReturn(db: DbClient, storeId: string, id: string): Promise<StoreReturnData> {
  return toStoreReturn(await getDeskReturn(db, [storeId], id));
}

/** POST /returns/{id}/{move}, in the request's transaction: the return after the move. */
export async function moveStoreReturn(tx: DbClient, storeId: string, id: string, move: ReturnMove): Promise<StoreReturnData> {
  const moved = await moveReturn(tx, [storeId], id, move);
  return getStoreReturn(tx, storeId, moved.id);
}
