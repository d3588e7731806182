import type { Prisma } from "@/lib/db";
import type { OrderData, OrderLineData, ReturnData, ShippingAddressData } from "@/lib/schemas/orders";

/** What toOrder needs loaded: the order with its parts' lines. */
export const ORDER_INCLUDE = {
  parts: { include: { lines: true } },
} satisfies Prisma.OrderInclude;
export type OrderRow = Prisma.OrderGetPayload<{ include: typeof ORDER_INCLUDE }>;

export const RETURN_INCLUDE = { lines: true } satisfies Prisma.ReturnInclude;
export type ReturnRow = Prisma.ReturnGetPayload<{ include: typeof RETURN_INCLUDE }>;

/** A stored line in its wire shape (the order's `lines[]`). */
export function toOrderLine(line: OrderRow["parts"][number]["lines"][number]): OrderLineData {
  return {
    id: line.id,
    listing_id: line.listingId,
    product_slug: line.productSlug,
    title: line.title,
    store_slug: line.storeSlug,
    condition: line.condition,
    quantity: line.quantity,
    unit_price_cents: line.unitPriceCents,
    line_total_cents: line.lineTotalCents,
  };
}

/** A stored order in its wire shape (decisions.md), exactly these fields; lines in checkout order. */
export function toOrder(row: OrderRow): OrderData {
  const lines = row.parts.flatMap((part) => part.lines).sort((a, b) => a.position - b.position);
  return {
    id: row.id,
    object: "order",
    number: row.number,
    status: row.status,
    placed_via: row.placedVia,
    lines: lines.map(toOrderLine),
    subtotal_cents: row.subtotalCents,
    shipping_cents: row.shippingCents,
    total_cents: row.totalCents,
    currency: row.currency,
    shipping_address: row.shippingAddress as unknown as ShippingAddressData,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A stored return in its wire shape, exactly these fields. */
export function toReturn(row: ReturnRow): ReturnData {
  return {
    id: row.id,
    object: "return",
    order_id: row.orderId,
    status: row.status,
    lines: row.lines.map((line) => ({
      order_line_id: line.orderLineId,
      quantity: line.quantity,
      reason: line.reason,
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
