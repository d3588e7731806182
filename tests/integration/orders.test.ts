/**
 * Orders after checkout (decisions.md "Orders, checkout and returns"), at the domain functions the
 * pages, the buyer API and the agent MCP share: the buyer's orders and returns (only their own),
 * the seller desk (only the store's part), fulfilment (the order follows its parts, under row
 * locks), return requests (window, one store, quantities under a lock) and the store's return
 * moves with refunds. Orders are written by tests/helpers/orders.ts the way checkout writes them.
 * Runs on an app and database of its own (it writes).
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { deliverPart, getBuyerOrder, getDeskOrder, listBuyerOrders, listDeskOrders, markOrder, shipPart } from "@/lib/orders";
import { getBuyerReturn, listBuyerReturns, listDeskReturns, moveReturn, requestReturn } from "@/lib/returns";
import { CreateReturn, Order, Return, type CreateReturnData } from "@/lib/schemas/orders";
import { hashPassword } from "@/lib/accounts/password";
import { alertText, fillForm, linkHref, statusText } from "../helpers/forms";
import { parseHtml } from "../helpers/html";
import { expectExactKeys } from "../helpers/http";
import { createTestOrder, type FixtureOrder } from "../helpers/orders";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const ORDER_KEYS = Object.keys(Order.shape);
const ORDER_LINE_KEYS = ["id", "listing_id", "product_slug", "title", "store_slug", "condition", "quantity", "unit_price_cents", "line_total_cents"];
const RETURN_KEYS = Object.keys(Return.shape);
const DAY = 24 * 60 * 60 * 1000;

let app: IsolatedApp;
let client: PrismaClient;
let buyer = "";
let otherBuyer = "";
const stores = { a: "", b: "", c: "" };

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const emails = new Map<string, string>();

/** An account (with the app's own password hash), owning `ownedStores` (slugs). */
async function createUser(tag: string, ownedStores: string[] = []): Promise<string> {
  const email = `${tag}-${randomBytes(4).toString("hex")}@example.com`;
  const { rows } = await app.pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, $3, $4) RETURNING id`, [
    email,
    tag,
    ownedStores.length ? "store_owner" : "shopper",
    await hashPassword(PASSWORD),
  ]);
  for (const slug of ownedStores) await app.pool.query(`INSERT INTO store_owners (store_id, user_id) VALUES ($1, $2)`, [await storeIdOf(app.pool, slug), rows[0].id]);
  emails.set(rows[0].id, email);
  return rows[0].id;
}

/** The AppError `promise` rejects with (it must reject with one). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

async function expectRefused(promise: Promise<unknown>, code: string, param?: string): Promise<AppError> {
  const err = await refusal(promise);
  expect(err.code, err.message).toBe(code);
  expect(err.param).toBe(param);
  return err;
}

/** Everything a refused move could have touched, to prove it touched nothing. */
async function stateOf(orderId: string) {
  const q = async (sql: string) => (await app.pool.query(sql, [orderId])).rows;
  return {
    order: await q(`SELECT status, delivered_at, updated_at FROM orders WHERE id = $1`),
    parts: await q(`SELECT store_id, status, tracking_number, shipped_at, delivered_at, updated_at FROM order_stores WHERE order_id = $1 ORDER BY store_id`),
    events: await q(`SELECT count(*)::int AS n FROM order_events WHERE order_id = $1`),
    returns: await q(`SELECT r.id, r.status, r.refund_cents, r.updated_at, (SELECT json_agg(l ORDER BY l.order_line_id) FROM return_lines l WHERE l.return_id = r.id) AS lines
                        FROM returns r WHERE r.order_id = $1 ORDER BY r.id`),
  };
}

async function outbox(number: string) {
  const { rows } = await app.pool.query(`SELECT to_address, subject, body FROM outbox_emails WHERE subject LIKE $1 ORDER BY created_at, id`, [`%${number}%`]);
  return rows as { to_address: string; subject: string; body: string }[];
}

const tx = <T>(fn: (tx: Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0]) => Promise<T>) => client.$transaction(fn);

function twoStoreOrder(userId: string | null, extra: Partial<Parameters<typeof createTestOrder>[1]> = {}): Promise<FixtureOrder> {
  return createTestOrder(app.pool, {
    userId,
    email: "buyer@example.com",
    parts: [
      { store: "fixture-store-a", lines: [{ quantity: 3 }, { quantity: 1 }], shippingCents: 0 },
      { store: "fixture-store-b", lines: [{ quantity: 2 }], shippingCents: 500 },
    ],
    ...extra,
  });
}

beforeAll(async () => {
  app = await startIsolatedApp("orders");
  client = createDb(app.database.databaseUrl);
  buyer = await createUser("buyer");
  otherBuyer = await createUser("other-buyer");
  stores.a = await storeIdOf(app.pool, "fixture-store-a");
  stores.b = await storeIdOf(app.pool, "fixture-store-b");
  stores.c = await storeIdOf(app.pool, "harbor-electronics");
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("the buyer's orders", () => {
  it("lists only the buyer's own orders, newest first, in pages with a cursor; each exactly the Order shape", async () => {
    const user = await createUser("lister");
    const base = Date.now() - 10 * DAY;
    const made: FixtureOrder[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createTestOrder(app.pool, { userId: user, email: "l@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }], createdAt: new Date(base + i * DAY) }));
    }
    await createTestOrder(app.pool, { userId: otherBuyer, email: "o@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }] });
    await createTestOrder(app.pool, { userId: null, email: "guest@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }] });

    const first = await listBuyerOrders(client, user, { limit: 2 });
    expect(first.list.map((o) => o.number)).toEqual([made[4]!.number, made[3]!.number]);
    expect(first.next_cursor).toBeTypeOf("string");
    const second = await listBuyerOrders(client, user, { limit: 2, cursor: first.next_cursor! });
    const third = await listBuyerOrders(client, user, { limit: 2, cursor: second.next_cursor! });
    expect([...second.list, ...third.list].map((o) => o.number)).toEqual([made[2]!.number, made[1]!.number, made[0]!.number]);
    expect(third.next_cursor).toBeNull();
    for (const order of first.list) {
      expectExactKeys(order, ORDER_KEYS, "order");
      for (const line of order.lines) expectExactKeys(line, ORDER_LINE_KEYS, "order line");
      expect(Order.parse(order)).toEqual(order);
      expect(order).toMatchObject({ object: "order", status: "placed", placed_via: "storefront", currency: "USD" });
    }

    for (const cursor of ["garbage", "x".repeat(10_000), "\u0000", Buffer.from(JSON.stringify(["desk_orders", "2026-01-01T00:00:00.000Z", made[0]!.id])).toString("base64url")]) {
      await expectRefused(listBuyerOrders(client, user, { limit: 2, cursor }), "parameter_invalid", "cursor");
    }
    for (const limit of [0, 101, 1.5, Number.NaN]) await expectRefused(listBuyerOrders(client, user, { limit }), "parameter_invalid", "limit");
  });

  it("one order by id or number with its parts, history and returns; another's, a guest's or a forged id is order_not_found", async () => {
    const order = await twoStoreOrder(buyer);
    const byId = await getBuyerOrder(client, buyer, order.id);
    const byNumber = await getBuyerOrder(client, buyer, order.number.toLowerCase());
    expect(byNumber).toEqual(byId);
    expectExactKeys(byId, ["order", "parts", "history", "returns", "returnable_until", "return_window_open", "returnable_quantities"], "buyer order");
    expectExactKeys(byId.order, ORDER_KEYS, "order");
    expect(byId.order).toMatchObject({ id: order.id, number: order.number, subtotal_cents: order.subtotalCents, shipping_cents: 500, total_cents: order.subtotalCents + 500 });
    expect(byId.order.lines.map((l) => l.id)).toEqual(order.lines.map((l) => l.id));
    expect(byId.parts.map((p) => [p.store_slug, p.status, p.tracking_number, p.line_ids.length])).toEqual([
      ["fixture-store-a", "placed", null, 2],
      ["fixture-store-b", "placed", null, 1],
    ]);
    expect(byId.history.map((e) => [e.status, e.store_slug])).toEqual([["placed", null]]);
    expect(byId.returnable_until).toBeNull();

    const guest = await twoStoreOrder(null);
    for (const ref of [order.id, order.number]) await expectRefused(getBuyerOrder(client, otherBuyer, ref), "order_not_found");
    for (const ref of [guest.id, guest.number, "00000000-0000-4000-8000-000000000000", "M-99999999", "x".repeat(10_000), "M-1\u0000", "'; DROP TABLE orders;--", ""]) {
      await expectRefused(getBuyerOrder(client, buyer, ref), "order_not_found");
    }
  });
});

describe("the seller desk", () => {
  it("shows a store only its own part: its lines, the shipping address and e-mail; never other stores' lines, shipping or the payment", async () => {
    const order = await twoStoreOrder(buyer);
    const desk = await getDeskOrder(client, [stores.a], order.number);
    expectExactKeys(desk, ["id", "number", "email", "placed_via", "shipping_address", "created_at", "parts"], "desk order");
    expect(desk.parts).toHaveLength(1);
    const part = desk.parts[0]!;
    expectExactKeys(part, ["store", "status", "lines", "subtotal_cents", "shipping_cents", "carrier", "tracking_number", "shipped_at", "delivered_at", "cancelled_at", "cancel_reason", "refund_cents"], "desk part");
    expect(part.store.slug).toBe("fixture-store-a");
    expect(part.lines.map((l) => l.id)).toEqual(order.lines.filter((l) => l.storeSlug === "fixture-store-a").map((l) => l.id));
    expect(part.shipping_cents).toBe(0);
    expect(desk.email).toBe("buyer@example.com");
    expect(JSON.stringify(desk)).not.toContain(order.paymentRef);
    expect(JSON.stringify(desk)).not.toContain("fixture-store-b");

    // An owner of both stores sees both parts.
    expect((await getDeskOrder(client, [stores.a, stores.b], order.id)).parts.map((p) => p.store.slug).sort()).toEqual(["fixture-store-a", "fixture-store-b"]);
    // Another store: as if there were no such order.
    await expectRefused(getDeskOrder(client, [stores.c], order.number), "order_not_found");
    await expectRefused(getDeskOrder(client, [], order.number), "order_not_found");

    const page = await listDeskOrders(client, [stores.c], { limit: 100 });
    expect(page.list.map((o) => o.id)).not.toContain(order.id);
    const listed = await listDeskOrders(client, [stores.b], { limit: 100 });
    const mine = listed.list.find((o) => o.id === order.id)!;
    expect(mine.parts.map((p) => p.store.slug)).toEqual(["fixture-store-b"]);
    expect(listed.list.every((o) => o.parts.every((p) => p.store.id === stores.b))).toBe(true);
  });

  it("tracking numbers: required, bounded, printable; a refusal changes nothing", async () => {
    const order = await twoStoreOrder(buyer);
    const before = await stateOf(order.id);
    const cases: Array<[unknown, string]> = [
      [undefined, "parameter_missing"],
      ["", "parameter_missing"],
      ["   ", "parameter_missing"],
      ["9".repeat(10_000), "parameter_invalid"],
      ["1Z999\u0000AA1", "parameter_invalid"],
      ["1Z999\nAA1", "parameter_invalid"],
      ["1Z\u202eAA", "parameter_invalid"],
      ["номер", "parameter_invalid"],
    ];
    for (const [value, code] of cases) await expectRefused(tx((t) => shipPart(t, stores.a, order.id, value)), code, "tracking_number");
    expect(await stateOf(order.id)).toEqual(before);
  });

  it("parts ship and deliver on their own; the order follows them; every move writes events, bumps updated_at; the buyer is mailed with the tracking number", async () => {
    const order = await twoStoreOrder(buyer);
    const t0 = (await stateOf(order.id)).order[0].updated_at as Date;

    const refusedDeliver = await expectRefused(tx((t) => deliverPart(t, stores.b, order.number)), "order_transition_invalid");
    expect(refusedDeliver.message).toContain("placed");
    await expectRefused(tx((t) => shipPart(t, stores.c, order.number, "1Z999")), "order_not_found");

    const shippedA = await tx((t) => shipPart(t, stores.a, order.number, "  1Z999AA10123456784 "));
    expect(shippedA).toEqual({ order_id: order.id, number: order.number, part_status: "shipped", order_status: "placed" });
    const again = await expectRefused(tx((t) => shipPart(t, stores.a, order.number, "1Z999")), "order_transition_invalid");
    expect(again.message).toContain("shipped");

    let state = await stateOf(order.id);
    expect(state.order[0].status).toBe("placed");
    expect((state.order[0].updated_at as Date).getTime()).toBeGreaterThanOrEqual(t0.getTime());
    expect(state.parts.find((p) => p.store_id === stores.a)).toMatchObject({ status: "shipped", tracking_number: "1Z999AA10123456784" });

    const mails = await outbox(order.number);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to_address).toBe("buyer@example.com");
    expect(mails[0]!.subject).toContain("shipped");
    expect(mails[0]!.body).toContain("1Z999AA10123456784");
    expect(mails[0]!.body).toContain(`/account/orders/${order.number}`);

    // The buyer sees A's tracking number, not yet B's part as shipped.
    let view = await getBuyerOrder(client, buyer, order.id);
    expect(view.parts.map((p) => [p.store_slug, p.status, p.tracking_number])).toEqual([
      ["fixture-store-a", "shipped", "1Z999AA10123456784"],
      ["fixture-store-b", "placed", null],
    ]);

    expect((await tx((t) => shipPart(t, stores.b, order.id, "TBA-7"))).order_status).toBe("shipped");
    expect((await tx((t) => deliverPart(t, stores.a, order.id))).order_status).toBe("shipped");
    state = await stateOf(order.id);
    expect(state.order[0].delivered_at).toBeNull();
    expect((await tx((t) => deliverPart(t, stores.b, order.id))).order_status).toBe("delivered");
    await expectRefused(tx((t) => deliverPart(t, stores.b, order.id)), "order_transition_invalid");

    state = await stateOf(order.id);
    expect(state.order[0].status).toBe("delivered");
    expect(state.order[0].delivered_at).toBeInstanceOf(Date);
    view = await getBuyerOrder(client, buyer, order.id);
    expect(view.order.status).toBe("delivered");
    expect(view.history.map((e) => `${e.store_slug ?? "order"}:${e.status}`)).toEqual([
      "order:placed",
      "fixture-store-a:shipped",
      "fixture-store-b:shipped",
      "order:shipped",
      "fixture-store-a:delivered",
      "fixture-store-b:delivered",
      "order:delivered",
    ]);
    expect(view.history[1]!.note).toContain("1Z999AA10123456784");
    expect(new Date(view.returnable_until!).getTime() - new Date(state.order[0].delivered_at).getTime()).toBe(30 * DAY);
    expect(await outbox(order.number)).toHaveLength(2);
  });

  it("two stores marking at once: the order's status is computed from both (row locks)", async () => {
    for (let round = 0; round < 3; round++) {
      const order = await twoStoreOrder(buyer);
      const shipped = await Promise.all([
        tx((t) => shipPart(t, stores.a, order.id, `A-${round}`)),
        tx((t) => shipPart(t, stores.b, order.id, `B-${round}`)),
      ]);
      expect(shipped.map((r) => r.order_status).sort()).toEqual(["placed", "shipped"]);
      await Promise.all([tx((t) => deliverPart(t, stores.a, order.id)), tx((t) => deliverPart(t, stores.b, order.id))]);
      const { rows } = await app.pool.query(
        `SELECT o.status::text, o.delivered_at IS NOT NULL AS delivered,
                (SELECT array_agg(e.status ORDER BY e.id) FROM order_events e WHERE e.order_id = o.id AND e.store_id IS NULL) AS moves
           FROM orders o WHERE o.id = $1`,
        [order.id],
      );
      expect(rows[0]).toEqual({ status: "delivered", delivered: true, moves: ["placed", "shipped", "delivered"] });
    }
  });

  it("the operator's markOrder: every placed part shipped, then every shipped part delivered; refusals name the state", async () => {
    const order = await twoStoreOrder(buyer);
    await tx((t) => shipPart(t, stores.a, order.id, "A-1"));
    expect(await tx((t) => markOrder(t, order.number, "shipped"))).toBe("shipped");
    const parts = (await stateOf(order.id)).parts;
    expect(parts.find((p) => p.store_id === stores.a)!.tracking_number).toBe("A-1");
    expect(parts.find((p) => p.store_id === stores.b)!.tracking_number).toBeNull();
    const again = await expectRefused(tx((t) => markOrder(t, order.number, "shipped")), "order_transition_invalid");
    expect(again.message).toContain("is shipped");
    expect(await tx((t) => markOrder(t, order.id, "delivered"))).toBe("delivered");
    expect((await expectRefused(tx((t) => markOrder(t, order.id, "delivered")), "order_transition_invalid")).message).toContain("is delivered");

    const fresh = await twoStoreOrder(null);
    expect((await expectRefused(tx((t) => markOrder(t, fresh.id, "delivered")), "order_transition_invalid")).message).toContain("is placed");
    await expectRefused(tx((t) => markOrder(t, "M-0", "shipped")), "order_not_found");
    await expectRefused(tx((t) => markOrder(t, fresh.id, "shipped", "bad\u0000")), "parameter_invalid", "tracking_number");
    expect(await tx((t) => markOrder(t, fresh.id, "shipped", "OP-1"))).toBe("shipped");
    expect((await stateOf(fresh.id)).parts.map((p) => p.tracking_number)).toEqual(["OP-1", "OP-1"]);
  });
});

describe("returns", () => {
  const body = (lines: CreateReturnData["lines"]) => CreateReturn.parse({ lines });

  it("only a delivered order within 30 days; lines of one store, each once, of this order; refusals change nothing", async () => {
    const placed = await twoStoreOrder(buyer);
    const late = await twoStoreOrder(buyer, { status: "delivered", deliveredAt: new Date(Date.now() - 31 * DAY) });
    const shipped = await twoStoreOrder(buyer, { status: "shipped" });
    const order = await twoStoreOrder(buyer, { status: "delivered", deliveredAt: new Date(Date.now() - 29 * DAY) });
    const [a1, a2, b1] = order.lines;
    for (const o of [placed, late, shipped]) {
      await expectRefused(tx((t) => requestReturn(t, buyer, o.id, body([{ order_line_id: o.lines[0]!.id, quantity: 1, reason: "damaged" }]))), "order_not_returnable");
    }
    const before = await stateOf(order.id);
    await expectRefused(tx((t) => requestReturn(t, otherBuyer, order.id, body([{ order_line_id: a1!.id, quantity: 1, reason: "damaged" }]))), "order_not_found");
    await expectRefused(
      tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 1, reason: "damaged" }, { order_line_id: b1!.id, quantity: 1, reason: "other" }]))),
      "parameter_invalid",
      "lines",
    );
    await expectRefused(
      tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 1, reason: "damaged" }, { order_line_id: placed.lines[0]!.id, quantity: 1, reason: "other" }]))),
      "parameter_invalid",
      "lines[1].order_line_id",
    );
    await expectRefused(
      tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: "00000000-0000-4000-8000-000000000000", quantity: 1, reason: "other" }]))),
      "parameter_invalid",
      "lines[0].order_line_id",
    );
    await expectRefused(
      tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a2!.id, quantity: 1, reason: "damaged" }, { order_line_id: a2!.id, quantity: 1, reason: "other" }]))),
      "parameter_invalid",
      "lines[1].order_line_id",
    );
    await expectRefused(tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 4, reason: "damaged" }]))), "parameter_invalid", "lines[0].quantity");
    expect(await stateOf(order.id)).toEqual(before);

    // The wire schema refuses the rest (what the buyer API and the form hand over is parsed by it).
    for (const bad of [{}, { lines: [] }, { lines: [{ order_line_id: a1!.id, quantity: 0, reason: "damaged" }] }, { lines: [{ order_line_id: a1!.id, quantity: 1, reason: "bored" }] }, { lines: [{ order_line_id: "x", quantity: 1, reason: "other" }] }, { lines: [{ order_line_id: a1!.id, quantity: 1, reason: "other", refund: 1 }] }]) {
      expect(CreateReturn.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }

    const made = await tx((t) => requestReturn(t, buyer, order.number, body([{ order_line_id: a1!.id, quantity: 2, reason: "not_as_described" }, { order_line_id: a2!.id, quantity: 1, reason: "wrong_item" }])));
    expectExactKeys(made, RETURN_KEYS, "return");
    for (const line of made.lines) expectExactKeys(line, ["order_line_id", "quantity", "reason"], "return line");
    expect(Return.parse(made)).toEqual(made);
    expect(made).toMatchObject({ object: "return", order_id: order.id, status: "requested" });
    expect([...made.lines].sort((x, y) => x.quantity - y.quantity)).toEqual([
      { order_line_id: a2!.id, quantity: 1, reason: "wrong_item" },
      { order_line_id: a1!.id, quantity: 2, reason: "not_as_described" },
    ]);
    // What is left of a1 is 1; a2 none.
    const left = await expectRefused(tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 2, reason: "other" }]))), "parameter_invalid", "lines[0].quantity");
    expect(left.message).toContain("at most 1");
    await expectRefused(tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a2!.id, quantity: 1, reason: "other" }]))), "parameter_invalid", "lines[0].quantity");
    expect((await getBuyerOrder(client, buyer, order.id)).returnable_quantities).toEqual({ [a1!.id]: 1, [a2!.id]: 0, [b1!.id]: 2 });

    // A rejected return gives its units back.
    await tx((t) => moveReturn(t, [stores.a], made.id, "reject"));
    expect((await tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 3, reason: "other" }])))).status).toBe("requested");
  });

  it("concurrent requests for the same line can never return more than was bought", async () => {
    const order = await createTestOrder(app.pool, { userId: buyer, email: "c@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 3 }] }], status: "delivered" });
    const line = order.lines[0]!;
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: line.id, quantity: 2, reason: "other" }])))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as AppError).code).toBe("parameter_invalid");
    const { rows } = await app.pool.query(`SELECT coalesce(sum(quantity), 0)::int AS n FROM return_lines WHERE order_line_id = $1`, [line.id]);
    expect(rows[0].n).toBe(2);
  });

  it("the store's moves: approve, receive, refund (the lines' value through the order's provider), reject; others refused; another store's return is not found", async () => {
    const order = await twoStoreOrder(buyer, { status: "delivered" });
    const [a1, , b1] = order.lines;
    const ret = await tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: a1!.id, quantity: 2, reason: "damaged" }])));
    const other = await tx((t) => requestReturn(t, buyer, order.id, body([{ order_line_id: b1!.id, quantity: 1, reason: "other" }])));

    await expectRefused(tx((t) => moveReturn(t, [stores.b], ret.id, "approve")), "return_not_found");
    await expectRefused(tx((t) => moveReturn(t, [stores.c], ret.id, "approve")), "return_not_found");
    await expectRefused(tx((t) => moveReturn(t, [stores.a], "not-an-id", "approve")), "return_not_found");
    await expectRefused(tx((t) => moveReturn(t, [], ret.id, "approve")), "return_not_found");
    for (const move of ["receive", "refund"] as const) {
      expect((await expectRefused(tx((t) => moveReturn(t, [stores.a], ret.id, move)), "return_transition_invalid")).message).toContain("requested");
    }
    expect((await tx((t) => moveReturn(t, [stores.a], ret.id, "approve"))).status).toBe("approved");
    await expectRefused(tx((t) => moveReturn(t, [stores.a], ret.id, "approve")), "return_transition_invalid");
    await expectRefused(tx((t) => moveReturn(t, [stores.a], ret.id, "refund")), "return_transition_invalid");
    expect((await tx((t) => moveReturn(t, [stores.a], ret.id, "receive"))).status).toBe("received");
    await expectRefused(tx((t) => moveReturn(t, [stores.a], ret.id, "reject")), "return_transition_invalid");

    // Two clicks on refund at once: one refund.
    const refunds = await Promise.allSettled([tx((t) => moveReturn(t, [stores.a], ret.id, "refund")), tx((t) => moveReturn(t, [stores.a], ret.id, "refund"))]);
    expect(refunds.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refunded = (refunds.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<Awaited<ReturnType<typeof moveReturn>>>).value;
    expectExactKeys(refunded, RETURN_KEYS, "return");
    expect(refunded.status).toBe("refunded");
    const { rows } = await app.pool.query(`SELECT refund_cents, refund_ref FROM returns WHERE id = $1`, [ret.id]);
    expect(rows[0].refund_cents).toBe(2 * a1!.unitPriceCents);
    expect(rows[0].refund_ref).toMatch(/^re_[0-9a-f]{24}$/);
    const mails = (await outbox(order.number)).filter((m) => m.subject.startsWith("Refund"));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.body).toContain(((2 * a1!.unitPriceCents) / 100).toFixed(2));
    for (const move of ["approve", "receive", "refund", "reject"] as const) {
      expect((await expectRefused(tx((t) => moveReturn(t, [stores.a], ret.id, move)), "return_transition_invalid")).message).toContain("refunded");
    }

    expect((await tx((t) => moveReturn(t, [stores.b], other.id, "approve"))).status).toBe("approved");
    expect((await tx((t) => moveReturn(t, [stores.a, stores.b], other.id, "reject"))).status).toBe("rejected");

    const desk = await listDeskReturns(client, [stores.a], { limit: 100, orderId: order.id });
    expect(desk.list.map((r) => [r.return.id, r.return.status, r.value_cents, r.refund_cents])).toEqual([[ret.id, "refunded", 2 * a1!.unitPriceCents, 2 * a1!.unitPriceCents]]);
    expectExactKeys(desk.list[0]!, ["return", "order_number", "store", "lines", "value_cents", "refund_cents"], "desk return");
  });

  it("the buyer reads their returns, newest first; another buyer's or a forged id is return_not_found", async () => {
    const user = await createUser("returner");
    const order = await createTestOrder(app.pool, { userId: user, email: "r@example.com", parts: [{ store: "fixture-store-a", lines: [{ quantity: 2 }, { quantity: 2 }] }], status: "delivered" });
    const first = await tx((t) => requestReturn(t, user, order.id, body([{ order_line_id: order.lines[0]!.id, quantity: 1, reason: "other" }])));
    await new Promise((resolve) => setTimeout(resolve, 20)); // distinct created_at
    const second = await tx((t) => requestReturn(t, user, order.id, body([{ order_line_id: order.lines[1]!.id, quantity: 1, reason: "other" }])));
    const page1 = await listBuyerReturns(client, user, { limit: 1 });
    const page2 = await listBuyerReturns(client, user, { limit: 1, cursor: page1.next_cursor! });
    expect([...page1.list, ...page2.list].map((r) => r.id)).toEqual([second.id, first.id]);
    expect(page2.next_cursor).toBeNull();
    for (const r of page1.list) expectExactKeys(r, RETURN_KEYS, "return");
    expect(await getBuyerReturn(client, user, first.id.toUpperCase())).toEqual(first);
    await expectRefused(getBuyerReturn(client, otherBuyer, first.id), "return_not_found");
    await expectRefused(getBuyerReturn(client, user, "x".repeat(10_000)), "return_not_found");
    expect((await listBuyerReturns(client, otherBuyer, { limit: 100 })).list.map((r) => r.id)).not.toContain(first.id);
    expect((await getBuyerOrder(client, user, order.id)).returns.map((r) => r.id)).toEqual([second.id, first.id]);
  });
});

// ---------------------------------------------------------------------------------------------
// The pages, over HTTP as a browser without JavaScript drives them (GET pages, form posts 303).

interface Page {
  status: number;
  text: string;
  location: string | null;
}

const rand = () => Math.floor(Math.random() * 254);

class Visitor {
  constructor(readonly cookie: string) {}

  get(path: string): Promise<Page> {
    return this.request(path, { method: "GET" });
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl, ...headers },
    });
  }

  /** Posts, expects 303, and answers the page it leads to. */
  async submit(path: string, fields: Record<string, string>): Promise<Page> {
    const posted = await this.post(path, fields);
    expect(posted.status, `POST ${path}: ${posted.text.slice(0, 300)}`).toBe(303);
    return this.get(posted.location!);
  }

  private async request(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set("Cookie", this.cookie);
    headers.set("X-Forwarded-For", `10.${rand()}.${rand()}.${rand() + 1}`);
    const res = await fetch(new URL(path, app.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
    const location = res.headers.get("location");
    const url = location ? new URL(location, app.baseUrl) : null;
    return { status: res.status, text: await res.text(), location: url ? url.pathname + url.search + url.hash : null };
  }
}

/** Signs in through the sign-in form, as anyone does, and carries the session cookie it sets. */
async function signIn(userId: string): Promise<Visitor> {
  const res = await fetch(new URL("/signin/password", app.baseUrl), {
    method: "POST",
    body: new URLSearchParams({ email: emails.get(userId)!, password: PASSWORD, next: "/account" }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl, "X-Forwarded-For": `10.${rand()}.${rand()}.${rand() + 1}` },
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  const line = res.headers.getSetCookie().find((c) => c.startsWith("next-auth.session-token="));
  expect(line, "session cookie").toBeDefined();
  return new Visitor(line!.split(";", 1)[0]!);
}

async function storeName(slug: string): Promise<string> {
  return (await app.pool.query(`SELECT name FROM stores WHERE slug = $1`, [slug])).rows[0].name;
}

describe("pages: the buyer's orders", () => {
  let buyerPage: Visitor;
  let otherPage: Visitor;
  let pageBuyer = "";

  beforeAll(async () => {
    pageBuyer = await createUser("page-buyer");
    buyerPage = await signIn(pageBuyer);
    otherPage = await signIn(await createUser("page-other"));
  });

  it("sends a signed-out visitor to sign in", async () => {
    for (const path of ["/account/orders", "/account/orders/M-10001"]) {
      const res = await new Visitor("").get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(303);
      expect(res.location, path).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
  });

  it("/account links to /account/orders, which lists the buyer's orders by number, each linking to its page", async () => {
    const mine = await twoStoreOrder(pageBuyer);
    const theirs = await twoStoreOrder(buyer);
    const account = await buyerPage.get("/account");
    expect(linkHref(account.text, "Your orders")).toBe("/account/orders");
    const list = await buyerPage.get("/account/orders");
    expect(list.status).toBe(200);
    expect(linkHref(list.text, mine.number)).toBe(`/account/orders/${mine.number}`);
    expect(list.text).not.toContain(theirs.number);
    const empty = await otherPage.get("/account/orders");
    expect(parseHtml(empty.text)("[data-empty]").text()).toContain("not placed an order");
    // A forged page link: the first page again, with a word about it.
    const forged = await buyerPage.get("/account/orders?cursor=%00garbage");
    expect(forged.status).toBe(200);
    expect(statusText(forged.text)).toContain("not valid");
  });

  it("the order page: lines per seller, totals, address, history, tracking once shipped; another's or a forged number is 404", async () => {
    const order = await twoStoreOrder(pageBuyer);
    const [nameA, nameB] = [await storeName("fixture-store-a"), await storeName("fixture-store-b")];
    let page = await buyerPage.get(`/account/orders/${order.number}`);
    expect(page.status).toBe(200);
    let $ = parseHtml(page.text);
    expect($("h1").text()).toBe(`Order ${order.number}`);
    expect($("section[data-store]").map((_, el) => $(el).attr("data-store")).get()).toEqual(["fixture-store-a", "fixture-store-b"]);
    expect($("section[data-store=fixture-store-a] h2").text()).toBe(`From ${nameA}`);
    expect($("section[data-store=fixture-store-b] tr[data-line]").map((_, el) => $(el).attr("data-line")).get()).toEqual([order.lines[2]!.id]);
    expect($("[data-field=total]").text()).toBe(`$${((order.subtotalCents + 500) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
    expect($("[data-shipping-address]").text()).toContain("12 Analytical Row");
    expect($("[data-tracking-number]")).toHaveLength(0);
    expect($("li[data-event]").map((_, el) => $(el).attr("data-event")).get()).toEqual(["placed"]);
    expect(page.text).not.toContain("Request return");

    await tx((t) => shipPart(t, stores.b, order.id, "1Z-PAGE-42"));
    page = await buyerPage.get(`/account/orders/${order.number.toLowerCase()}`);
    $ = parseHtml(page.text);
    expect($("section[data-store=fixture-store-b] [data-tracking-number]").attr("data-tracking-number")).toBe("1Z-PAGE-42");
    expect($("section[data-store=fixture-store-a] [data-tracking-number]")).toHaveLength(0);
    expect($("li[data-event]").text()).toContain(`${nameB} marked its items shipped`);

    for (const path of [`/account/orders/${order.id}`]) expect((await buyerPage.get(path)).status, path).toBe(200);
    for (const path of [`/account/orders/${order.number}`, `/account/orders/${order.id}`]) expect((await otherPage.get(path)).status, path).toBe(404);
    for (const path of ["/account/orders/M-99999999", "/account/orders/%00", `/account/orders/${"x".repeat(5_000)}`, "/account/orders/00000000-0000-4000-8000-000000000000", "/account/orders/%E0%A4%A"]) {
      expect((await buyerPage.get(path)).status, path).toBe(404);
    }
  });

  it("a delivered order within 30 days: one return form per store, by accessible names; refusals say why and change nothing", async () => {
    const order = await twoStoreOrder(pageBuyer, { status: "delivered" });
    const [a1, a2, b1] = order.lines;
    const nameA = await storeName("fixture-store-a");
    const path = `/account/orders/${order.number}`;
    let page = await buyerPage.get(path);
    const formA = `Return items from ${nameA}`;
    const filled = fillForm(page.text, formA, { [`Quantity to return: ${a1!.title}`]: "2", [`Reason: ${a1!.title}`]: "damaged" }, "Request return");
    expect(filled.action).toBe(`/account/orders/${order.number}/returns`);

    // Refusals first: nothing is written by any of them.
    const before = await stateOf(order.id);
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [{ ...filled.fields, [`reason.${a1!.id}`]: "" }, /reason/i],
      [{ ...filled.fields, [`quantity.${a1!.id}`]: "4" }, /at most 3/i],
      [{ ...filled.fields, [`quantity.${a1!.id}`]: "x".repeat(10_000) }, /whole number/],
      [{ ...filled.fields, [`quantity.${a1!.id}`]: "0" }, /at least one item/],
      [{ ...filled.fields, [`reason.${a1!.id}`]: "bored\u0000" }, /./],
      [{ ...filled.fields, [`quantity.${b1!.id}`]: "1", [`reason.${b1!.id}`]: "other" }, /one store/],
      [{ ...filled.fields, [`quantity.00000000-0000-4000-8000-000000000000`]: "1", [`reason.00000000-0000-4000-8000-000000000000`]: "other" }, /no line/],
    ];
    for (const [fields, message] of refusals) {
      const back = await buyerPage.submit(filled.action, fields);
      expect(alertText(back.text), JSON.stringify(fields).slice(0, 200)).toMatch(message);
    }
    expect(await stateOf(order.id)).toEqual(before);
    // Cross-site, another buyer, signed out: refused.
    expect((await buyerPage.post(filled.action, filled.fields, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await otherPage.post(filled.action, filled.fields)).status).toBe(404);
    expect((await new Visitor("").post(filled.action, filled.fields)).status).toBe(303);
    expect(await stateOf(order.id)).toEqual(before);

    page = await buyerPage.submit(filled.action, filled.fields);
    expect(statusText(page.text)).toContain("Return requested");
    const $ = parseHtml(page.text);
    expect($("[data-return-status]").map((_, el) => $(el).attr("data-return-status")).get()).toEqual(["requested"]);
    // The form now offers only what is left: 1 of a1, all of a2.
    const again = fillForm(page.text, formA, { [`Quantity to return: ${a2!.title}`]: "1", [`Reason: ${a2!.title}`]: "other" }, "Request return");
    expect(parseHtml(page.text)(`input[name="quantity.${a1!.id}"]`).attr("max")).toBe("1");
    expect((await buyerPage.submit(again.action, again.fields)).status).toBe(200);
    expect(await app.pool.query(`SELECT count(*)::int AS n FROM returns WHERE order_id = $1`, [order.id]).then((r) => r.rows[0].n)).toBe(2);

    const late = await twoStoreOrder(pageBuyer, { status: "delivered", deliveredAt: new Date(Date.now() - 31 * DAY) });
    const latePage = await buyerPage.get(`/account/orders/${late.number}`);
    expect(latePage.text).toContain("return window of this order closed");
    expect(latePage.text).not.toContain("Request return");
  });
});

