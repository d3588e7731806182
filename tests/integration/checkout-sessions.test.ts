/**
 * Checkout sessions (lib/checkout/): created, read, updated, completed, canceled and expired,
 * called directly against an app's database as the doors call them. Each reading lists every
 * requirement left at once; completing is all or nothing, once, whatever races it.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDb, type PrismaClient } from "../../lib/db";
import { AppError } from "../../lib/errors";
import { testProvider } from "../../lib/payments/test-provider";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const GOOD_CARD = "4242424242424242";
const DECLINED_CARD = "4000000000000002";
const ADDRESS = { full_name: "Sam Session", line1: "1 Quay Street", city: "Portland", state: "OR", postal_code: "97201" };

let app: IsolatedApp;
let client: PrismaClient;
let checkout: typeof import("../../lib/checkout");
let productId: string;

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await app.pool.query(sql, params)).rows as T[];
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
  return row!.n;
}

let skuSeq = 0;

/** An active listing of `store`; `shippingTemplate` gives it a rate (else it ships free). */
async function listing(store: string, priceCents: number, quantity = 50, shippingTemplate: string | null = null): Promise<string> {
  const [row] = await query(
    `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at, shipping_template_id)
     VALUES ($1, $2, $3, 'new', $4, $4, $5, false, 'active', now(), $6) RETURNING id`,
    [await storeIdOf(app.pool, store), productId, `SES-${++skuSeq}-${randomBytes(3).toString("hex")}`, priceCents, quantity, shippingTemplate],
  );
  return row.id;
}

/** A shipping template of `store` whose US standard rate is `priceCents`. */
async function template(store: string, priceCents: number): Promise<string> {
  const [row] = await query(`INSERT INTO shipping_templates (store_id, name) VALUES ($1, $2) RETURNING id`, [await storeIdOf(app.pool, store), `T-${randomBytes(3).toString("hex")}`]);
  await query(`INSERT INTO shipping_rates (template_id, region, service, price_cents, min_days, max_days) VALUES ($1, 'US', 'standard', $2, 2, 5)`, [row.id, priceCents]);
  return row.id;
}

async function quantityOf(id: string): Promise<number> {
  return (await query(`SELECT quantity FROM listings WHERE id = $1`, [id]))[0].quantity;
}

