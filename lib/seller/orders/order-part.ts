import type { Prisma, DbClient } from "@/lib/db";
import { orderNotFound, orderRefWhere } from "@/lib/orders/common";
import { toOrderLine } from "@/lib/orders/shape";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import type { OrderPartData } from "@/lib/schemas/seller/orders";
import { CURRENCY } from "@/lib/currency";

/**
 * A store's part of an order as the seller API shows it (`order_part`): the store's lines,
 * shipping charge and fulfilment, the buyer's e-mail and address; nothing of other stores' parts
 * or of the payment.
 */

const PART_INCLUDE = {
  order: { select: { id: true, number: true, placedVia: true, email: true, shippingAddress: true, currency: true } },
  lines: { orderBy: { position: "asc" as const } },
} satisfies Prisma.OrderStoreInclude;
type PartRow = Prisma.OrderStoreGetPayload<{ include: typeof PART_INCLUDE }>;

function toOrderPart(row: PartRow): OrderPartData {
  const subtotal = row.lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  return {
    id: row.order.id,
    object: "order_part",
    number: row.order.number,
    status: row.status,
    placed_via: row.order.placedVia,
    email: row.order.email,
    shipping_address: row.order.shippingAddress as unknown as ShippingAddressData,
    lines: row.lines.map(toOrderLine),
    subtotal_cents: subtotal,
    shipping_cents: row.shippingCents,
    total_cents: subtotal + row.shippingCents,
    currency: row.order.currency as typeof CURRENCY,
    carrier: row.carrier,
    tracking_number: row.trackingNumber,
    shipped_at: row.shippedAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    cancelled_at: row.cancelledAt?.toISOString() ?? null,
    cancel_reason: row.cancelReason as OrderPartData["cancel_reason"],
    refund_cents: row.refundCents,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The store's parts of these orders, in the order of `orderIds`. */
export async function loadOrderParts(db: DbClient, storeId: string, orderIds: string[]): Promise<OrderPartData[]> {
  if (orderIds.length === 0) return [];
  const rows = await db.orderStore.findMany({ where: { storeId, orderId: { in: orderIds } }, include: PART_INCLUDE });
  const byId = new Map(rows.map((r) => [r.orderId, r]));
  return orderIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toOrderPart(row)] : [];
  });
}

/** GET /orders/{number}: by the order's number (any case) or id; another store's order is not found. */
export async function getOrderPart(db: DbClient, storeId: string, ref: string): Promise<OrderPartData> {
  const where = orderRefWhere(ref);
  const row = where ? await db.orderStore.findFirst({ where: { storeId, order: where }, include: PART_INCLUDE }) : null;
  if (!row) throw orderNotFound(ref);
  return toOrderPart(row);
}