describe("pages: the seller desk", () => {
  let ownerAB: Visitor;
  let ownerC: Visitor;
  let ownerA: Visitor;
  let shopperPage: Visitor;

  beforeAll(async () => {
    ownerAB = await signIn(await createUser("owner-ab", ["fixture-store-a", "fixture-store-b"]));
    ownerA = await signIn(await createUser("owner-a", ["fixture-store-a"]));
    ownerC = await signIn(await createUser("owner-c", ["harbor-electronics"]));
    shopperPage = await signIn(await createUser("desk-shopper"));
  });

  it("/seller/orders lists the owner's orders by number (filter by store); the dashboard links to it; 'orders' and 'returns' can never be store slugs", async () => {
    const order = await twoStoreOrder(buyer);
    const home = await ownerAB.get("/seller");
    expect(linkHref(home.text, "Orders", "header")).toBe("/seller/orders");
    expect(linkHref(home.text, "Returns", "header")).toBe("/seller/returns");
    const list = await ownerAB.get("/seller/orders");
    expect(list.status).toBe(200);
    const $ = parseHtml(list.text);
    expect($("main").attr("data-page")).toBe("seller-orders");
    expect($(`tr[data-order="${order.number}"]`).map((_, el) => $(el).attr("data-store")).get().sort()).toEqual(["fixture-store-a", "fixture-store-b"]);
    expect($(`tr[data-order="${order.number}"] a`).first().attr("href")).toBe(`/seller/orders/${order.number}`);
    const onlyB = parseHtml((await ownerAB.get("/seller/orders?store=fixture-store-b")).text);
    expect(onlyB(`tr[data-order="${order.number}"]`).map((_, el) => onlyB(el).attr("data-store")).get()).toEqual(["fixture-store-b"]);
    expect((await ownerAB.get("/seller/orders?store=harbor-electronics")).status).toBe(404);
    expect((await ownerC.get("/seller/orders")).text).not.toContain(order.number);
    expect(parseHtml((await shopperPage.get("/seller/orders")).text)("h1").text()).toBe("You do not own a store");
    expect((await new Visitor("").get("/seller/orders")).location).toBe(`/signin?next=${encodeURIComponent("/seller/orders")}`);
    await expect(app.pool.query(`UPDATE stores SET slug = 'orders' WHERE slug = 'harbor-electronics'`)).rejects.toThrow(/stores_slug_not_reserved/);
  });

  it("the order page shows the owner's parts only, the address and e-mail, never the payment; another store's order is 404", async () => {
    const order = await twoStoreOrder(buyer);
    const page = await ownerA.get(`/seller/orders/${order.number}`);
    expect(page.status).toBe(200);
    const $ = parseHtml(page.text);
    expect($("section[data-store]").map((_, el) => $(el).attr("data-store")).get()).toEqual(["fixture-store-a"]);
    expect($("tr[data-line]").map((_, el) => $(el).attr("data-line")).get()).toEqual([order.lines[0]!.id, order.lines[1]!.id]);
    expect($("[data-field=email]").text()).toBe("buyer@example.com");
    expect($("[data-shipping-address]").text()).toContain("Portland");
    expect(page.text).not.toContain(order.paymentRef);
    expect(page.text).not.toContain(order.lines[2]!.id);
    for (const path of [`/seller/orders/${order.number}`, `/seller/orders/${order.id}`]) expect((await ownerC.get(path)).status, path).toBe(404);
    for (const path of ["/seller/orders/M-99999999", "/seller/orders/%00", `/seller/orders/${"9".repeat(5_000)}`]) expect((await ownerA.get(path)).status, path).toBe(404);
  });

  it("Mark shipped asks for the tracking number (and, optionally, the carrier); Mark delivered follows; refusals are shown and change nothing; other stores get 404", async () => {
    const order = await twoStoreOrder(buyer);
    const [nameA, nameB] = [await storeName("fixture-store-a"), await storeName("fixture-store-b")];
    const path = `/seller/orders/${order.number}`;
    let page = await ownerAB.get(path);
    const ship = fillForm(page.text, `Ship ${nameA}'s items`, { "Tracking number": "1Z999AA10123456784", "Carrier (optional)": "UPS" }, "Mark shipped");
    expect(ship.action).toBe(`${path}/ship`);

    const before = await stateOf(order.id);
    for (const [value, message] of [
      ["9".repeat(10_000), /at most 64/],
      ["1Z\u0007BELL", /letters, digits/],
      ["", /Enter the tracking number/],
    ] as const) {
      const back = await ownerAB.submit(ship.action, { ...ship.fields, tracking_number: value });
      expect(alertText(back.text)).toMatch(message);
      expect(parseHtml(back.text)("[aria-invalid=true]").attr("name")).toBe("tracking_number");
    }
    const badCarrier = await ownerAB.submit(ship.action, { ...ship.fields, carrier: "U".repeat(65) });
    expect(alertText(badCarrier.text)).toMatch(/at most 64/);
    expect(parseHtml(badCarrier.text)("[aria-invalid=true]").attr("name")).toBe("carrier");
    expect((await ownerC.post(ship.action, ship.fields)).status).toBe(404);
    expect((await ownerC.post(ship.action, { ...ship.fields, store: "harbor-electronics" })).status).toBe(404);
    expect((await ownerA.post(ship.action, { ...ship.fields, store: "fixture-store-b" })).status).toBe(404);
    expect((await ownerAB.post(ship.action, ship.fields, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect((await ownerAB.post(`/seller/orders/M-99999999/ship`, ship.fields)).status).toBe(404);
    expect(await stateOf(order.id)).toEqual(before);

    page = await ownerAB.submit(ship.action, ship.fields);
    expect(statusText(page.text)).toContain("Marked shipped");
    let $ = parseHtml(page.text);
    expect($("section[data-store=fixture-store-a]").attr("data-part-status")).toBe("shipped");
    expect($("section[data-store=fixture-store-a] [data-tracking-number]").attr("data-tracking-number")).toBe("1Z999AA10123456784");
    expect($("section[data-store=fixture-store-a] [data-field=carrier]").text()).toBe("UPS");
    expect($("section[data-store=fixture-store-b]").attr("data-part-status")).toBe("placed");
    expect((await outbox(order.number)).at(-1)!.body).toContain("1Z999AA10123456784");

    const deliver = fillForm(page.text, `Deliver ${nameA}'s items`, {}, "Mark delivered");
    page = await ownerAB.submit(deliver.action, deliver.fields);
    expect(statusText(page.text)).toContain("Marked delivered");
    // Delivering B before it shipped: the form is not offered; a crafted post is refused on the page.
    const crafted = await ownerAB.submit(deliver.action, { store: "fixture-store-b" });
    expect(alertText(crafted.text)).toMatch(/placed/);
    const shipB = fillForm(crafted.text, `Ship ${nameB}'s items`, { "Tracking number": "TBA-1" }, "Mark shipped");
    page = await ownerAB.submit(shipB.action, shipB.fields);
    page = await ownerAB.submit(deliver.action, { store: "fixture-store-b" });
    $ = parseHtml(page.text);
    expect($("section[data-part-status]").map((_, el) => $(el).attr("data-part-status")).get()).toEqual(["delivered", "delivered"]);
    expect((await app.pool.query(`SELECT status::text FROM orders WHERE id = $1`, [order.id])).rows[0].status).toBe("delivered");
  });

  it("Cancel order asks for a reason; the part is cancelled, the buyer refunded and mailed and shown it; a shipped part offers no cancel", async () => {
    const order = await twoStoreOrder(buyer);
    const [nameA, nameB] = [await storeName("fixture-store-a"), await storeName("fixture-store-b")];
    const path = `/seller/orders/${order.number}`;
    let page = await ownerAB.get(path);
    const cancel = fillForm(page.text, `Cancel ${nameB}'s items`, { Reason: "cannot_ship" }, "Cancel order");
    expect(cancel.action).toBe(`${path}/cancel`);

    const before = await stateOf(order.id);
    const blank = await ownerAB.submit(cancel.action, { ...cancel.fields, reason: "" });
    expect(alertText(blank.text)).toMatch(/Choose why you cancel/);
    expect(parseHtml(blank.text)("[aria-invalid=true]").attr("name")).toBe("reason");
    expect(alertText((await ownerAB.submit(cancel.action, { ...cancel.fields, reason: "because" })).text)).toMatch(/must be one of/);
    expect((await ownerC.post(cancel.action, cancel.fields)).status).toBe(404);
    expect((await ownerA.post(cancel.action, cancel.fields)).status).toBe(404);
    expect((await ownerAB.post(cancel.action, cancel.fields, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    expect(await stateOf(order.id)).toEqual(before);

    page = await ownerAB.submit(cancel.action, cancel.fields);
    expect(statusText(page.text)).toContain("Cancelled");
    let $ = parseHtml(page.text);
    expect($("section[data-store=fixture-store-b]").attr("data-part-status")).toBe("cancelled");
    expect($("section[data-store=fixture-store-b] [data-field=cancel_reason]").text()).toBe("Cannot ship to this address");
    expect($("section[data-store=fixture-store-b] form").length).toBe(0);
    expect($("section[data-store=fixture-store-a] form").length).toBe(2);
    const mail = (await outbox(order.number)).filter((m) => m.subject === `Items of your order ${order.number} were cancelled`);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain("cannot ship them to your address");

    // A cancel posted again (a second tab) is refused on the page.
    expect(alertText((await ownerAB.submit(cancel.action, cancel.fields)).text)).toMatch(/cancelled/);
    // A ships: its part offers no cancel any more.
    const ship = fillForm(page.text, `Ship ${nameA}'s items`, { "Tracking number": "1Z-A" }, "Mark shipped");
    page = await ownerAB.submit(ship.action, ship.fields);
    $ = parseHtml(page.text);
    expect($(`form[aria-label="Cancel ${nameA}'s items"]`).length).toBe(0);

    const buyerView = parseHtml((await (await signIn(buyer)).get(`/account/orders/${order.number}`)).text);
    expect(buyerView("section[data-store=fixture-store-b]").attr("data-part-status")).toBe("cancelled");
    expect(buyerView("[data-event=cancelled]").text()).toContain(`${nameB} cancelled its items`);
  });

  it("returns: listed with the buttons their state allows; approve, mark received, refund, reject; another store's return is 404", async () => {
    const order = await twoStoreOrder(buyer, { status: "delivered" });
    const [a1, , b1] = order.lines;
    const ret = await tx((t) => requestReturn(t, buyer, order.id, CreateReturn.parse({ lines: [{ order_line_id: a1!.id, quantity: 2, reason: "damaged" }] })));
    const retB = await tx((t) => requestReturn(t, buyer, order.id, CreateReturn.parse({ lines: [{ order_line_id: b1!.id, quantity: 1, reason: "other" }] })));
    const buttons = (html: string, id: string) => {
      const $ = parseHtml(html);
      return $(`form[action="/seller/returns/${id}"] button`).map((_, el) => $(el).text()).get();
    };
    let page = await ownerA.get("/seller/returns");
    expect(buttons(page.text, ret.id)).toEqual(["Approve", "Reject"]);
    expect(page.text).not.toContain(retB.id);
    expect(buttons((await ownerA.get(`/seller/orders/${order.number}`)).text, ret.id)).toEqual(["Approve", "Reject"]);

    const post = (who: Visitor, id: string, move: string) => who.post(`/seller/returns/${id}`, { move, return_to: "/seller/returns" });
    const before = await stateOf(order.id);
    expect((await post(ownerC, ret.id, "approve")).status).toBe(404);
    expect((await post(ownerA, retB.id, "approve")).status).toBe(404);
    expect((await post(ownerA, "not-a-uuid", "approve")).status).toBe(404);
    expect((await ownerA.post(`/seller/returns/${ret.id}`, { move: "approve" }, { "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    for (const [move, message] of [["refund", /requested/], ["explode", /buttons/]] as const) {
      const res = await post(ownerA, ret.id, move);
      expect(res.status).toBe(303);
      expect(alertText((await ownerA.get(res.location!)).text)).toMatch(message);
    }
    expect(await stateOf(order.id)).toEqual(before);

    page = await ownerA.submit(`/seller/returns/${ret.id}`, { move: "approve", return_to: `/seller/orders/${order.number}` });
    expect(parseHtml(page.text)("main").attr("data-page")).toBe("seller-order");
    expect(statusText(page.text)).toContain("Return approved");
    expect(buttons(page.text, ret.id)).toEqual(["Mark received", "Reject"]);
    page = await ownerA.submit(`/seller/returns/${ret.id}`, { move: "receive", return_to: "/seller/returns" });
    expect(buttons(page.text, ret.id)).toEqual(["Refund"]);
    page = await ownerA.submit(`/seller/returns/${ret.id}`, { move: "refund", return_to: "https://evil.example/" });
    expect(parseHtml(page.text)("main").attr("data-page")).toBe("seller-returns");
    expect(statusText(page.text)).toContain("Return refunded");
    expect(buttons(page.text, ret.id)).toEqual([]);
    const { rows } = await app.pool.query(`SELECT status::text, refund_cents FROM returns WHERE id = $1`, [ret.id]);
    expect(rows[0]).toEqual({ status: "refunded", refund_cents: 2 * a1!.unitPriceCents });
    expect((await outbox(order.number)).filter((m) => m.subject.startsWith("Refund"))).toHaveLength(1);

    page = await ownerAB.submit(`/seller/returns/${retB.id}`, { move: "reject", return_to: "/seller/returns?store=fixture-store-b" });
    expect(statusText(page.text)).toContain("Return rejected");
    // The buyer sees both outcomes on the order page.
    const buyerView = await (await signIn(buyer)).get(`/account/orders/${order.number}`);
    const $ = parseHtml(buyerView.text);
    expect($("[data-return-status]").map((_, el) => $(el).attr("data-return-status")).get().sort()).toEqual(["refunded", "rejected"]);
  });
});
