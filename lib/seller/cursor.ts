import { AppError } from "@/lib/errors";
import { UUID } from "@/lib/ids";

/**
 * Opaque list cursors: base64url JSON of the last row's sort key and the kind of list it belongs
 * to, so a cursor of one list is refused by another. Anything that does not decode to the
 * expected shape is a 400 naming `cursor`.
 */
export function encodeCursor(kind: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([kind, ...key])).toString("base64url");
}

export function decodeCursor(kind: string, cursor: string, shape: readonly ("string" | "number")[]): (string | number)[] {
  let parsed: unknown;
  try {
    parsed = /^[A-Za-z0-9_-]+$/.test(cursor) ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed[0] !== kind ||
    parsed.length !== shape.length + 1 ||
    !shape.every((type, i) => typeof parsed[i + 1] === type && (type === "string" ? (parsed[i + 1] as string).length <= 100 : Number.isSafeInteger(parsed[i + 1])))
  ) {
    throw badCursor();
  }
  return parsed.slice(1);
}

export function badCursor(): AppError {
  return new AppError("parameter_invalid", "Invalid 'cursor': pass the `next_cursor` of the previous page unchanged.", "cursor");
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const XID = /^[0-9]{1,19}$/;

/** The position in a newest-first list: the last row's (created_at as ISO-8601 with ms, uuid). */
export function decodeNewestFirstCursor(kind: string, cursor: string): { at: string; id: string } {
  const [at, id] = decodeCursor(kind, cursor, ["string", "string"]) as [string, string];
  if (!ISO_MS.test(at) || !Number.isFinite(Date.parse(at)) || !UUID.test(id)) throw badCursor();
  return { at, id };
}

/** The position in a sync feed: the last row's (change_seq, a transaction id, as text; uuid). */
export function decodeFeedCursor(kind: string, cursor: string): { seq: string; id: string } {
  const [seq, id] = decodeCursor(kind, cursor, ["string", "string"]) as [string, string];
  if (!XID.test(seq) || !UUID.test(id)) throw badCursor();
  return { seq, id };
}
