import { absoluteUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { AppError, type RejectedLine } from "@/lib/errors";
import { CART_LINK_LIMITS, type CartLinkRequestData, type CartLinkResultData } from "@/lib/schemas/cart";
import { checkLines, isPurchasable } from "./availability";
import { isToken, newToken, tokenHash } from "./token";

const DAY_MS = 24 * 60 * 60 * 1000;

export function cartLinkUrl(token: string): string {
  return absoluteUrl(`/cart/l/${token}`);
}

/**
 * Mints a cart link (spec 4.4): repeated listing ids are summed, lines that are not purchasable
 * now are dropped into `rejected` with a generic reason, and the rest are stored with the price
 * seen now. It reserves no stock and creates no order or cart. When nothing is purchasable it
 * throws `no_purchasable_lines` carrying the same `rejected` list.
 */
export async function createCartLink(request: CartLinkRequestData): Promise<CartLinkResultData> {
  const lines = sumLines(request.items);
  const checks = await checkLines(lines);
  const accepted = checks.filter((c) => isPurchasable(c.status));
  const rejected: RejectedLine[] = checks
    .filter((c) => !isPurchasable(c.status))
    .map((c) => ({
      listing_id: c.listing_id,
      reason: c.status === "insufficient_stock" ? "insufficient_stock" : "unavailable",
    }));
  if (accepted.length === 0) {
    throw new AppError(
      "no_purchasable_lines",
      "None of the lines can be bought right now; see `rejected` for each listing.",
      undefined,
      { extra: { rejected } },
    );
  }

  const token = newToken();
  const expiresAt = new Date(Date.now() + CART_LINK_LIMITS.lifetimeDays * DAY_MS);
  await db().cartLink.create({
    data: {
      tokenHash: tokenHash(token),
      expiresAt,
      lines: {
        create: accepted.map((c, position) => ({
          listingId: c.listing_id,
          position,
          quantity: c.quantity,
          priceCents: c.price_cents!,
        })),
      },
    },
  });
  return { url: cartLinkUrl(token), expires_at: expiresAt.toISOString(), accepted: accepted.length, rejected };
}

/** Sums repeated listing ids, keeping the order of first appearance; a sum above 99 is a 400. */
function sumLines(items: CartLinkRequestData["items"]): Array<{ listing_id: string; quantity: number }> {
  const totals = new Map<string, number>();
  items.forEach((item, index) => {
    const total = (totals.get(item.listing_id) ?? 0) + item.quantity;
    if (total > CART_LINK_LIMITS.quantityMax) {
      const param = `items[${index}].quantity`;
      throw new AppError(
        "parameter_invalid",
        `Invalid '${param}': the quantities of listing ${item.listing_id} add up to ${total}; a line holds at most ${CART_LINK_LIMITS.quantityMax}.`,
        param,
      );
    }
    totals.set(item.listing_id, total);
  });
  return [...totals].map(([listing_id, quantity]) => ({ listing_id, quantity }));
}

export interface StoredCartLink {
  id: string;
  expiresAt: Date;
  lines: Array<{ listing_id: string; quantity: number; price_cents: number }>;
}

/** The link a token names, or null when there is none (expired links are returned). */
export async function findCartLink(token: string): Promise<StoredCartLink | null> {
  if (!isToken(token)) return null;
  const link = await db().cartLink.findUnique({
    where: { tokenHash: tokenHash(token) },
    select: {
      id: true,
      expiresAt: true,
      lines: { select: { listingId: true, quantity: true, priceCents: true }, orderBy: { position: "asc" } },
    },
  });
  if (!link) return null;
  return {
    id: link.id,
    expiresAt: link.expiresAt,
    lines: link.lines.map((l) => ({ listing_id: l.listingId, quantity: l.quantity, price_cents: l.priceCents })),
  };
}

export function isExpired(link: StoredCartLink, now = new Date()): boolean {
  return link.expiresAt.getTime() <= now.getTime();
}