/** An account holder with a default address and the test card. */
async function holder(label: string): Promise<string> {
  const [row] = await query(`INSERT INTO users (email, name, role) VALUES ($1, 'Hana Holder', 'shopper') RETURNING id`, [`${label}-${randomBytes(4).toString("hex")}@example.com`]);
  await query(
    `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Hana Holder', '5 Elm Road', 'Portland', 'OR', '97201', 'US', true)`,
    [row.id],
  );
  await query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'test', 'test_card', 'Test card', '4242', true)`, [row.id]);
  return row.id;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).name, String(err)).toBe("AppError");
  return err as AppError;
}

const GUEST = { userId: null };
const email = () => `guest-${randomBytes(4).toString("hex")}@example.com`;

beforeAll(async () => {
  app = await startIsolatedApp("checkout-sessions");
  // This process's pool waits as long as it takes for a connection: the races below queue 100
  // checkouts for 10 connections, and on a loaded machine the app's 5 s default (a 503 for a
  // request, by design) would turn a slow turn into a failure.
  const connectWait = process.env.DATABASE_CONNECT_TIMEOUT_MS;
  process.env.DATABASE_CONNECT_TIMEOUT_MS = "0";
  client = createDb(app.database.databaseUrl);
  if (connectWait === undefined) delete process.env.DATABASE_CONNECT_TIMEOUT_MS;
  else process.env.DATABASE_CONNECT_TIMEOUT_MS = connectWait;
  (globalThis as unknown as { __marketplaceDb?: PrismaClient }).__marketplaceDb = client;
  checkout = await import("../../lib/checkout");
  productId = (await query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`))[0].id;
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("a session lists every requirement at once", () => {
  it("a guest's session with a sold-out line and nothing else given: four requirements, each with code, path, severity and message", async () => {
    const soldOut = await listing("fixture-store-a", 1500, 0);
    const good = await listing("fixture-store-b", 2500);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: soldOut, quantity: 1 }, { listing_id: good, quantity: 2 }] }, placedVia: "storefront" });
    // A guest's e-mail is given at creation; take it away to see it asked for.
    await query(`UPDATE checkout_sessions SET email = NULL WHERE id = $1`, [session.id]);
    const view = await checkout.getCheckoutSession(client, session.id, GUEST);
    expect(view.status).toBe("incomplete");
    expect(view.requirements.map((r) => [r.code, r.path, r.severity])).toEqual([
      ["insufficient_stock", "lines[0]", "recoverable"],
      ["parameter_missing", "buyer.email", "recoverable"],
      ["shipping_address_missing", "shipping_address", "recoverable"],
      ["payment_method_missing", "payment", "recoverable"],
    ]);
    for (const r of view.requirements) expect(Object.keys(r).sort()).toEqual(["code", "message", "path", "severity"]);
    expect(view.requirements.every((r) => r.message.length > 10)).toBe(true);
    // Totals over what can be bought: the sold-out line counts for nothing.
    expect([view.quote.subtotal_cents, view.quote.total_cents]).toEqual([5000, 5000]);
    expect(view.expires_at).toBe(new Date(new Date(view.created_at).getTime() + checkout.SESSION_TTL_MS).toISOString());
  });

  it("given everything, the session is ready; a line that sells out later makes it incomplete again", async () => {
    const item = await listing("fixture-store-a", 1200, 3);
    const created = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 2 }] }, placedVia: "storefront" });
    expect(created.requirements.map((r) => r.code)).toEqual(["shipping_address_missing", "payment_method_missing"]);
    const ready = await client.$transaction((tx) => checkout.updateCheckoutSession(tx, created.id, GUEST, { shippingAddress: ADDRESS, payment: "card" }));
    expect([ready.status, ready.requirements]).toEqual(["ready_for_complete", []]);
    expect(ready.shipping_address).toMatchObject({ ...ADDRESS, country: "US", line2: null });

    await query(`UPDATE listings SET quantity = 1 WHERE id = $1`, [item]);
    const short = await checkout.getCheckoutSession(client, created.id, GUEST);
    expect(short.status).toBe("incomplete");
    expect(short.requirements.map((r) => [r.code, r.path])).toEqual([["insufficient_stock", "lines[0]"]]);
  });

  it("an account holder's session uses the default address and card: ready at once", async () => {
    const id = await holder("ready");
    const item = await listing("fixture-store-a", 900);
    const view = await checkout.createCheckoutSession(client, { buyer: { userId: id }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront" });
    expect([view.status, view.payment, view.buyer.account_holder, view.shipping_address?.line1]).toEqual(["ready_for_complete", "saved", true, "5 Elm Road"]);
  });

  it("bad input is refused naming the field, and nothing is written", async () => {
    const before = await count(`SELECT count(*) FROM checkout_sessions`);
    const cases: Array<[Promise<unknown>, string, string]> = [
      [checkout.createCheckoutSession(client, { buyer: { email: "not an address" }, source: { lines: [{ listing_id: randomUuid(), quantity: 1 }] }, placedVia: "storefront" }), "parameter_invalid", "email"],
      [checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [] }, placedVia: "storefront" }), "parameter_missing", "lines"],
      [checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: Array.from({ length: 10_000 }, () => ({ listing_id: randomUuid(), quantity: 1 })) }, placedVia: "storefront" }), "parameter_invalid", "lines"],
      [checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: "'; DROP TABLE orders; --", quantity: 1 }] }, placedVia: "storefront" }), "parameter_invalid", "lines[0].listing_id"],
      [checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: randomUuid(), quantity: 1e12 }] }, placedVia: "storefront" }), "parameter_invalid", "lines[0].quantity"],
      [checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: randomUuid(), quantity: 1 }] }, placedVia: "storefront", shippingAddress: { ...ADDRESS, city: "Port\u0000land" } }), "parameter_invalid", "shipping_address.city"],
    ];
    for (const [promise, code, param] of cases) {
      const err = await refusal(promise);
      expect([err.code, err.param]).toEqual([code, param]);
    }
    expect(await count(`SELECT count(*) FROM checkout_sessions`)).toBe(before);
  });
});

