import { Prisma, type DbClient } from "@/lib/db";
import type { Page } from "@/lib/orders/common";
import type { ListOrdersQueryData, OrderPartData } from "@/lib/schemas/seller/orders";
import { decodeFeedCursor, decodeNewestFirstCursor, encodeCursor } from "../cursor";
import { loadOrderParts } from "./order-part";

const LIST_CURSOR = "order_parts";
const FEED_CURSOR = "order_parts_feed";

/**
 * GET /orders. Without `updated_since`: the store's parts of orders, newest order first
 * (created_at desc, order id desc). With it: the sync feed, as the listings' (list-listings.ts):
 * every part written at or after `since`, in the order the writes committed (change_seq, then
 * order id), handed out only once every older transaction has ended, so a write that commits
 * late never lands behind a client's cursor.
 */
export async function listOrderParts(db: DbClient, storeId: string, query: ListOrdersQueryData): Promise<Page<OrderPartData>> {
  const feed = query.updated_since !== undefined;
  let after = Prisma.empty;
  if (query.cursor !== undefined) {
    if (feed) {
      const { seq, id } = decodeFeedCursor(FEED_CURSOR, query.cursor);
      after = Prisma.sql`AND (p.change_seq, p.order_id) > (${seq}::bigint, ${id}::uuid)`;
    } else {
      const { at, id } = decodeNewestFirstCursor(LIST_CURSOR, query.cursor);
      after = Prisma.sql`AND (p.created_at, p.order_id) < (${at}::timestamptz, ${id}::uuid)`;
    }
  }
  const keys = feed
    ? await db.$queryRaw<{ order_id: string; key: string }[]>`
        SELECT p.order_id, p.change_seq::text AS key FROM order_stores p
        WHERE p.store_id = ${storeId}::uuid
          AND p.change_seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
          AND p.updated_at >= ${query.updated_since!.toISOString()}::timestamptz
          ${after}
        ORDER BY p.change_seq, p.order_id
        LIMIT ${query.limit + 1}`
    : await db.$queryRaw<{ order_id: string; key: string }[]>`
        SELECT p.order_id, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS key FROM order_stores p
        WHERE p.store_id = ${storeId}::uuid ${after}
        ORDER BY p.created_at DESC, p.order_id DESC
        LIMIT ${query.limit + 1}`;
  const page = keys.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    list: await loadOrderParts(db, storeId, page.map((k) => k.order_id)),
    next_cursor: keys.length > query.limit && last ? encodeCursor(feed ? FEED_CURSOR : LIST_CURSOR, [last.key, last.order_id]) : null,
  };
}
