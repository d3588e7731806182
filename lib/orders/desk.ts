import type { Prisma, DbClient } from "@/lib/db";
import type { OrderLineData, OrderStatusValue, ShippingAddressData } from "@/lib/schemas/orders";
import type { CancelReason } from "@/lib/schemas/seller/orders";
import { afterCursor, NEWEST_FIRST, orderNotFound, orderRefWhere, pageOf, type ListQuery, type Page } from "./common";
import { toOrderLine } from "./shape";

/**
 * The seller desk's reads: orders holding lines of the given stores (the stores the caller may act
 * for). A store sees its own part (its lines, shipping charge and fulfilment), the buyer's
 * shipping address and e-mail, and nothing of other stores' parts or of the payment. An order
 * with no part of these stores is `order_not_found`, as is a forged id.
 */

export interface DeskPart {
  store: { id: string; slug: string; name: string };
  status: OrderStatusValue;
  lines: OrderLineData[];
  subtotal_cents: number;
  shipping_cents: number;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  cancelled_at: string | null;
  cancel_reason: CancelReason | null;
  refund_cents: number | null;
}

export interface DeskOrder {
  id: string;
  number: string;
  email: string;
  /** `agent` when an agent placed it for its holder. */
  placed_via: "storefront" | "agent";
  shipping_address: ShippingAddressData;
  created_at: string;
  /** The parts of the given stores only (one for a single store). */
  parts: DeskPart[];
}

const DESK_CURSOR = "desk_orders";

function include(storeIds: string[]) {
  return {
    parts: {
      where: { storeId: { in: storeIds } },
      include: { lines: { orderBy: { position: "asc" as const } }, store: { select: { id: true, slug: true, name: true } } },
      orderBy: { store: { name: "asc" as const } },
    },
  } satisfies Prisma.OrderInclude;
}

type DeskRow = Prisma.OrderGetPayload<{ include: ReturnType<typeof include> }>;

function toDeskOrder(row: DeskRow): DeskOrder {
  return {
    id: row.id,
    number: row.number,
    email: row.email,
    placed_via: row.placedVia,
    shipping_address: row.shippingAddress as unknown as ShippingAddressData,
    created_at: row.createdAt.toISOString(),
    parts: row.parts.map((p) => ({
      store: p.store,
      status: p.status,
      lines: p.lines.map(toOrderLine),
      subtotal_cents: p.lines.reduce((sum, l) => sum + l.lineTotalCents, 0),
      shipping_cents: p.shippingCents,
      carrier: p.carrier,
      tracking_number: p.trackingNumber,
      shipped_at: p.shippedAt?.toISOString() ?? null,
      delivered_at: p.deliveredAt?.toISOString() ?? null,
      cancelled_at: p.cancelledAt?.toISOString() ?? null,
      cancel_reason: p.cancelReason as CancelReason | null,
      refund_cents: p.refundCents,
    })),
  };
}

/** Orders holding lines of `storeIds`, newest first. */
export async function listDeskOrders(client: DbClient, storeIds: string[], query: ListQuery): Promise<Page<DeskOrder>> {
  const after = afterCursor(DESK_CURSOR, query);
  const rows = await client.order.findMany({
    where: { parts: { some: { storeId: { in: storeIds } } }, ...after },
    include: include(storeIds),
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return pageOf(DESK_CURSOR, rows, query.limit, toDeskOrder);
}

/** One order (by id or number) holding lines of `storeIds`, with those stores' parts only. */
export async function getDeskOrder(client: DbClient, storeIds: string[], ref: string): Promise<DeskOrder> {
  const where = orderRefWhere(ref);
  const row = where
    ? await client.order.findFirst({ where: { ...where, parts: { some: { storeId: { in: storeIds } } } }, include: include(storeIds) })
    : null;
  if (!row) throw orderNotFound(ref);
  return toDeskOrder(row);
}