describe("who sees a session", () => {
  it("another holder's session, a guest reading a holder's, and ids that are not ids: 404 checkout_session_not_found", async () => {
    const owner = await holder("owner");
    const other = await holder("other");
    const item = await listing("fixture-store-a", 700);
    const view = await checkout.createCheckoutSession(client, { buyer: { userId: owner }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront" });
    for (const [id, viewer] of [
      [view.id, { userId: other }],
      [view.id, GUEST],
      [randomUuid(), { userId: owner }],
      ["not-a-uuid", { userId: owner }],
      [`${view.id}\u0000`, { userId: owner }],
    ] as const) {
      for (const call of [
        () => checkout.getCheckoutSession(client, id, viewer),
        () => client.$transaction((tx) => checkout.updateCheckoutSession(tx, id, viewer, { payment: "card" })),
        () => client.$transaction((tx) => checkout.cancelCheckoutSession(tx, id, viewer)),
        () => checkout.completeCheckoutSession(client, id, viewer),
      ]) {
        const err = await refusal(call());
        expect([err.code, err.status]).toEqual(["checkout_session_not_found", 404]);
      }
    }
    expect((await checkout.getCheckoutSession(client, view.id, { userId: owner })).status).toBe("ready_for_complete");
  });
});

describe("completing", () => {
  it("three stores: one charge, each store's part and stock taken once, parts adding up to the session's total", async () => {
    const rate = await template("fixture-store-b", 599);
    const a = await listing("fixture-store-a", 1000, 10);
    const b = await listing("fixture-store-b", 2000, 10, rate);
    const c = await listing("harbor-electronics", 3000, 10);
    const guest = email();
    const session = await checkout.createCheckoutSession(client, {
      buyer: { email: guest },
      source: { lines: [{ listing_id: a, quantity: 1 }, { listing_id: b, quantity: 2 }, { listing_id: c, quantity: 3 }] },
      placedVia: "storefront",
      shippingAddress: ADDRESS,
      payment: "card",
    });
    expect(session.status).toBe("ready_for_complete");
    expect(session.quote.stores.map((s) => [s.store_slug, s.subtotal_cents, s.shipping_cents])).toEqual([
      ["fixture-store-a", 1000, 0],
      ["fixture-store-b", 4000, 599],
      ["harbor-electronics", 9000, 0],
    ]);
    expect(session.quote.total_cents).toBe(14_599);

    const charge = vi.spyOn(testProvider, "charge");
    try {
      const { session: done, placed: orders } = await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD });
      const placed = orders[0]!;
      expect(orders).toHaveLength(1);
      expect(charge).toHaveBeenCalledTimes(1);
      expect(charge.mock.calls[0]![0].amountCents).toBe(14_599);
      expect(placed.replayed).toBe(false);
      expect(placed.email).toBe(guest);
      expect(done.status).toBe("completed");
      expect(done.requirements).toEqual([]);
      expect(done.orders.map((o) => o.number)).toEqual([placed.order.number]);
      expect(placed.stores.map((s) => s.subtotal_cents + s.shipping_cents).reduce((x, y) => x + y, 0)).toBe(done.quote.total_cents);
      expect(placed.order.total_cents).toBe(14_599);
      // The completed session shows what was bought, at the prices paid.
      expect(done.quote.lines.map((l) => [l.listing_id, l.quantity, l.unit_price_cents])).toEqual([
        [a, 1, 1000],
        [b, 2, 2000],
        [c, 3, 3000],
      ]);
      expect([await quantityOf(a), await quantityOf(b), await quantityOf(c)]).toEqual([9, 8, 7]);
      expect(await count(`SELECT count(*) FROM stock_adjustments WHERE listing_id = ANY($1::uuid[])`, [[a, b, c]])).toBe(3);
      expect(await count(`SELECT count(*) FROM order_stores WHERE order_id = $1`, [placed.order.id])).toBe(3);
      expect(await count(`SELECT count(*) FROM orders WHERE checkout_session_id = $1`, [session.id])).toBe(1);

      // Completing again answers the same order and charges nothing.
      const again = await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD });
      expect(again.placed.map((p) => [p.replayed, p.order.number])).toEqual([[true, placed.order.number]]);
      expect(charge).toHaveBeenCalledTimes(1);
      // A completed session cannot change or be canceled.
      for (const call of [() => client.$transaction((tx) => checkout.updateCheckoutSession(tx, session.id, GUEST, { payment: "card" })), () => client.$transaction((tx) => checkout.cancelCheckoutSession(tx, session.id, GUEST))]) {
        const err = await refusal(call());
        expect([err.code, err.status, err.type]).toEqual(["checkout_session_closed", 409, "state_error"]);
      }
    } finally {
      charge.mockRestore();
    }
  });

  it("a session that splits by store: three orders, one per store, one charge, their totals adding up to the session's", async () => {
    const rate = await template("fixture-store-b", 450);
    const a = await listing("fixture-store-a", 1100, 10);
    const b = await listing("fixture-store-b", 2200, 10, rate);
    const c = await listing("harbor-electronics", 3300, 10);
    const session = await checkout.createCheckoutSession(client, {
      buyer: { email: email() },
      source: { lines: [{ listing_id: a, quantity: 1 }, { listing_id: b, quantity: 1 }, { listing_id: c, quantity: 2 }] },
      placedVia: "storefront",
      shippingAddress: ADDRESS,
      payment: "card",
      splitByStore: true,
    });
    const charge = vi.spyOn(testProvider, "charge");
    try {
      const { session: done, placed } = await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD });
      expect(charge).toHaveBeenCalledTimes(1);
      expect(charge.mock.calls[0]![0].amountCents).toBe(session.quote.total_cents);
      expect(placed.map((p) => [p.stores.map((s) => s.store_slug), p.order.total_cents])).toEqual([
        [["fixture-store-a"], 1100],
        [["fixture-store-b"], 2650],
        [["harbor-electronics"], 6600],
      ]);
      expect(placed.reduce((sum, p) => sum + p.order.total_cents, 0)).toBe(session.quote.total_cents);
      expect(done.orders.map((o) => o.id)).toEqual(placed.map((p) => p.order.id));
      expect(done.quote.total_cents).toBe(session.quote.total_cents);
      const rows = await query(`SELECT payment_ref, checkout_token FROM orders WHERE checkout_session_id = $1`, [session.id]);
      expect(rows).toHaveLength(3);
      expect(new Set(rows.map((r) => r.payment_ref)).size).toBe(1);
      expect(rows.every((r) => r.checkout_token === null)).toBe(true);
      expect([await quantityOf(a), await quantityOf(b), await quantityOf(c)]).toEqual([9, 9, 8]);
      expect(await count(`SELECT count(*) FROM stock_adjustments WHERE listing_id = ANY($1::uuid[])`, [[a, b, c]])).toBe(3);

      const again = await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD });
      expect(again.placed.map((p) => [p.replayed, p.order.id])).toEqual(placed.map((p) => [true, p.order.id]));
      expect(charge).toHaveBeenCalledTimes(1);
    } finally {
      charge.mockRestore();
    }
  });

  it("a declined card leaves the session open and nothing behind; a good card then completes it", async () => {
    const item = await listing("fixture-store-a", 1800, 4);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 2 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" });
    const err = await refusal(checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: DECLINED_CARD }));
    expect([err.code, err.status]).toEqual(["payment_declined", 402]);
    expect((await checkout.getCheckoutSession(client, session.id, GUEST)).status).toBe("ready_for_complete");
    expect(await quantityOf(item)).toBe(4);
    expect(await count(`SELECT count(*) FROM orders WHERE checkout_session_id = $1`, [session.id])).toBe(0);
    const bad = await refusal(checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: "1234" }));
    expect([bad.code, bad.param]).toEqual(["parameter_invalid", "card_number"]);

    const placed = (await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD })).placed[0]!;
    expect(placed.order.total_cents).toBe(3600);
    expect(await quantityOf(item)).toBe(2);
  });

  it("a price that moved under the session: total_changed against the total the buyer saw, then completes at the new price", async () => {
    const item = await listing("fixture-store-a", 1000);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" });
    await query(`UPDATE listings SET price_cents = 1100 WHERE id = $1`, [item]);
    const err = await refusal(checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD, expectedTotalCents: session.quote.total_cents }));
    expect([err.code, err.extra]).toEqual(["total_changed", { total_cents: 1100 }]);
    const placed = (await checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD, expectedTotalCents: 1100 })).placed[0]!;
    expect(placed.order.total_cents).toBe(1100);
  });

  it("a session of a cart follows the cart until it completes, and its bought lines leave the cart", async () => {
    const id = await holder("cart");
    const first = await listing("fixture-store-a", 500);
    const second = await listing("fixture-store-b", 700);
    const [cart] = await query(`INSERT INTO carts (user_id) VALUES ($1) RETURNING id`, [id]);
    await query(`INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents) VALUES ($1, $2, 1, 500)`, [cart.id, first]);
    const session = await checkout.createCheckoutSession(client, { buyer: { userId: id }, source: { cart: { userId: id } }, placedVia: "storefront" });
    expect(session.quote.lines.map((l) => l.listing_id)).toEqual([first]);
    await query(`INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents, added_at) VALUES ($1, $2, 2, 700, now() + interval '1 second')`, [cart.id, second]);
    const placed = (await checkout.completeCheckoutSession(client, session.id, { userId: id })).placed[0]!;
    expect(placed.order.lines.map((l) => [l.listing_id, l.quantity])).toEqual([
      [first, 1],
      [second, 2],
    ]);
    expect(await count(`SELECT count(*) FROM cart_lines WHERE cart_id = $1`, [cart.id])).toBe(0);
  });

  it("50 concurrent completes of one session: one order, one charge, every caller answered with it", async () => {
    const item = await listing("fixture-store-a", 2500, 100);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" });
    const charge = vi.spyOn(testProvider, "charge");
    try {
      const results = await Promise.all(Array.from({ length: 50 }, () => checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD })));
      expect(new Set(results.flatMap((r) => r.placed.map((p) => p.order.number))).size).toBe(1);
      expect(results.filter((r) => !r.placed[0]!.replayed)).toHaveLength(1);
      expect(charge).toHaveBeenCalledTimes(1);
    } finally {
      charge.mockRestore();
    }
    expect(await count(`SELECT count(*) FROM orders WHERE checkout_session_id = $1`, [session.id])).toBe(1);
    expect(await quantityOf(item)).toBe(99);
  });

  it("100 sessions racing for the last unit: exactly one order, the others told it sold out, quantity 0", async () => {
    const item = await listing("fixture-store-a", 4000, 1);
    const sessions = await Promise.all(
      Array.from({ length: 100 }, () =>
        checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" }),
      ),
    );
    const outcomes = await Promise.allSettled(sessions.map((s) => checkout.completeCheckoutSession(client, s.id, GUEST, { cardNumber: GOOD_CARD })));
    const placed = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as AppError] : []));
    expect(refused.filter((e) => !(e instanceof AppError)).map(String)).toEqual([]);
    expect(placed).toHaveLength(1);
    expect(new Set(refused.map((e) => `${e.code} ${e.param}`))).toEqual(new Set(["insufficient_stock lines[0]"]));
    expect(await quantityOf(item)).toBe(0);
    expect(await count(`SELECT count(*) FROM order_lines WHERE listing_id = $1`, [item])).toBe(1);
  });
});

