import { shownUrl } from "@/lib/config";
import type { Prisma, PrismaClient } from "@/lib/db";
import { CONDITION_LABELS, type ConditionValue } from "@/lib/schemas/catalog";
import { CART_LINK_LIMITS } from "@/lib/schemas/cart";
import { checkLines, isPurchasable, type LineStatus } from "./availability";
import { isExpired, findCartLink } from "./links";
import { isToken, tokenHash } from "./token";
import { CURRENCY } from "@/lib/currency";

/** Distinct offers one cart may hold. */
export const CART_MAX_LINES = 100;
export const LINE_QUANTITY_MAX = CART_LINK_LIMITS.quantityMax;

type Tx = Prisma.TransactionClient;

export interface CartLineView {
  listing_id: string;
  /** Null when the product is no longer publicly listed. */
  product: { slug: string; title: string; url: string; image_url: string | null } | null;
  store_name: string;
  store_slug: string;
  condition: ConditionValue;
  condition_label: string;
  quantity: number;
  price_cents: number;
  currency: string;
  /** The price when the line was added, when it differs from the current one. */
  previous_price_cents: number | null;
  status: LineStatus;
  /** price × quantity, counted in the subtotal only when the line is purchasable. */
  line_total_cents: number;
}

export interface CartView {
  lines: CartLineView[];
  /** Sum over purchasable lines. */
  subtotal_cents: number;
  /** Units over purchasable lines. */
  item_count: number;
  currency: string;
}

const EMPTY: CartView = { lines: [], subtotal_cents: 0, item_count: 0, currency: CURRENCY };

export class CartFullError extends Error {
  constructor() {
    super(`A cart holds at most ${CART_MAX_LINES} different offers.`);
  }
}

/**
 * Whose cart: an anonymous visitor's (the bearer token of their cart cookie) or an account's
 * (while its holder is signed in).
 */
export type CartOwner = { token: string } | { userId: string };

/**
 * The owner's cart; an absent owner, an unknown token or an account without a cart is an empty
 * cart. `executor`: the caller's client, or its transaction to read the cart as its own writes left it.
 */
export async function getCart(executor: Pick<Tx, "$queryRaw" | "cart">, owner: CartOwner | undefined): Promise<CartView> {
  const cartId = owner ? await findCartId(executor, owner) : null;
  if (!cartId) return EMPTY;
  return viewOf(cartId, executor);
}

interface LineRow {
  listing_id: string;
  quantity: number;
  seen_price_cents: number;
  price_cents: number;
  currency: string;
  condition: ConditionValue;
  store_name: string;
  store_slug: string;
  product_slug: string | null;
  product_title: string | null;
  image_url: string | null;
}

async function viewOf(cartId: string, executor: Pick<Tx, "$queryRaw">): Promise<CartView> {
  const rows = await executor.$queryRaw<LineRow[]>`
    SELECT cl.listing_id::text AS listing_id, cl.quantity, cl.price_cents AS seen_price_cents,
           l.price_cents, l.currency, l.condition, s.name AS store_name, s.slug AS store_slug,
           CASE WHEN p.publicly_listed THEN p.slug END AS product_slug,
           CASE WHEN p.publicly_listed THEN p.title END AS product_title,
           CASE WHEN p.publicly_listed THEN
             (SELECT i.url FROM product_images i WHERE i.product_id = p.id ORDER BY i.position, i.id LIMIT 1)
           END AS image_url
    FROM cart_lines cl
    JOIN listings l ON l.id = cl.listing_id
    JOIN stores s ON s.id = l.store_id
    JOIN products p ON p.id = l.product_id
    WHERE cl.cart_id = ${cartId}::uuid
    ORDER BY cl.added_at, cl.listing_id`;
  const checks = await checkLines(executor, rows);
  const lines = rows.map((row, i): CartLineView => {
    const status = checks[i]!.status;
    return {
      listing_id: row.listing_id,
      product:
        row.product_slug && row.product_title
          ? {
              slug: row.product_slug,
              title: row.product_title,
              url: shownUrl(`/p/${row.product_slug}`),
              image_url: row.image_url ? shownUrl(row.image_url) : null,
            }
          : null,
      store_name: row.store_name,
      store_slug: row.store_slug,
      condition: row.condition,
      condition_label: CONDITION_LABELS[row.condition],
      quantity: row.quantity,
      price_cents: row.price_cents,
      currency: row.currency,
      previous_price_cents: row.seen_price_cents === row.price_cents ? null : row.seen_price_cents,
      status,
      line_total_cents: row.price_cents * row.quantity,
    };
  });
  const buyable = lines.filter((l) => isPurchasable(l.status));
  return {
    lines,
    subtotal_cents: buyable.reduce((sum, l) => sum + l.line_total_cents, 0),
    item_count: buyable.reduce((sum, l) => sum + l.quantity, 0),
    currency: lines[0]?.currency ?? CURRENCY,
  };
}

