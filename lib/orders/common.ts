import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { badCursor, decodeCursor, encodeCursor } from "@/lib/seller/cursor";
import { parseOrderNumber } from "./number";

/**
 * An order as a caller names it: its id or its number (`M-10042`, any case). Anything else (a
 * forged id, 10,000 characters, a NUL byte) names no order: null, which every caller turns into
 * its not-found answer.
 */
export function orderRefWhere(ref: unknown): { id: string } | { number: string } | null {
  if (isUuid(ref)) return { id: ref.toLowerCase() };
  const number = parseOrderNumber(ref);
  return number === null ? null : { number };
}

export function orderNotFound(ref: unknown): AppError {
  const shown = typeof ref === "string" && ref.length <= 40 && !/[\u0000-\u001f\u007f]/.test(ref) ? ` '${ref}'` : "";
  return new AppError("order_not_found", `No order${shown} of yours.`);
}

/** Page size and position of a cursor list (the seller API's conventions, lib/seller/cursor.ts). */
export interface ListQuery {
  /** 1 to 100. */
  limit: number;
  /** The `next_cursor` of the previous page. */
  cursor?: string;
}

export interface Page<T> {
  list: T[];
  next_cursor: string | null;
}

export const LIST_LIMIT_MAX = 100;

/** A filter any model with `createdAt` and `id` takes. */
export type NewestFirstWhere = { OR?: [{ createdAt: { lt: Date } }, { createdAt: Date; id: { lt: string } }] };

/**
 * Where a newest-first list (created_at desc, id desc) resumes: rows strictly after the cursor's
 * (created_at, id). A cursor of another list, or one altered by hand, is a 400 naming `cursor`.
 */
export function afterCursor(kind: string, query: ListQuery): NewestFirstWhere {
  if (!Number.isSafeInteger(query.limit) || query.limit < 1 || query.limit > LIST_LIMIT_MAX) {
    throw new AppError("parameter_invalid", `Invalid 'limit': must be an integer from 1 to ${LIST_LIMIT_MAX}.`, "limit");
  }
  if (query.cursor === undefined) return {};
  const [at, id] = decodeCursor(kind, query.cursor, ["string", "string"]) as [string, string];
  const when = new Date(at);
  if (!isUuid(id) || Number.isNaN(when.getTime()) || when.toISOString() !== at) throw badCursor();
  return { OR: [{ createdAt: { lt: when } }, { createdAt: when, id: { lt: id } }] };
}

export const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The page of `rows` (fetched with limit + 1) and the cursor of the next one. */
export function pageOf<R extends { id: string; createdAt: Date }, T>(kind: string, rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    list: page.map(map),
    next_cursor: rows.length > limit && last ? encodeCursor(kind, [last.createdAt.toISOString(), last.id]) : null,
  };
}
