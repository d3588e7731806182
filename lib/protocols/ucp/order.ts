import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { orderPageUrl } from "@/lib/orders/confirmation";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import { CANCEL_REASON_TEXT, type CancelReason } from "@/lib/schemas/seller/orders";
import { lineItemId } from "./shapes";
import { UCP_CAPABILITIES, UCP_VERSION } from "./version";

/**
 * An order as UCP shows it (dev.ucp.shopping.order, 2026-01-11): its lines with how many have
 * shipped, where it goes (one expectation), what happened to it (`shipped` and `delivered`
 * events from its store's part), its totals, and a `cancellation` adjustment (with the amount
 * refunded) once its store cancelled it. One order is one store's part of a checkout.
 */

const INCLUDE = { parts: { include: { lines: true } } } as const;

type OrderRow = Prisma.OrderGetPayload<{ include: typeof INCLUDE }>;

/**
 * The order `id` of a checkout the viewer may see: orders of guest checkouts are found by their
 * unguessable id alone; an account holder's only by that holder.
 */
export async function ucpOrder(client: DbClient, id: unknown, viewer: { userId: string | null }) {
  const row = isUuid(id) ? await client.order.findUnique({ where: { id: id.toLowerCase() }, include: INCLUDE }) : null;
  if (!row || row.checkoutSessionId === null || row.userId !== viewer.userId) throw new AppError("order_not_found", "No such order.");
  return renderUcpOrder(row);
}

/** The order `id` as its UCP order webhook carries it (the full order, order.md), or null when it is gone. */
export async function ucpOrderForEvent(client: DbClient, id: string) {
  const row = await client.order.findUnique({ where: { id }, include: INCLUDE });
  return row && row.checkoutSessionId !== null ? renderUcpOrder(row) : null;
}

function renderUcpOrder(row: OrderRow) {
  const address = row.shippingAddress as unknown as ShippingAddressData;
  const lines = row.parts.flatMap((p) => p.lines.map((l) => ({ ...l, shipped: p.status === "shipped" || p.status === "delivered" }))).sort((a, b) => a.position - b.position);
  const events = row.parts.flatMap((p) => {
    const items = p.lines.map((l) => ({ id: lineItemId(l.listingId), quantity: l.quantity }));
    return [
      ...(p.shippedAt ? [{ id: `evt_${p.storeId}_shipped`, occurred_at: p.shippedAt.toISOString(), type: "shipped", line_items: items, ...(p.trackingNumber ? { tracking_number: p.trackingNumber } : {}) }] : []),
      ...(p.deliveredAt ? [{ id: `evt_${p.storeId}_delivered`, occurred_at: p.deliveredAt.toISOString(), type: "delivered", line_items: items }] : []),
    ];
  });
  const adjustments = row.parts.flatMap((p) =>
    p.status === "cancelled" && p.cancelledAt
      ? [
          {
            id: `adj_${p.storeId}_cancelled`,
            type: "cancellation",
            occurred_at: p.cancelledAt.toISOString(),
            status: "completed",
            line_items: p.lines.map((l) => ({ id: lineItemId(l.listingId), quantity: l.quantity })),
            amount: p.refundCents ?? 0,
            description: `Cancelled by the store (${CANCEL_REASON_TEXT[p.cancelReason as CancelReason]}); the items and the shipping charge were refunded.`,
          },
        ]
      : [],
  );
  return {
    ucp: { version: UCP_VERSION, capabilities: [{ name: UCP_CAPABILITIES.order, version: UCP_VERSION }] },
    id: row.id,
    checkout_id: row.checkoutSessionId,
    permalink_url: orderPageUrl({ id: row.id, number: row.number, accountHolder: row.userId !== null }),
    line_items: lines.map((l) => ({
      id: lineItemId(l.listingId),
      item: { id: l.listingId, title: l.title, price: l.unitPriceCents },
      quantity: { total: l.quantity, fulfilled: l.shipped ? l.quantity : 0 },
      totals: [
        { type: "subtotal", amount: l.lineTotalCents },
        { type: "total", amount: l.lineTotalCents },
      ],
      status: l.shipped ? "fulfilled" : "processing",
    })),
    fulfillment: {
      expectations: [
        {
          id: "exp_1",
          line_items: lines.map((l) => ({ id: lineItemId(l.listingId), quantity: l.quantity })),
          method_type: "shipping",
          destination: {
            full_name: address.full_name,
            street_address: address.line1,
            ...(address.line2 ? { extended_address: address.line2 } : {}),
            address_locality: address.city,
            address_region: address.state,
            postal_code: address.postal_code,
            address_country: address.country,
          },
          description: "Standard shipping",
        },
      ],
      events,
    },
    totals: [
      { type: "subtotal", amount: row.subtotalCents },
      { type: "fulfillment", amount: row.shippingCents },
      { type: "total", amount: row.totalCents },
    ],
    ...(adjustments.length > 0 ? { adjustments } : {}),
  };
}
