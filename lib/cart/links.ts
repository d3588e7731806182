import { absoluteUrl } from "@/lib/config";
import type { DbClient } from "@/lib/db";
import { AppError, type RejectedLine } from "@/lib/errors";
import { CART_LINK_LIMITS, type CartLinkRequestData, type CartLinkResultData } from "@/lib/schemas/cart";
import { consume } from "@/lib/ratelimit";
import { checkLines, isPurchasable, type LineCheck } from "./availability";
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
export async function createCartLink(client: DbClient, request: CartLinkRequestData): Promise<CartLinkResultData> {
  const checks = await Promise.all((await checkLines(client, sumLines(request.items))).map(withinProbeBudget));
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
  await client.cartLink.create({
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

/**
 * Stock probing: every answer to "can this offer supply q units?" for q > 1 tells whether its
 * stock is at least q, so a client asking for 50, then 25, then 37... would learn the exact count
 * in about 7 requests. Such a comparison therefore spends a token of the listing's budget
 * (RATE_LIMITS.stock_probe: STOCK_PROBE_BUDGET at once, as many more a day), shared by everyone
 * who asks, from any address. With the budget spent, the line is accepted unchecked, exactly as an
 * in-stock line is: an accepted line says nothing, and the link is checked again when a person
 * opens it (the cart then shows "not enough stock"). One unit asks nothing the catalog does not
 * already say (in_stock), and unavailable or backorder lines compare nothing, so none spends a
 * token. Documented in the cart-links operation and the help article.
 */
async function withinProbeBudget(check: LineCheck): Promise<LineCheck> {
  if (check.quantity <= 1 || (check.status !== "in_stock" && check.status !== "insufficient_stock")) return check;
  const probe = await consume("stock_probe", "stock_probe", check.listing_id);
  return probe.allowed ? check : { ...check, status: "in_stock" };
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
export async function findCartLink(client: DbClient, token: string): Promise<StoredCartLink | null> {
  if (!isToken(token)) return null;
  const link = await client.cartLink.findUnique({
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
