import type { Prisma } from "@/lib/db";
import type { OrderRow } from "@/lib/orders/shape";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import type { Charged } from "./charge";
import type { Quote } from "./price";
import { adjustmentsOf, type Taken } from "./stock";
import type { Tx } from "./types";

/**
 * Step "write the orders": the order with each store's part, its lines as they are now and a
 * `placed` event, the stock adjustments of what was taken, and the bought lines out of the cart.
 */

export interface OrderToWrite {
  sessionId: string;
  checkoutToken: string;
  buyer: { userId: string | null; email: string };
  placedVia: "storefront" | "agent";
  agentGrantId: string | null;
  quote: Quote;
  address: ShippingAddressData;
  charged: Charged;
  taken: ReadonlyArray<Taken>;
  /** The cart the lines came from: its bought lines leave it. */
  cartId: string | null;
}

export async function writeOrder(tx: Tx, input: OrderToWrite): Promise<OrderRow> {
  const { quote } = input;
  const order = await tx.order.create({
    data: {
      userId: input.buyer.userId,
      email: input.buyer.email,
      placedVia: input.placedVia,
      subtotalCents: quote.subtotal_cents,
      shippingCents: quote.shipping_cents,
      totalCents: quote.total_cents,
      currency: quote.currency,
      shippingAddress: input.address as unknown as Prisma.InputJsonObject,
      paymentProvider: input.charged.provider,
      paymentRef: input.charged.chargeRef,
      paymentLast4: input.charged.last4,
      checkoutToken: input.checkoutToken,
      checkoutSessionId: input.sessionId,
      agentGrantId: input.agentGrantId,
    },
  });
  const parts = await tx.orderStore.createManyAndReturn({
    data: quote.stores.map((s) => ({ orderId: order.id, storeId: s.store_id, shippingCents: s.shipping_cents })),
  });
  const lines = await tx.orderLine.createManyAndReturn({
    data: quote.lines.map((l) => ({
      orderId: order.id,
      storeId: l.store_id!,
      listingId: l.listing_id,
      position: l.position,
      productSlug: l.product_slug!,
      title: l.title!,
      storeSlug: l.store_slug!,
      condition: l.condition!,
      quantity: l.quantity,
      unitPriceCents: l.unit_price_cents!,
      lineTotalCents: l.line_total_cents,
    })),
  });
  await tx.orderEvent.create({ data: { orderId: order.id, status: "placed", note: `placed via ${input.placedVia}` } });
  await tx.stockAdjustment.createMany({ data: adjustmentsOf(input.taken, order.number) });
  if (input.cartId) {
    await tx.cartLine.deleteMany({ where: { cartId: input.cartId, listingId: { in: quote.lines.map((l) => l.listing_id) } } });
  }
  return { ...order, parts: parts.map((part) => ({ ...part, lines: lines.filter((l) => l.storeId === part.storeId) })) };
}
