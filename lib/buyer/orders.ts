import type { DbClient } from "@/lib/db";
import { getBuyerOrder, listBuyerOrders, type Page } from "@/lib/orders";
import { getBuyerReturn, listBuyerReturns, requestReturn } from "@/lib/returns";
import type { BuyerListQueryData } from "@/lib/schemas/buyer";
import type { CreateReturnData, OrderData, ReturnData } from "@/lib/schemas/orders";

/*
 * The holder's orders and returns, only their own: another holder's id, a guest's order and a
 * forged id are all 404 (`order_not_found`, `return_not_found`), so nobody learns what exists.
 */

/** The holder's orders, newest first. */
export function listOrders(client: DbClient, userId: string, query: BuyerListQueryData): Promise<Page<OrderData>> {
  return listBuyerOrders(client, userId, query);
}

/** One of the holder's orders, by id or number. */
export async function getOrder(client: DbClient, userId: string, ref: string): Promise<OrderData> {
  return (await getBuyerOrder(client, userId, ref)).order;
}

/** Asks to return lines of one store of a delivered order (within 30 days); pass the caller's transaction. */
export function createReturn(tx: DbClient, userId: string, ref: string, body: CreateReturnData): Promise<ReturnData> {
  return requestReturn(tx, userId, ref, body);
}

/** The holder's returns, newest first. */
export function listReturns(client: DbClient, userId: string, query: BuyerListQueryData): Promise<Page<ReturnData>> {
  return listBuyerReturns(client, userId, query);
}

/** One of the holder's returns. */
export function getReturn(client: DbClient, userId: string, id: string): Promise<ReturnData> {
  return getBuyerReturn(client, userId, id);
}
