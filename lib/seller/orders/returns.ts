import type { DbClient } from "@/lib/db";
import type { Page } from "@/lib/orders/common";
import { listDeskReturns, moveReturn, type ReturnMove } from "@/lib/returns";
import type { ListReturnsQueryData, StoreReturnData } from "@/lib/schemas/seller/orders";
import { getStoreReturn, toStoreReturn } from "./store-return";

export { getStoreReturn } from "./store-return";

/**
 * The seller API's returns: the desk's own reads and moves (lib/returns: approve, receive, refund
 * through the order's payment provider, reject; the same rules and the buyer's e-mail), for one
 * store, in the `return` shape of the seller API.
 */

/** GET /returns: the store's returns, newest first. */
export async function listStoreReturns(db: DbClient, storeId: string, query: ListReturnsQueryData): Promise<Page<StoreReturnData>> {
  const page = await listDeskReturns(db, [storeId], query);
  return { list: page.list.map(toStoreReturn), next_cursor: page.next_cursor };
}

/** POST /returns/{id}/{move}, in the request's transaction: the return after the move. */
export async function moveStoreReturn(tx: DbClient, storeId: string, id: string, move: ReturnMove): Promise<StoreReturnData> {
  const moved = await moveReturn(tx, [storeId], id, move);
  return getStoreReturn(tx, storeId, moved.id);
}
