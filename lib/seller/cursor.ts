import { AppError } from "@/lib/errors";

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
    throw new AppError("parameter_invalid", "Invalid 'cursor': pass the `next_cursor` of the previous page unchanged.", "cursor");
  }
  return parsed.slice(1);
}
