import type { Prisma, DbClient } from "@/lib/db";
import { orderPageUrl } from "@/lib/orders/confirmation";
import { total } from "./checkout";

/**
 * An order as ACP's order webhooks carry it (openapi.agentic_checkout_webhook.yaml, 2026-04-17:
 * `data` is the full Order of the checkout spec, with `type: "order"`). One order is one store's
 * part of a checkout: its lines, one shipping fulfillment with the store's tracking number, and
 * its totals.
 */

const INCLUDE = { parts: { include: { lines: true } } } as const;
type OrderRow = Prisma.OrderGetPayload<{ include: typeof INCLUDE }>;

/** ACP's order statuses for ours: placed is `confirmed`, delivered `completed`. */
const ORDER_STATUS = { placed: "confirmed", shipped: "shipped", delivered: "completed", cancelled: "canceled" } as const;
const FULFILLMENT_STATUS = { placed: "processing", shipped: "shipped", delivered: "delivered", cancelled: "canceled" } as const;

function renderAcpOrder(row: OrderRow & { checkoutSessionId: string }) {
  const parts = row.parts;
  const lines = parts
    .flatMap((p) => p.lines.map((l) => ({ ...l, dispatched: p.status === "shipped" || p.status === "delivered", cancelled: p.status === "cancelled" })))
    .sort((a, b) => a.position - b.position);
  return {
    type: "order" as const,
    id: row.id,
    checkout_session_id: row.checkoutSessionId,
    order_number: row.number,
    permalink_url: orderPageUrl({ id: row.id, number: row.number, accountHolder: row.userId !== null }),
    status: ORDER_STATUS[row.status],
    line_items: lines.map((l) => ({
      id: l.listingId,
      title: l.title,
      quantity: { ordered: l.quantity, current: l.cancelled ? 0 : l.quantity, fulfilled: l.dispatched ? l.quantity : 0 },
      unit_price: l.unitPriceCents,
      subtotal: l.lineTotalCents,
      status: l.cancelled ? "removed" : l.dispatched ? "fulfilled" : "processing",
    })),
    fulfillments: parts.map((p) => ({
      id: `ful_${p.storeId}`,
      type: "shipping" as const,
      status: FULFILLMENT_STATUS[p.status],
      line_items: p.lines.map((l) => ({ id: l.listingId, quantity: l.quantity })),
      ...(p.trackingNumber ? { tracking_number: p.trackingNumber } : {}),
    })),
    totals: [total("subtotal", "Subtotal", row.subtotalCents), total("fulfillment", "Shipping", row.shippingCents), total("total", "Total", row.totalCents)],
  };
}

/** The order `id` as its ACP order webhook carries it, or null when it is gone. */
export async function acpOrderForEvent(client: DbClient, id: string) {
  const row = await client.order.findUnique({ where: { id }, include: INCLUDE });
  return row && row.checkoutSessionId !== null ? renderAcpOrder({ ...row, checkoutSessionId: row.checkoutSessionId }) : null;
}
