import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { ListingData, ListListingsQueryData } from "@/lib/schemas/seller/listings";
import { decodeFeedCursor, decodeNewestFirstCursor, encodeCursor } from "../cursor";
import { LISTING_COLUMNS, type ListingRow, toListing } from "./listing-row";

export interface ListingPage {
  list: ListingData[];
  next_cursor: string | null;
}

const LIST_CURSOR = "listings";
const FEED_CURSOR = "listings_feed";

/**
 * GET /listings. Without `updated_since`: the store's listings newest first (created_at desc, id
 * desc), archived ones only when `status=archived` asks for them. With it: the sync feed.
 */
export async function listListings(db: DbClient, storeId: string, query: ListListingsQueryData): Promise<ListingPage> {
  if (query.updated_since !== undefined) {
    if (query.status !== undefined) {
      throw new AppError("parameter_invalid", "Invalid 'status': the sync feed (updated_since) lists every state; filter on your side.", "status");
    }
    return listingFeed(db, storeId, query.updated_since, query.limit, query.cursor);
  }
  let after = Prisma.empty;
  if (query.cursor !== undefined) {
    const { at, id } = decodeNewestFirstCursor(LIST_CURSOR, query.cursor);
    after = Prisma.sql`AND (l.created_at, l.id) < (${at}::timestamptz, ${id}::uuid)`;
  }
  const status = query.status === undefined ? Prisma.sql`l.status <> 'archived'` : Prisma.sql`l.status = ${query.status}::listing_status`;
  const rows = await db.$queryRaw<ListingRow[]>`
    SELECT ${LISTING_COLUMNS}
    FROM listings l JOIN products p ON p.id = l.product_id
    WHERE l.store_id = ${storeId}::uuid AND ${status} ${after}
    ORDER BY l.created_at DESC, l.id DESC
    LIMIT ${query.limit + 1}`;
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    list: page.map(toListing),
    next_cursor: rows.length > query.limit && last ? encodeCursor(LIST_CURSOR, [last.created_at, last.id]) : null,
  };
}

/**
 * The sync feed: every listing of the store updated at or after `since`, archived included, in
 * the order the changes committed: by change_seq (the id of the transaction that last wrote the
 * row, stamped by a trigger), ties by id. The cursor is the last row's (change_seq, id), so a row
 * written again after the client passed it comes back later with a higher change_seq.
 *
 * Transaction ids are taken when a transaction first writes, not when it commits: a transaction
 * still open may commit a row with a change_seq below rows already committed. So the feed hands
 * out only rows written by transactions older than every transaction still open
 * (change_seq < pg_snapshot_xmin of the statement's snapshot); a row of a later transaction waits
 * until every older one has ended, and can therefore never land behind a client's cursor.
 */
async function listingFeed(db: DbClient, storeId: string, since: Date, limit: number, cursor: string | undefined): Promise<ListingPage> {
  let after = Prisma.empty;
  if (cursor !== undefined) {
    const { seq, id } = decodeFeedCursor(FEED_CURSOR, cursor);
    after = Prisma.sql`AND (l.change_seq, l.id) > (${seq}::bigint, ${id}::uuid)`;
  }
  const rows = await db.$queryRaw<(ListingRow & { change_seq: string })[]>`
    SELECT ${LISTING_COLUMNS}, l.change_seq::text AS change_seq
    FROM listings l JOIN products p ON p.id = l.product_id
    WHERE l.store_id = ${storeId}::uuid
      AND l.change_seq < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
      AND l.updated_at >= ${since.toISOString()}::timestamptz
      ${after}
    ORDER BY l.change_seq, l.id
    LIMIT ${limit + 1}`;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    list: page.map(toListing),
    next_cursor: rows.length > limit && last ? encodeCursor(FEED_CURSOR, [last.change_seq, last.id]) : null,
  };
}