describe("canceling and expiring", () => {
  it("a canceled session keeps its reason and cannot change, complete or cancel again", async () => {
    const item = await listing("fixture-store-a", 800);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" });
    const canceled = await client.$transaction((tx) => checkout.cancelCheckoutSession(tx, session.id, GUEST));
    expect([canceled.status, canceled.cancel_reason, canceled.requirements]).toEqual(["canceled", "canceled_by_buyer", []]);
    for (const call of [
      () => client.$transaction((tx) => checkout.updateCheckoutSession(tx, session.id, GUEST, { payment: "card" })),
      () => checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD }),
      () => client.$transaction((tx) => checkout.cancelCheckoutSession(tx, session.id, GUEST)),
    ]) {
      const err = await refusal(call());
      expect([err.code, err.status]).toEqual(["checkout_session_closed", 409]);
      expect(err.message).toMatch(/canceled/);
    }
    expect(await quantityOf(item)).toBe(50);
  });

  it("a session past its time reads as expired and cannot change or complete", async () => {
    const item = await listing("fixture-store-a", 800);
    const session = await checkout.createCheckoutSession(client, { buyer: { email: email() }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "storefront", shippingAddress: ADDRESS, payment: "card" });
    await query(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [session.id]);
    const view = await checkout.getCheckoutSession(client, session.id, GUEST);
    expect([view.status, view.requirements]).toEqual(["expired", []]);
    for (const call of [() => client.$transaction((tx) => checkout.updateCheckoutSession(tx, session.id, GUEST, { payment: "card" })), () => checkout.completeCheckoutSession(client, session.id, GUEST, { cardNumber: GOOD_CARD })]) {
      const err = await refusal(call());
      expect([err.code, err.status]).toEqual(["checkout_session_closed", 409]);
      expect(err.message).toMatch(/expired/);
    }
    expect(await count(`SELECT count(*) FROM orders WHERE checkout_session_id = $1`, [session.id])).toBe(0);
  });
});

