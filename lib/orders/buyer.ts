import type { DbClient } from "@/lib/db";
import { RETURN_WINDOW_DAYS, type OrderData, type OrderStatusValue, type ReturnData } from "@/lib/schemas/orders";
import { afterCursor, NEWEST_FIRST, orderNotFound, orderRefWhere, pageOf, type ListQuery, type Page } from "./common";
import { ORDER_INCLUDE, RETURN_INCLUDE, toOrder, toReturn } from "./shape";

/**
 * What a buyer reads of their own orders. Only orders of `userId`: another buyer's order, a
 * guest's and a forged id are all `order_not_found`, so nobody learns whether an order exists.
 * The functions know nothing of who asks on the buyer's behalf (a page, the buyer API, an agent).
 */

const ORDERS_CURSOR = "orders";

/** The buyer's orders, newest first, `limit` a page, resumed with `next_cursor`. */
export async function listBuyerOrders(client: DbClient, userId: string, query: ListQuery): Promise<Page<OrderData>> {
  const rows = await client.order.findMany({
    where: { userId, ...afterCursor(ORDERS_CURSOR, query) },
    include: ORDER_INCLUDE,
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return pageOf(ORDERS_CURSOR, rows, query.limit, toOrder);
}

/** One store's part of the order as its buyer sees it. */
export interface BuyerOrderPart {
  store_slug: string;
  store_name: string;
  status: OrderStatusValue;
  shipping_cents: number;
  /** Once the part has shipped (null before, and when it shipped without one). */
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** Ids of the order's lines this store sends, in checkout order. */
  line_ids: string[];
}

export interface BuyerOrderEvent {
  status: string;
  /** The store whose part moved; null for the order's own moves. */
  store_slug: string | null;
  store_name: string | null;
  note: string | null;
  created_at: string;
}

export interface BuyerOrder {
  order: OrderData;
  parts: BuyerOrderPart[];
  /** Status history, oldest first. */
  history: BuyerOrderEvent[];
  /** The order's returns, newest first. */
  returns: ReturnData[];
  /** Until when a return may be requested (a delivered order), else null. */
  returnable_until: string | null;
  /** Whether a return may be requested now (delivered, within the window). */
  return_window_open: boolean;
  /** Per line id: how many units a new return may still hold (bought minus non-rejected returns; none of a cancelled part). */
  returnable_quantities: Record<string, number>;
}

/** One of the buyer's orders by id or number (`order_not_found` otherwise), with its history. */
export async function getBuyerOrder(client: DbClient, userId: string, ref: string): Promise<BuyerOrder> {
  const where = orderRefWhere(ref);
  const row = where
    ? await client.order.findFirst({
        where: { ...where, userId },
        include: {
          parts: { include: { lines: true, store: { select: { slug: true, name: true } } } },
          events: { orderBy: { id: "asc" } },
        },
      })
    : null;
  if (!row) throw orderNotFound(ref);
  const [returns, returned] = await Promise.all([
    client.return.findMany({ where: { orderId: row.id }, include: RETURN_INCLUDE, orderBy: NEWEST_FIRST }),
    returnedQuantities(client, row.id),
  ]);
  const storeOf = new Map(row.parts.map((p) => [p.storeId, p.store]));
  const parts = [...row.parts].sort((a, b) => firstPosition(a) - firstPosition(b));
  const until = returnableUntil(row.status, row.deliveredAt);
  return {
    order: toOrder(row),
    parts: parts.map((p) => ({
      store_slug: p.store.slug,
      store_name: p.store.name,
      status: p.status,
      shipping_cents: p.shippingCents,
      tracking_number: p.status === "shipped" || p.status === "delivered" ? p.trackingNumber : null,
      shipped_at: p.shippedAt?.toISOString() ?? null,
      delivered_at: p.deliveredAt?.toISOString() ?? null,
      line_ids: [...p.lines].sort((a, b) => a.position - b.position).map((l) => l.id),
    })),
    history: row.events.map((e) => {
      const store = e.storeId ? storeOf.get(e.storeId) : undefined;
      return { status: e.status, store_slug: store?.slug ?? null, store_name: store?.name ?? null, note: e.note, created_at: e.createdAt.toISOString() };
    }),
    returns: returns.map(toReturn),
    returnable_until: until?.toISOString() ?? null,
    return_window_open: until !== null && Date.now() <= until.getTime(),
    returnable_quantities: Object.fromEntries(
      parts.flatMap((p) => p.lines.map((l) => [l.id, p.status === "cancelled" ? 0 : Math.max(0, l.quantity - (returned.get(l.id) ?? 0))])),
    ),
  };
}

function firstPosition(part: { lines: { position: number }[] }): number {
  return Math.min(...part.lines.map((l) => l.position), Number.MAX_SAFE_INTEGER);
}

/** The end of the return window of a delivered order; null when it is not delivered. */
export function returnableUntil(status: OrderStatusValue, deliveredAt: Date | null): Date | null {
  if (status !== "delivered" || !deliveredAt) return null;
  return new Date(deliveredAt.getTime() + RETURN_WINDOW_DAYS * 24 * 60 * 60 * 1000);
}

/** Per order line: units held by the order's returns that were not rejected. */
export async function returnedQuantities(client: DbClient, orderId: string): Promise<Map<string, number>> {
  const sums = await client.returnLine.groupBy({
    by: ["orderLineId"],
    where: { ret: { orderId, status: { not: "rejected" } } },
    _sum: { quantity: true },
  });
  return new Map(sums.map((s) => [s.orderLineId, s._sum.quantity ?? 0]));
}
