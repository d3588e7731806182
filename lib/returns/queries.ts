import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, pageOf, type ListQuery, type Page } from "@/lib/orders/common";
import { RETURN_INCLUDE, toReturn } from "@/lib/orders/shape";
import type { ReturnData, ReturnReasonValue } from "@/lib/schemas/orders";

export function returnNotFound(): AppError {
  return new AppError("return_not_found", "No return of yours has this id.");
}

const BUYER_CURSOR = "returns";
const DESK_CURSOR = "desk_returns";

/** The buyer's returns (of all their orders), newest first. */
export async function listBuyerReturns(client: DbClient, userId: string, query: ListQuery): Promise<Page<ReturnData>> {
  const rows = await client.return.findMany({
    where: { part: { order: { userId } }, ...afterCursor(BUYER_CURSOR, query) },
    include: RETURN_INCLUDE,
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return pageOf(BUYER_CURSOR, rows, query.limit, toReturn);
}

/** One of the buyer's returns; another buyer's or a forged id is `return_not_found`. */
export async function getBuyerReturn(client: DbClient, userId: string, id: string): Promise<ReturnData> {
  const row = isUuid(id)
    ? await client.return.findFirst({ where: { id: id.toLowerCase(), part: { order: { userId } } }, include: RETURN_INCLUDE })
    : null;
  if (!row) throw returnNotFound();
  return toReturn(row);
}

/** A return as the store that handles it sees it: what was returned, why, and what it is worth. */
export interface DeskReturn {
  return: ReturnData;
  order_number: string;
  store: { id: string; slug: string; name: string };
  lines: { order_line_id: string; title: string; quantity: number; reason: ReturnReasonValue; unit_price_cents: number }[];
  /** The returned units at the order's unit prices: what a refund pays back. */
  value_cents: number;
  /** Once refunded. */
  refund_cents: number | null;
}

const DESK_INCLUDE = {
  lines: { include: { orderLine: { select: { title: true, unitPriceCents: true, position: true } } } },
  part: { select: { order: { select: { number: true } }, store: { select: { id: true, slug: true, name: true } } } },
} satisfies Prisma.ReturnInclude;
type DeskRow = Prisma.ReturnGetPayload<{ include: typeof DESK_INCLUDE }>;

function toDeskReturn(row: DeskRow): DeskReturn {
  const lines = [...row.lines].sort((a, b) => a.orderLine.position - b.orderLine.position);
  return {
    return: toReturn(row),
    order_number: row.part.order.number,
    store: row.part.store,
    lines: lines.map((l) => ({
      order_line_id: l.orderLineId,
      title: l.orderLine.title,
      quantity: l.quantity,
      reason: l.reason,
      unit_price_cents: l.orderLine.unitPriceCents,
    })),
    value_cents: lines.reduce((sum, l) => sum + l.quantity * l.orderLine.unitPriceCents, 0),
    refund_cents: row.refundCents,
  };
}

/** Returns of `storeIds`, newest first; optionally of one order. */
export async function listDeskReturns(client: DbClient, storeIds: string[], query: ListQuery & { orderId?: string }): Promise<Page<DeskReturn>> {
  const rows = await client.return.findMany({
    where: {
      storeId: { in: storeIds },
      ...(query.orderId ? { orderId: query.orderId } : {}),
      ...afterCursor(DESK_CURSOR, query),
    },
    include: DESK_INCLUDE,
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return pageOf(DESK_CURSOR, rows, query.limit, toDeskReturn);
}

/** One return of `storeIds`; another store's, or a forged id, is `return_not_found`. */
/** The store (of `storeIds`) that handles return `id`, or null. */
export async function storeOfReturn(client: DbClient, storeIds: string[], id: string): Promise<string | null> {
  const row = isUuid(id) ? await client.return.findFirst({ where: { id: id.toLowerCase(), storeId: { in: storeIds } }, select: { storeId: true } }) : null;
  return row?.storeId ?? null;
}

export async function getDeskReturn(client: DbClient, storeIds: string[], id: string): Promise<DeskReturn> {
  const row = isUuid(id) ? await client.return.findFirst({ where: { id: id.toLowerCase(), storeId: { in: storeIds } }, include: DESK_INCLUDE }) : null;
  if (!row) throw returnNotFound();
  return toDeskReturn(row);
}
