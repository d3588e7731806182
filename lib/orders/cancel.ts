import type { DbClient } from "@/lib/db";
import { absoluteUrl } from "@/lib/config";
import { sendEmail } from "@/lib/email/send";
import { providerOf } from "@/lib/payments";
import { CANCEL_REASON_TEXT, type CancelReason } from "@/lib/schemas/seller/orders";

/**
 * What cancelling a store's placed part of an order does besides moving it (lib/orders/fulfilment.ts
 * moves it): the units its checkout took go back on the shelf, the buyer is refunded the part's
 * lines and shipping charge, and is told why. Run in the move's transaction, the order locked.
 */

interface CancelledOrder {
  id: string;
  number: string;
  email: string;
  user_id: string | null;
}

export interface PartRefund {
  refundCents: number;
  refundRef: string;
}

/**
 * Puts back what the order's checkout took of the part's listings: the units its stock adjustments
 * (`order M-…`) took, not the lines' quantities, so a backordered line adds no stock that never
 * existed. Each return is a stock adjustment `order M-… cancelled`. Listings are locked in id
 * order, as checkout locks them, so a cancel and a checkout never deadlock.
 */
async function restock(tx: DbClient, order: CancelledOrder, storeId: string, now: Date): Promise<void> {
  const rows = await tx.$queryRaw<{ listing_id: string; n: number }[]>`
    SELECT a.listing_id::text AS listing_id, (-sum(a.delta))::int AS n
    FROM stock_adjustments a
    WHERE a.reason = ${`order ${order.number}`}
      AND a.listing_id IN (SELECT listing_id FROM order_lines WHERE order_id = ${order.id}::uuid AND store_id = ${storeId}::uuid)
    GROUP BY a.listing_id HAVING -sum(a.delta) > 0
    ORDER BY a.listing_id`;
  if (rows.length === 0) return;
  await tx.$queryRaw`SELECT id FROM listings WHERE id = ANY(${rows.map((r) => r.listing_id)}::uuid[]) ORDER BY id FOR UPDATE`;
  const after = await tx.$queryRaw<{ listing_id: string; quantity: number }[]>`
    UPDATE listings l SET quantity = l.quantity + r.n, updated_at = ${now}
    FROM unnest(${rows.map((r) => r.listing_id)}::uuid[], ${rows.map((r) => r.n)}::int[]) AS r(listing_id, n)
    WHERE l.id = r.listing_id
    RETURNING l.id::text AS listing_id, l.quantity`;
  const added = new Map(rows.map((r) => [r.listing_id, r.n]));
  await tx.stockAdjustment.createMany({
    data: after.map((r) => ({ listingId: r.listing_id, delta: added.get(r.listing_id)!, quantityAfter: r.quantity, reason: `order ${order.number} cancelled`, createdAt: now })),
  });
}

/**
 * Restocks the part, refunds its lines and shipping charge through the provider that charged the
 * order (with a reference unique to the part: a provider that sees it again refunds once) and
 * e-mails the buyer. Answers what was refunded, for the part's row.
 */
export async function cancelPartEffects(tx: DbClient, order: CancelledOrder, storeId: string, storeName: string, reason: CancelReason, now: Date): Promise<PartRefund> {
  await restock(tx, order, storeId, now);
  const [paid, part] = await Promise.all([
    tx.order.findUniqueOrThrow({ where: { id: order.id }, select: { currency: true, paymentProvider: true, paymentRef: true } }),
    tx.orderStore.findUniqueOrThrow({
      where: { orderId_storeId: { orderId: order.id, storeId } },
      select: { shippingCents: true, lines: { select: { title: true, quantity: true, lineTotalCents: true }, orderBy: { position: "asc" } } },
    }),
  ]);
  const refundCents = part.lines.reduce((sum, l) => sum + l.lineTotalCents, 0) + part.shippingCents;
  const { refundRef } = await providerOf(paid.paymentProvider).refund({
    chargeRef: paid.paymentRef,
    amountCents: refundCents,
    currency: paid.currency,
    reference: `cancel_${order.id}_${storeId}`,
  });
  const amount = `${(refundCents / 100).toFixed(2)} ${paid.currency}`;
  const text = [
    `${storeName} cancelled its items of your order ${order.number}: ${CANCEL_REASON_TEXT[reason]}.`,
    part.lines.map((l) => `- ${l.quantity} x ${l.title}`).join("\n"),
    `Refund: ${amount} (the items and ${storeName}'s shipping charge) goes back to the payment method you paid with.`,
    ...(order.user_id ? [`Your order: ${absoluteUrl(`/account/orders/${order.number}`)}`] : []),
  ];
  await sendEmail(tx, { to: order.email, subject: `Items of your order ${order.number} were cancelled`, text: `${text.join("\n\n")}\n` });
  return { refundCents, refundRef };
}
