import type { Prisma } from "@/lib/db";
import type { OrderRow } from "@/lib/orders/shape";
import type { ShippingAddressData } from "@/lib/schemas/orders";
import type { Charged } from "./charge";
import type { Quote, QuoteStore } from "./price";
import { adjustmentsOf, type Taken } from "./stock";
import type { Tx } from "./types";

/**
 * Step "write the orders": the order with each store's part, its lines as they are now and a
 * `placed` event, the stock adjustments of what was taken, and the bought lines out of the cart.
 * A session that splits by store (the commerce protocols' checkouts) writes one order per store
 * instead, each with its own lines, shipping and total, all paid by the one charge.
 */

export interface OrderToWrite {
  sessionId: string;
  /** The one-shot doors' token (a repeat answers the order); null on orders split by store. */
  checkoutToken: string | null;
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

/** One order for the whole quote, or (`splitByStore`) one per store, in the quote's store order. */
export async function writeOrders(tx: Tx, input: OrderToWrite, splitByStore: boolean): Promise<OrderRow[]> {
  if (!splitByStore) return [await writeOrder(tx, input)];
  const rows: OrderRow[] = [];
  for (const store of input.quote.stores) {
    const listings = new Set(store.lines.map((l) => l.listing_id));
    rows.push(await writeOrder(tx, { ...input, checkoutToken: null, quote: storeQuote(input.quote, store), taken: input.taken.filter((t) => listings.has(t.listing_id)) }));
  }
  return rows;
}

/** The part of a quote one store sells: its lines, its subtotal and shipping, their total. */
export function storeQuote(quote: Quote, store: QuoteStore): Quote {
  return {
    ...quote,
    lines: store.lines,
    stores: [store],
    subtotal_cents: store.subtotal_cents,
    shipping_cents: store.shipping_cents,
    total_cents: store.subtotal_cents + store.shipping_cents,
    changes: [],
  };
}

async function writeOrder(tx: Tx, input: OrderToWrite): Promise<OrderRow> {
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
    // What was typed on /checkout (lib/checkout/draft.ts) has served its purpose.
    await tx.$executeRaw`UPDATE carts SET checkout_draft = NULL WHERE id = ${input.cartId}::uuid AND checkout_draft IS NOT NULL`;
  }
  return { ...order, parts: parts.map((part) => ({ ...part, lines: lines.filter((l) => l.storeId === part.storeId) })) };
}
