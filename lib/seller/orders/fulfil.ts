import type { DbClient } from "@/lib/db";
import { cancelPart, deliverPart, shipPart } from "@/lib/orders/fulfilment";
import type { CancelOrderData, OrderPartData, ShipOrderData } from "@/lib/schemas/seller/orders";
import { loadOrderParts } from "./order-part";

/**
 * POST /orders/{number}/ship, /deliver and /cancel: the desk's own moves (lib/orders/fulfilment.ts, with
 * their rules, e-mails and order events), answering the store's part as it is after the move.
 * Run in the request's transaction.
 */
export async function shipOrderPart(tx: DbClient, storeId: string, ref: string, body: ShipOrderData): Promise<OrderPartData> {
  const moved = await shipPart(tx, storeId, ref, body.tracking_number, body.carrier);
  return (await loadOrderParts(tx, storeId, [moved.order_id]))[0]!;
}

export async function deliverOrderPart(tx: DbClient, storeId: string, ref: string): Promise<OrderPartData> {
  const moved = await deliverPart(tx, storeId, ref);
  return (await loadOrderParts(tx, storeId, [moved.order_id]))[0]!;
}

export async function cancelOrderPart(tx: DbClient, storeId: string, ref: string, body: CancelOrderData): Promise<OrderPartData> {
  const moved = await cancelPart(tx, storeId, ref, body.reason);
  return (await loadOrderParts(tx, storeId, [moved.order_id]))[0]!;
}
