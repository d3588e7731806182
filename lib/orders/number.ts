/**
 * An order's number: `M-` and the order_number_seq value (`M-10042`, the database's default),
 * read in any case from a caller; at most 12 digits, so a long string is refused before any query.
 * The one pattern of an order number: everything else imports it.
 */
export const ORDER_NUMBER = /^M-[0-9]{1,12}$/i;

/** The stored form of a number as a caller wrote it (`m-10042` is `M-10042`), or null for anything else. */
export function parseOrderNumber(value: unknown): string | null {
  return typeof value === "string" && ORDER_NUMBER.test(value) ? value.toUpperCase() : null;
}
