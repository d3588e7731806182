/**
 * Orders for tests, written with SQL the way checkout writes them: the order (number from its
 * sequence, shipping address and payment snapshot), one `order_stores` part per store, lines that
 * copy the listing as it is now (title, product slug, store slug, condition, unit price), and the
 * `placed` event. `status` then moves every part (and the order) on, as the desk would, with the
 * events that goes with.
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";

export interface FixturePartInput {
  /** Store slug. */
  store: string;
  /** One entry per line: its quantity and, optionally, a unit price other than the listing's. */
  lines: { quantity: number; unitPriceCents?: number }[];
  shippingCents?: number;
}

export interface FixtureOrderInput {
  /** Null: a guest's order. */
  userId: string | null;
  email: string;
  parts: FixturePartInput[];
  status?: "placed" | "shipped" | "delivered";
  /** When a delivered order was delivered (default now). */
  deliveredAt?: Date;
  /** When the order was placed (default now). */
  createdAt?: Date;
  placedVia?: "storefront" | "agent";
  /** Take the lines' units from the listings' stock with a stock adjustment each, as checkout does (default: leave stock alone). */
  takeStock?: boolean;
}

export interface FixtureLine {
  id: string;
  storeId: string;
  storeSlug: string;
  listingId: string;
  title: string;
  quantity: number;
  unitPriceCents: number;
}

export interface FixtureOrder {
  id: string;
  number: string;
  lines: FixtureLine[];
  subtotalCents: number;
  shippingCents: number;
  paymentRef: string;
}

export const FIXTURE_ADDRESS = {
  full_name: "Ada Lovelace",
  line1: "12 Analytical Row",
  line2: null,
  city: "Portland",
  state: "OR",
  postal_code: "97201",
  country: "US",
};

/** Listings of a store to buy from (any state: an order keeps what was bought). */
async function listingsOf(pool: pg.PoolClient, slug: string, count: number) {
  const { rows } = await pool.query(
    `SELECT l.id, l.store_id, s.slug AS store_slug, p.slug AS product_slug, p.title, l.condition::text AS condition, l.price_cents
       FROM listings l JOIN stores s ON s.id = l.store_id JOIN products p ON p.id = l.product_id
      WHERE s.slug = $1 ORDER BY l.sku LIMIT $2`,
    [slug, count],
  );
  if (rows.length < count) throw new Error(`store ${slug} has fewer than ${count} listings`);
  return rows;
}

export async function createTestOrder(pool: pg.Pool, input: FixtureOrderInput): Promise<FixtureOrder> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const createdAt = input.createdAt ?? new Date();
    const planned = [];
    for (const part of input.parts) {
      const listings = await listingsOf(client, part.store, part.lines.length);
      planned.push({
        part,
        storeId: listings[0].store_id as string,
        lines: part.lines.map((l, i) => ({ ...l, listing: listings[i], unit: l.unitPriceCents ?? (listings[i].price_cents as number) })),
      });
    }
    const subtotal = planned.flatMap((p) => p.lines).reduce((s, l) => s + l.unit * l.quantity, 0);
    const shipping = planned.reduce((s, p) => s + (p.part.shippingCents ?? 0), 0);
    const paymentRef = `ch_${randomBytes(12).toString("hex")}`;
    const { rows } = await client.query(
      `INSERT INTO orders (user_id, email, status, placed_via, subtotal_cents, shipping_cents, total_cents, shipping_address,
                           payment_provider, payment_ref, payment_last4, created_at, updated_at)
       VALUES ($1, $2, 'placed', $3, $4, $5, $6, $7, 'test', $8, '4242', $9, $9) RETURNING id, number`,
      [input.userId, input.email, input.placedVia ?? "storefront", subtotal, shipping, subtotal + shipping, JSON.stringify(FIXTURE_ADDRESS), paymentRef, createdAt],
    );
    const order = rows[0] as { id: string; number: string };
    await client.query(`INSERT INTO order_events (order_id, store_id, status, note, created_at) VALUES ($1, NULL, 'placed', $2, $3)`, [
      order.id,
      `placed via ${input.placedVia ?? "storefront"}`,
      createdAt,
    ]);
    const lines: FixtureLine[] = [];
    let position = 0;
    for (const p of planned) {
      await client.query(`INSERT INTO order_stores (order_id, store_id, shipping_cents, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)`, [
        order.id,
        p.storeId,
        p.part.shippingCents ?? 0,
        createdAt,
      ]);
      for (const l of p.lines) {
        const { rows: inserted } = await client.query(
          `INSERT INTO order_lines (order_id, store_id, listing_id, position, product_slug, title, store_slug, condition, quantity, unit_price_cents, line_total_cents)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8::listing_condition, $9, $10, $11) RETURNING id`,
          [order.id, p.storeId, l.listing.id, position++, l.listing.product_slug, l.listing.title, l.listing.store_slug, l.listing.condition, l.quantity, l.unit, l.unit * l.quantity],
        );
        lines.push({
          id: inserted[0].id,
          storeId: p.storeId,
          storeSlug: l.listing.store_slug,
          listingId: l.listing.id,
          title: l.listing.title,
          quantity: l.quantity,
          unitPriceCents: l.unit,
        });
        if (input.takeStock) {
          await client.query(
            `WITH taken AS (SELECT quantity AS before FROM listings WHERE id = $1 FOR UPDATE),
                  moved AS (UPDATE listings SET quantity = GREATEST(quantity - $2, 0) WHERE id = $1 RETURNING quantity)
             INSERT INTO stock_adjustments (listing_id, delta, quantity_after, reason)
             SELECT $1, moved.quantity - taken.before, moved.quantity, $3 FROM taken, moved`,
            [l.listing.id, l.quantity, `order ${order.number}`],
          );
        }
      }
    }
    const status = input.status ?? "placed";
    if (status !== "placed") {
      const shippedAt = new Date((input.deliveredAt ?? new Date()).getTime() - 60_000);
      await client.query(
        `UPDATE order_stores SET status = 'shipped', tracking_number = 'TRACK-' || left(store_id::text, 8), shipped_at = $2 WHERE order_id = $1`,
        [order.id, shippedAt],
      );
      await client.query(
        `INSERT INTO order_events (order_id, store_id, status, created_at) SELECT order_id, store_id, 'shipped', $2 FROM order_stores WHERE order_id = $1`,
        [order.id, shippedAt],
      );
      await client.query(`UPDATE orders SET status = 'shipped' WHERE id = $1`, [order.id]);
      await client.query(`INSERT INTO order_events (order_id, store_id, status, created_at) VALUES ($1, NULL, 'shipped', $2)`, [order.id, shippedAt]);
    }
    if (status === "delivered") {
      const at = input.deliveredAt ?? new Date();
      await client.query(`UPDATE order_stores SET status = 'delivered', delivered_at = $2 WHERE order_id = $1`, [order.id, at]);
      await client.query(
        `INSERT INTO order_events (order_id, store_id, status, created_at) SELECT order_id, store_id, 'delivered', $2 FROM order_stores WHERE order_id = $1`,
        [order.id, at],
      );
      await client.query(`UPDATE orders SET status = 'delivered', delivered_at = $2 WHERE id = $1`, [order.id, at]);
      await client.query(`INSERT INTO order_events (order_id, store_id, status, created_at) VALUES ($1, NULL, 'delivered', $2)`, [order.id, at]);
    }
    await client.query("COMMIT");
    return { id: order.id, number: order.number, lines, subtotalCents: subtotal, shippingCents: shipping, paymentRef };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