describe("an agent's session is held to its holder's settings and limits", () => {
  async function marketplace(on: boolean) {
    await query(`INSERT INTO settings (key, value) VALUES ('agentic_checkout', $1::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`, [JSON.stringify(on)]);
  }
  async function allow(userId: string, perOrderCents: number, monthlyCents: number) {
    await query(
      `INSERT INTO agent_settings (user_id, orders_enabled, per_order_limit_cents, monthly_limit_cents) VALUES ($1, true, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET orders_enabled = true, per_order_limit_cents = $2, monthly_limit_cents = $3`,
      [userId, perOrderCents, monthlyCents],
    );
  }

  it("marketplace off, holder off, over the limit: each shown as its requirement; completing answers the agent MCP's codes", async () => {
    const id = await holder("agent");
    const item = await listing("fixture-store-a", 3000);
    const agent = { grantId: "grant-sessions", scopes: ["checkout"] };
    const session = await checkout.createCheckoutSession(client, { buyer: { userId: id }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "agent", agentGrantId: agent.grantId });
    const shown = async () => (await checkout.getCheckoutSession(client, session.id, { userId: id })).requirements.map((r) => [r.code, r.severity]);

    await marketplace(false);
    expect(await shown()).toEqual([["agentic_checkout_disabled", "unrecoverable"]]);
    expect((await checkout.getCheckoutSession(client, session.id, { userId: id })).status).toBe("incomplete");
    expect((await refusal(checkout.completeCheckoutSession(client, session.id, { userId: id }, { agent }))).code).toBe("agentic_checkout_disabled");

    await marketplace(true);
    expect(await shown()).toEqual([["agentic_purchasing_off", "requires_buyer_input"]]);
    expect((await checkout.getCheckoutSession(client, session.id, { userId: id })).status).toBe("requires_escalation");

    await allow(id, 2000, 10_000);
    expect(await shown()).toEqual([["per_order_limit_exceeded", "requires_buyer_input"]]);
    const over = await refusal(checkout.completeCheckoutSession(client, session.id, { userId: id }, { agent }));
    expect([over.code, over.status]).toEqual(["per_order_limit_exceeded", 403]);

    await allow(id, 5000, 10_000);
    expect((await checkout.getCheckoutSession(client, session.id, { userId: id })).status).toBe("ready_for_complete");
    const noScope = await refusal(checkout.completeCheckoutSession(client, session.id, { userId: id }, { agent: { ...agent, scopes: ["cart:read"] } }));
    expect(noScope.code).toBe("scope_missing");
    const missingAgent = await refusal(checkout.completeCheckoutSession(client, session.id, { userId: id }));
    expect([missingAgent.code, missingAgent.param]).toEqual(["parameter_invalid", "agent"]);

    const placed = (await checkout.completeCheckoutSession(client, session.id, { userId: id }, { agent })).placed[0]!;
    expect(placed.order.placed_via).toBe("agent");
    expect((await query(`SELECT agent_grant_id FROM orders WHERE id = $1`, [placed.order.id]))[0].agent_grant_id).toBe(agent.grantId);
    await marketplace(false);
  });

  it("10 concurrent agent sessions of one holder never pass the monthly limit together", async () => {
    const id = await holder("agent-race");
    await marketplace(true);
    await allow(id, 3000, 10_000);
    const item = await listing("fixture-store-a", 3000, 100);
    const agent = { grantId: "grant-race", scopes: ["checkout"] };
    const sessions = await Promise.all(
      Array.from({ length: 10 }, () => checkout.createCheckoutSession(client, { buyer: { userId: id }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "agent", agentGrantId: agent.grantId })),
    );
    const outcomes = await Promise.allSettled(sessions.map((s) => checkout.completeCheckoutSession(client, s.id, { userId: id }, { agent })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(3);
    const codes = outcomes.flatMap((o) => (o.status === "rejected" ? [(o.reason as AppError).code ?? String(o.reason)] : []));
    expect(new Set(codes)).toEqual(new Set(["monthly_limit_exceeded"]));
    expect(await count(`SELECT coalesce(sum(total_cents), 0) FROM orders WHERE user_id = $1`, [id])).toBe(9000);
    await marketplace(false);
  });
});

function randomUuid(): string {
  return crypto.randomUUID();
}
