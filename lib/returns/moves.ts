import { absoluteUrl } from "@/lib/config";
import { Prisma, type DbClient } from "@/lib/db";
import { sendEmail } from "@/lib/email/send";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { RETURN_INCLUDE, toReturn } from "@/lib/orders/shape";
import { providerOf } from "@/lib/payments";
import type { ReturnData, ReturnStatusValue } from "@/lib/schemas/orders";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { returnNotFound } from "./queries";

/**
 * The store's moves on a return of its lines: approve (requested -> approved), receive
 * (approved -> received), refund (received -> refunded) and reject (requested or approved ->
 * rejected). Any other move is `return_transition_invalid`, naming the return's state; a return
 * of a store not in `storeIds` (or a forged id) is `return_not_found`.
 */

export const RETURN_MOVES = {
  approve: { from: ["requested"], to: "approved" },
  receive: { from: ["approved"], to: "received" },
  refund: { from: ["received"], to: "refunded" },
  reject: { from: ["requested", "approved"], to: "rejected" },
} as const satisfies Record<string, { from: readonly ReturnStatusValue[]; to: ReturnStatusValue }>;
export type ReturnMove = keyof typeof RETURN_MOVES;

export function isReturnMove(value: unknown): value is ReturnMove {
  return typeof value === "string" && Object.hasOwn(RETURN_MOVES, value);
}

/**
 * Applies `move` to the return (locked FOR UPDATE for the rest of the caller's transaction, so two
 * clicks cannot both refund). A refund pays back the returned units at the order lines' unit
 * prices (shipping is not refunded) through the payment provider that charged the order, with a
 * reference unique to the return (a provider that sees it again refunds once), and keeps the
 * amount and the provider's reference; the buyer gets an e-mail.
 */
export async function moveReturn(tx: DbClient, storeIds: string[], returnId: string, move: ReturnMove): Promise<ReturnData> {
  if (!isUuid(returnId) || storeIds.length === 0) throw returnNotFound();
  const stores = Prisma.join(storeIds.map((id) => Prisma.sql`${id}::uuid`));
  const [locked] = await tx.$queryRaw<{ id: string; status: ReturnStatusValue; order_id: string }[]>`
    SELECT id, status::text AS status, order_id FROM returns
    WHERE id = ${returnId.toLowerCase()}::uuid AND store_id IN (${stores}) FOR UPDATE`;
  if (!locked) throw returnNotFound();
  const { from, to } = RETURN_MOVES[move];
  if (!(from as readonly string[]).includes(locked.status)) {
    throw new AppError(
      "return_transition_invalid",
      `This return is ${locked.status}: it can be ${PAST[move]} only when it is ${from.join(" or ")}.`,
    );
  }
  const now = new Date();
  let refund: { refundCents: number; refundRef: string } | undefined;
  if (move === "refund") refund = await refundReturn(tx, locked.id, locked.order_id);
  const row = await tx.return.update({
    where: { id: locked.id },
    data: { status: to, updatedAt: now, ...(refund ?? {}) },
    include: RETURN_INCLUDE,
  });
  if (move === "refund") await emitStoreEvents(tx, "return.refunded", [{ storeId: row.storeId, id: row.id }]);
  return toReturn(row);
}

const PAST: Record<ReturnMove, string> = { approve: "approved", receive: "marked received", refund: "refunded", reject: "rejected" };

async function refundReturn(tx: DbClient, returnId: string, orderId: string): Promise<{ refundCents: number; refundRef: string }> {
  const order = await tx.order.findUniqueOrThrow({
    where: { id: orderId },
    select: { number: true, email: true, userId: true, currency: true, paymentProvider: true, paymentRef: true },
  });
  const lines = await tx.returnLine.findMany({ where: { returnId }, include: { orderLine: { select: { unitPriceCents: true } } } });
  const refundCents = lines.reduce((sum, l) => sum + l.quantity * l.orderLine.unitPriceCents, 0);
  const { refundRef } = await providerOf(order.paymentProvider).refund({
    chargeRef: order.paymentRef,
    amountCents: refundCents,
    currency: order.currency,
    reference: `return_${returnId}`,
  });
  const amount = `${(refundCents / 100).toFixed(2)} ${order.currency}`;
  const text = [
    `Your return from order ${order.number} is refunded: ${amount} goes back to the payment method you paid with.`,
    ...(order.userId ? [`Your order: ${absoluteUrl(`/account/orders/${order.number}`)}`] : []),
  ];
  await sendEmail(tx, { to: order.email, subject: `Refund for your order ${order.number}`, text: `${text.join("\n\n")}\n` });
  return { refundCents, refundRef };
}