async function findCartId(executor: Pick<Tx, "cart">, owner: CartOwner): Promise<string | null> {
  if ("userId" in owner) {
    const cart = await executor.cart.findUnique({ where: { userId: owner.userId }, select: { id: true } });
    return cart?.id ?? null;
  }
  if (!isToken(owner.token)) return null;
  const cart = await executor.cart.findUnique({ where: { tokenHash: tokenHash(owner.token) }, select: { id: true } });
  return cart?.id ?? null;
}

/**
 * The owner's cart, made on first use. The upsert locks the cart's row until the transaction
 * ends, so writers of one cart (adds, a merge at sign-in) take turns.
 */
async function ensureCart(tx: Tx, owner: CartOwner): Promise<string> {
  const [row] =
    "userId" in owner
      ? await tx.$queryRaw<Array<{ id: string }>>`
          INSERT INTO carts (user_id) VALUES (${owner.userId}::uuid)
          ON CONFLICT (user_id) DO UPDATE SET updated_at = now()
          RETURNING id::text AS id`
      : await tx.$queryRaw<Array<{ id: string }>>`
          INSERT INTO carts (token_hash) VALUES (${tokenHash(owner.token)})
          ON CONFLICT (token_hash) DO UPDATE SET updated_at = now()
          RETURNING id::text AS id`;
  return row!.id;
}

async function assertRoom(tx: Tx, cartId: string) {
  const lines = await tx.cartLine.count({ where: { cartId } });
  if (lines > CART_MAX_LINES) throw new CartFullError();
}

export type AddResult = "added" | "unavailable" | "insufficient_stock";

/**
 * Adds units of an offer to the cart (made on first use), up to 99 per line. A line that cannot be
 * bought now is not added. In the caller's transaction `tx` (the buyer API's holds its
 * idempotency record).
 */
export async function addToCart(tx: Tx, owner: CartOwner, listingId: string, quantity: number): Promise<AddResult> {
  const cartId = await ensureCart(tx, owner);
  const current = await tx.cartLine.findUnique({
    where: { cartId_listingId: { cartId, listingId } },
    select: { quantity: true },
  });
  const wanted = Math.min(LINE_QUANTITY_MAX, (current?.quantity ?? 0) + quantity);
  const [check] = await checkLines(tx, [{ listing_id: listingId, quantity: wanted }]);
  if (!isPurchasable(check!.status)) return check!.status === "insufficient_stock" ? "insufficient_stock" : "unavailable";
  await tx.cartLine.upsert({
    where: { cartId_listingId: { cartId, listingId } },
    create: { cartId, listingId, quantity: wanted, priceCents: check!.price_cents! },
    update: { quantity: wanted, priceCents: check!.price_cents! },
  });
  await assertRoom(tx, cartId);
  return "added";
}

/**
 * Sets a line's quantity (0 removes it) and confirms its current price. False when the cart has
 * no such line. In the caller's transaction `tx`.
 */
export async function setLineQuantity(tx: Tx, owner: CartOwner, listingId: string, quantity: number): Promise<boolean> {
  const cartId = await findCartId(tx, owner);
  if (!cartId) return false;
  // Any change is activity: `admin -- cleanup` deletes only carts idle for 90 days.
  await tx.$executeRaw`UPDATE carts SET updated_at = now() WHERE id = ${cartId}::uuid`;
  if (quantity === 0) {
    return (await tx.cartLine.deleteMany({ where: { cartId, listingId } })).count > 0;
  }
  const [check] = await checkLines(tx, [{ listing_id: listingId, quantity }]);
  const { count } = await tx.cartLine.updateMany({
    where: { cartId, listingId },
    data: { quantity, ...(check!.price_cents === null ? {} : { priceCents: check!.price_cents }) },
  });
  return count > 0;
}

export interface LinkLineReport {
  listing_id: string;
  title: string | null;
  quantity: number;
  status: LineStatus;
  /** Price when the link was made. */
  link_price_cents: number;
  /** Price now; null when the offer no longer exists. */
  price_cents: number | null;
}

export type OpenLinkResult =
  | { state: "not_found" }
  | { state: "expired"; expiresAt: Date }
  | { state: "opened"; firstOpen: boolean; expiresAt: Date; lines: LinkLineReport[]; cart: CartView };

/**
 * Puts a cart link's lines into the visitor's cart, re-checking price and availability now.
 * The first time a cart takes a link in, its quantities are added to what the cart holds (up to 99
 * a line); opening the same link again only restores lines to at least the link's quantities, so
 * nothing doubles. Unavailable lines are reported and not added; a line short of stock is added
 * and flagged, so the person can lower its quantity.
 */
