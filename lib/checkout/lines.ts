import { LINE_QUANTITY_MAX, type CartOwner } from "@/lib/cart/cart";
import { isToken, tokenHash } from "@/lib/cart/token";
import { Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { CheckoutSource, Executor, ExplicitLine } from "./types";
import { UUID } from "@/lib/ids";
import { EXPLICIT_LINES_MAX } from "@/lib/schemas/buyer";

export { EXPLICIT_LINES_MAX };

/** A line to price: from a cart (with the price the cart last showed) or given at once. */
export interface SourceLine {
  listing_id: string;
  quantity: number;
  seen_price_cents: number | null;
}

/** Explicit lines, checked: 1-20, each a listing id and a quantity 1-99, no listing twice. */
export function checkExplicitLines(lines: ReadonlyArray<ExplicitLine>): SourceLine[] {
  if (!Array.isArray(lines) || lines.length === 0) throw new AppError("parameter_missing", "Give at least one line to buy.", "lines");
  if (lines.length > EXPLICIT_LINES_MAX) throw new AppError("parameter_invalid", `At most ${EXPLICIT_LINES_MAX} lines can be bought at once.`, "lines");
  const seen = new Set<string>();
  return lines.map((line, i) => {
    if (typeof line?.listing_id !== "string" || !UUID.test(line.listing_id)) {
      throw new AppError("parameter_invalid", "The listing id must be a UUID.", `lines[${i}].listing_id`);
    }
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > LINE_QUANTITY_MAX) {
      throw new AppError("parameter_invalid", `The quantity must be a whole number from 1 to ${LINE_QUANTITY_MAX}.`, `lines[${i}].quantity`);
    }
    const id = line.listing_id.toLowerCase();
    if (seen.has(id)) throw new AppError("parameter_invalid", "This listing appears in an earlier line; give each listing once.", `lines[${i}].listing_id`);
    seen.add(id);
    return { listing_id: id, quantity: line.quantity, seen_price_cents: null };
  });
}

/** The SQL condition naming an owner's cart row; null for a token that cannot be one. */
export function cartOwnerWhere(owner: CartOwner): Prisma.Sql | null {
  if ("token" in owner && !isToken(owner.token)) return null;
  return "userId" in owner ? Prisma.sql`user_id = ${owner.userId}::uuid` : Prisma.sql`token_hash = ${tokenHash(owner.token)}`;
}

/** The cart's id of an owner; null when the owner has no cart. */
export async function cartIdOf(executor: Executor, owner: CartOwner): Promise<string | null> {
  const where = cartOwnerWhere(owner);
  if (!where) return null;
  const [cart] = await executor.$queryRaw<Array<{ id: string }>>`SELECT id::text AS id FROM carts WHERE ${where}`;
  return cart?.id ?? null;
}

/** A cart's lines, oldest first as the cart shows them; the cart row locked first when `lock` (one statement). */
export async function cartLines(executor: Executor, cartId: string | null, lock: boolean): Promise<SourceLine[]> {
  if (!cartId) return [];
  if (!lock) {
    return executor.$queryRaw<SourceLine[]>`
      SELECT listing_id::text AS listing_id, quantity, price_cents AS seen_price_cents
      FROM cart_lines WHERE cart_id = ${cartId}::uuid ORDER BY added_at, listing_id`;
  }
  return executor.$queryRaw<SourceLine[]>`
    WITH locked AS (SELECT id FROM carts WHERE id = ${cartId}::uuid FOR UPDATE)
    SELECT cl.listing_id::text AS listing_id, cl.quantity, cl.price_cents AS seen_price_cents
    FROM cart_lines cl JOIN locked ON locked.id = cl.cart_id ORDER BY cl.added_at, cl.listing_id`;
}

/** The source's cart (if any) and its lines as they stand now (nothing locked). */
export async function sourceLines(executor: Executor, source: CheckoutSource): Promise<{ cartId: string | null; lines: SourceLine[] }> {
  if ("lines" in source) return { cartId: null, lines: checkExplicitLines(source.lines) };
  const cartId = await cartIdOf(executor, source.cart);
  return { cartId, lines: await cartLines(executor, cartId, false) };
}

/** Whether two sets of lines hold the same listings in the same quantities, in any order. */
export function sameLines(a: ReadonlyArray<ExplicitLine>, b: ReadonlyArray<ExplicitLine>): boolean {
  const key = (lines: ReadonlyArray<ExplicitLine>) =>
    lines
      .map((l) => `${String(l.listing_id).toLowerCase()}:${l.quantity}`)
      .sort()
      .join(",");
  return key(a) === key(b);
}