export async function openCartLink(client: PrismaClient, owner: CartOwner, linkToken: string): Promise<OpenLinkResult> {
  const link = await findCartLink(client, linkToken);
  if (!link) return { state: "not_found" };
  if (isExpired(link)) return { state: "expired", expiresAt: link.expiresAt };

  return client.$transaction(async (tx) => {
    const cartId = await ensureCart(tx, owner);
    const firstOpen =
      (await tx.$executeRaw`
        INSERT INTO cart_link_opens (cart_id, link_id) VALUES (${cartId}::uuid, ${link.id}::uuid)
        ON CONFLICT DO NOTHING`) === 1;
    const checks = await checkLines(tx, link.lines);
    const adding = checks.filter((c) => c.status !== "unavailable");
    if (adding.length > 0) {
      const ids = adding.map((c) => c.listing_id);
      const quantities = adding.map((c) => c.quantity);
      const prices = adding.map((c) => c.price_cents!);
      await tx.$executeRaw`
        INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents)
        SELECT ${cartId}::uuid, r.listing_id, r.quantity, r.price_cents
        FROM unnest(${ids}::uuid[], ${quantities}::int[], ${prices}::int[]) AS r(listing_id, quantity, price_cents)
        ON CONFLICT (cart_id, listing_id) DO UPDATE SET
          quantity = CASE WHEN ${firstOpen}
                          THEN LEAST(${LINE_QUANTITY_MAX}, cart_lines.quantity + EXCLUDED.quantity)
                          ELSE GREATEST(cart_lines.quantity, EXCLUDED.quantity) END,
          price_cents = EXCLUDED.price_cents`;
      await assertRoom(tx, cartId);
    }
    const titles = await tx.$queryRaw<Array<{ listing_id: string; title: string }>>`
      SELECT l.id::text AS listing_id, p.title FROM listings l JOIN products p ON p.id = l.product_id
      WHERE l.id = ANY(${link.lines.map((l) => l.listing_id)}::uuid[]) AND p.publicly_listed`;
    const titleOf = new Map(titles.map((t) => [t.listing_id, t.title]));
    return {
      state: "opened" as const,
      firstOpen,
      expiresAt: link.expiresAt,
      lines: link.lines.map((line, i) => ({
        listing_id: line.listing_id,
        title: titleOf.get(line.listing_id) ?? null,
        quantity: line.quantity,
        status: checks[i]!.status,
        link_price_cents: line.price_cents,
        price_cents: checks[i]!.price_cents,
      })),
      cart: await viewOf(cartId, tx),
    };
  });
}

/**
 * At sign-in: moves the anonymous cart of `cartToken` into the account's cart, in one
 * transaction. Quantities of an offer in both are added (up to 99 a line); offers only in the
 * anonymous cart join as long as the account's cart has room (100 offers; the oldest first); the
 * links the anonymous cart took in count as taken in by the account's (so opening one again does
 * not double it); the anonymous cart is deleted. The anonymous cart's row is locked first and gone
 * at commit, so two sign-ins with the same cookie at once merge it once.
 */
export async function mergeCartIntoAccount(client: PrismaClient, cartToken: string | undefined, userId: string): Promise<void> {
  if (!cartToken || !isToken(cartToken)) return;
  await client.$transaction(async (tx) => {
    const [anonymous] = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id::text AS id FROM carts WHERE token_hash = ${tokenHash(cartToken)} FOR UPDATE`;
    if (!anonymous) return;
    const cartId = await ensureCart(tx, { userId });
    await tx.$executeRaw`
      UPDATE cart_lines a SET quantity = LEAST(${LINE_QUANTITY_MAX}, a.quantity + b.quantity)
      FROM cart_lines b
      WHERE a.cart_id = ${cartId}::uuid AND b.cart_id = ${anonymous.id}::uuid AND a.listing_id = b.listing_id`;
    await tx.$executeRaw`
      INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents, added_at)
      SELECT ${cartId}::uuid, b.listing_id, LEAST(${LINE_QUANTITY_MAX}, b.quantity), b.price_cents, b.added_at
      FROM cart_lines b
      WHERE b.cart_id = ${anonymous.id}::uuid
        AND NOT EXISTS (SELECT 1 FROM cart_lines a WHERE a.cart_id = ${cartId}::uuid AND a.listing_id = b.listing_id)
      ORDER BY b.added_at, b.listing_id
      LIMIT GREATEST(0, ${CART_MAX_LINES} - (SELECT count(*) FROM cart_lines WHERE cart_id = ${cartId}::uuid))`;
    await tx.$executeRaw`
      INSERT INTO cart_link_opens (cart_id, link_id, opened_at)
      SELECT ${cartId}::uuid, link_id, opened_at FROM cart_link_opens WHERE cart_id = ${anonymous.id}::uuid
      ON CONFLICT DO NOTHING`;
    await tx.$executeRaw`DELETE FROM carts WHERE id = ${anonymous.id}::uuid`;
  });
}
