/**
 * Agentic checkout and the agent settings (decisions.md "OAuth, agent MCP and buyer API"): the
 * rules placeOrder holds an agent to (lib/checkout/, called directly against the app's
 * database, as the buyer API and the agent MCP call it), what counts as this month's agent spend
 * (lib/agents/settings.ts), and the /account/agents form over plain HTTP as a browser without
 * JavaScript drives it.
 *
 * It flips the marketplace setting `agentic_checkout`, so it runs on an app and database of its own.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../lib/accounts/password";
import { createDb, type PrismaClient } from "../../lib/db";
import type { AppError } from "../../lib/errors";
import { testProvider } from "../../lib/payments/test-provider";
import { alertText, fillForm, statusText } from "../helpers/forms";
import { parseHtml } from "../helpers/html";
import { mintAccessToken } from "../helpers/oauth-tokens";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;
const FORM = "Agent settings";
const ENABLED = "Let agents place orders";
const PER_ORDER = "Per-order limit (USD)";
const MONTHLY = "Monthly limit (USD)";
/** The start of this calendar month in UTC, as SQL. */
const MONTH_START = `date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

let app: IsolatedApp;
let client: PrismaClient;
let checkout: typeof import("../../lib/checkout");
let agents: typeof import("../../lib/agents/settings");
let productId: string;

async function query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await app.pool.query(sql, params)).rows as T[];
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await query<{ n: number }>(`SELECT (${sql})::int AS n`, params);
  return row!.n;
}

async function marketplace(on: boolean) {
  await query(
    `INSERT INTO settings (key, value) VALUES ('agentic_checkout', $1::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    [JSON.stringify(on)],
  );
}

/** An account holder with a default address and the test card, as the buyer API needs. */
async function holder(label: string, role = "shopper"): Promise<{ id: string; email: string }> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.com`;
  const [row] = await query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Ada Agentholder', $2, $3) RETURNING id`, [
    email,
    role,
    await hashPassword(PASSWORD),
  ]);
  await query(
    `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Ada Agentholder', '5 Elm Road', 'Portland', 'OR', '97201', 'US', true)`,
    [row.id],
  );
  await query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'test', 'test_card', 'Test card', '4242', true)`, [row.id]);
  return { id: row.id, email };
}

/** Agent settings written straight to the table (the form is tested on its own below). */
async function allow(userId: string, perOrderCents: number | null, monthlyCents: number | null, enabled = true) {
  await query(
    `INSERT INTO agent_settings (user_id, orders_enabled, per_order_limit_cents, monthly_limit_cents) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id) DO UPDATE SET orders_enabled = $2, per_order_limit_cents = $3, monthly_limit_cents = $4`,
    [userId, enabled, perOrderCents, monthlyCents],
  );
}

let skuSeq = 0;

/** An active listing of store A (no shipping template: ships free, so an order's total is its price × quantity). */
async function listing(priceCents: number, quantity = 50): Promise<string> {
  const [row] = await query(
    `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
     VALUES ($1, $2, $3, 'new', $4, $4, $5, false, 'active', now()) RETURNING id`,
    [await storeIdOf(app.pool, "fixture-store-a"), productId, `AGT-${++skuSeq}-${randomBytes(3).toString("hex")}`, priceCents, quantity],
  );
  return row.id;
}

async function quantityOf(id: string): Promise<number> {
  return (await query(`SELECT quantity FROM listings WHERE id = $1`, [id]))[0].quantity;
}

/** An order row as checkout leaves it, for what counts as spend; `createdAt` is SQL. */
async function pastOrder(
  userId: string,
  totalCents: number,
  opts: { placedVia?: "agent" | "storefront"; status?: string; createdAt?: string; grantId?: string | null } = {},
) {
  const placedVia = opts.placedVia ?? "agent";
  await query(
    `INSERT INTO orders (user_id, email, status, placed_via, subtotal_cents, shipping_cents, total_cents, shipping_address,
                         payment_provider, payment_ref, payment_last4, agent_grant_id, created_at)
     VALUES ($1, 'past@example.com', $2::order_status, $3::order_placed_via, $4, 0, $4, '{}'::jsonb, 'test', $5, '4242', $6, ${opts.createdAt ?? "now()"})`,
    [userId, opts.status ?? "placed", placedVia, totalCents, `ch_${randomBytes(8).toString("hex")}`, placedVia === "agent" ? (opts.grantId ?? "grant-past") : null],
  );
}

function token(): string {
  return `agent-test:${randomBytes(12).toString("hex")}`;
}

type Source = import("../../lib/checkout").CheckoutSource;

/** An agent's checkout for `userId`, as the buyer API would make it. */
function agentOrder(userId: string, source: Source, agent: { grantId?: string; scopes?: string[] } = {}, extra: { expectedTotalCents?: number } = {}) {
  return checkout.placeOrder(client, {
    buyer: { userId },
    source,
    placedVia: "agent",
    agent: { grantId: agent.grantId ?? "grant-1", scopes: agent.scopes ?? ["checkout"] },
    checkoutToken: token(),
    ...extra,
  });
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

/** What a refused agent checkout must leave as it was. */
async function snapshot(userId: string, listingIds: string[]) {
  return {
    orders: await count(`SELECT count(*) FROM orders`),
    stock: await Promise.all(listingIds.map(quantityOf)),
    adjustments: await count(`SELECT count(*) FROM stock_adjustments WHERE listing_id = ANY($1::uuid[])`, [listingIds]),
    cart: await query(
      `SELECT cl.listing_id, cl.quantity FROM cart_lines cl JOIN carts c ON c.id = cl.cart_id WHERE c.user_id = $1 ORDER BY cl.listing_id`,
      [userId],
    ),
  };
}

async function fillCart(userId: string, lines: Array<[string, number]>) {
  const [cart] = await query(`INSERT INTO carts (user_id) VALUES ($1) RETURNING id`, [userId]);
  for (const [i, [listingId, quantity]] of lines.entries()) {
    await query(
      `INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents, added_at)
       SELECT $1, id, $3, price_cents, now() + make_interval(secs => $4) FROM listings WHERE id = $2`,
      [cart.id, listingId, quantity, i],
    );
  }
}

beforeAll(async () => {
  app = await startIsolatedApp("agent-checkout");
  // The domain functions run in this process against the app's database.
  client = createDb(app.database.databaseUrl);
  (globalThis as unknown as { __marketplaceDb?: PrismaClient }).__marketplaceDb = client;
  checkout = await import("../../lib/checkout");
  agents = await import("../../lib/agents/settings");
  productId = (await query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`))[0].id;
});

afterAll(async () => {
  await client?.$disconnect();
  await app?.stop();
});

describe("agentic checkout: each failed condition has its own 403, checked in order", () => {
  it("marketplace off and holder off: agentic_checkout_disabled; then agentic_purchasing_off; nothing changes", async () => {
    const { id } = await holder("order");
    const item = await listing(1000);
    await fillCart(id, [[item, 2]]);
    const before = await snapshot(id, [item]);

    await marketplace(false);
    // Nothing is allowed at all (no settings row, no checkout scope): the marketplace switch speaks first.
    let err = await refusal(agentOrder(id, { cart: { userId: id } }, { scopes: [] }));
    expect([err.code, err.status, err.type]).toEqual(["agentic_checkout_disabled", 403, "permission_error"]);
    // Even with everything else allowed.
    await allow(id, 100_000, 1_000_000);
    err = await refusal(agentOrder(id, { cart: { userId: id } }));
    expect(err.code).toBe("agentic_checkout_disabled");

    await marketplace(true);
    await allow(id, 500, 600, false);
    err = await refusal(agentOrder(id, { cart: { userId: id } }, { scopes: [] }));
    expect([err.code, err.status]).toEqual(["agentic_purchasing_off", 403]);
    // Off without any settings row: the default.
    const { id: fresh } = await holder("fresh");
    err = await refusal(agentOrder(fresh, { lines: [{ listing_id: item, quantity: 1 }] }));
    expect(err.code).toBe("agentic_purchasing_off");

    expect(await snapshot(id, [item])).toEqual(before);
  });

  it("over the per-order limit: per_order_limit_exceeded (before the monthly limit and the scope)", async () => {
    await marketplace(true);
    const { id } = await holder("per-order");
    const item = await listing(2500);
    await fillCart(id, [[item, 1]]);
    // Also over the monthly limit, and the token lacks checkout: the per-order limit speaks first.
    await allow(id, 2000, 2400);
    const before = await snapshot(id, [item]);
    const err = await refusal(agentOrder(id, { cart: { userId: id } }, { scopes: ["cart:write"] }));
    expect([err.code, err.status]).toEqual(["per_order_limit_exceeded", 403]);
    expect(err.message).toContain("$25.00");
    expect(err.message).toContain("$20.00");
    // Exactly at the limit is within it.
    await allow(id, 2500, 10_000);
    const placed = await agentOrder(id, { cart: { userId: id } });
    expect(placed.order.total_cents).toBe(2500);
    expect(before.orders + 1).toBe(await count(`SELECT count(*) FROM orders`));
  });

  it("over what is left of the monthly limit: monthly_limit_exceeded saying what is left (before the scope)", async () => {
    await marketplace(true);
    const { id } = await holder("monthly");
    await allow(id, 4500, 5000);
    await pastOrder(id, 4000);
    const item = await listing(1500);
    await fillCart(id, [[item, 1]]);
    const before = await snapshot(id, [item]);
    const err = await refusal(agentOrder(id, { cart: { userId: id } }, { scopes: ["cart:read"] }));
    expect([err.code, err.status]).toEqual(["monthly_limit_exceeded", 403]);
    expect(err.message).toContain("$10.00 of $50.00 left");
    expect(await snapshot(id, [item])).toEqual(before);
  });

  it("a token without checkout: scope_missing naming checkout; cart:write does not imply it", async () => {
    await marketplace(true);
    const { id } = await holder("scope");
    await allow(id, 5000, 5000);
    const item = await listing(1000);
    await fillCart(id, [[item, 1]]);
    const before = await snapshot(id, [item]);
    for (const scopes of [[], ["cart:write", "cart:read", "orders:read", "profile:read", "returns:write"]]) {
      const err = await refusal(agentOrder(id, { cart: { userId: id } }, { scopes }));
      expect([err.code, err.status, err.requiredScopes]).toEqual(["scope_missing", 403, ["checkout"]]);
    }
    expect(await snapshot(id, [item])).toEqual(before);
  });

  it("the limits come before total_changed, and total_changed still applies to an agent within them", async () => {
    await marketplace(true);
    const { id } = await holder("total");
    await allow(id, 1000, 5000);
    const item = await listing(1200);
    let err = await refusal(agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }, {}, { expectedTotalCents: 999 }));
    expect(err.code).toBe("per_order_limit_exceeded");
    await allow(id, 5000, 5000);
    err = await refusal(agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }, {}, { expectedTotalCents: 999 }));
    expect([err.code, err.extra]).toEqual(["total_changed", { total_cents: 1200 }]);
  });
});

describe("an agent order", () => {
  it("is placed_via agent, keeps its grant id, takes stock and empties the cart; a replay places nothing more", async () => {
    await marketplace(true);
    const { id } = await holder("placed");
    await allow(id, 10_000, 20_000);
    const a = await listing(1500, 4);
    const b = await listing(500, 4);
    await fillCart(id, [
      [a, 2],
      [b, 1],
    ]);
    const key = token();
    const input = {
      buyer: { userId: id },
      source: { cart: { userId: id } },
      placedVia: "agent" as const,
      agent: { grantId: "grant-abc", scopes: ["checkout"] },
      checkoutToken: key,
    };
    const placed = await checkout.placeOrder(client, input);
    expect(placed.order).toMatchObject({ placed_via: "agent", total_cents: 3500, status: "placed" });
    const [row] = await query(`SELECT placed_via, agent_grant_id, user_id FROM orders WHERE id = $1`, [placed.order.id]);
    expect(row).toEqual({ placed_via: "agent", agent_grant_id: "grant-abc", user_id: id });
    expect([await quantityOf(a), await quantityOf(b)]).toEqual([2, 3]);
    expect(await count(`SELECT count(*) FROM cart_lines cl JOIN carts c ON c.id = cl.cart_id WHERE c.user_id = $1`, [id])).toBe(0);
    expect(await agents.agentSpendThisMonth(client, id)).toBe(3500);

    const again = await checkout.placeOrder(client, input);
    expect(again.replayed).toBe(true);
    expect(again.order.id).toBe(placed.order.id);
    expect(await agents.agentSpendThisMonth(client, id)).toBe(3500);

    // The holder's order page and the store's desk say who placed it.
    const browser = new Browser();
    await browser.signIn((await query(`SELECT email FROM users WHERE id = $1`, [id]))[0].email);
    const mine = await browser.get(`/account/orders/${placed.order.number}`);
    expect(mine.status).toBe(200);
    expect(parseHtml(mine.text)("[data-placed-via=agent]").text()).toBe("Placed by an agent");
    const list = await browser.get(`/account/orders`);
    expect(parseHtml(list.text)(`tr[data-order="${placed.order.number}"] [data-placed-via=agent]`).text()).toBe("Placed by an agent");

    const owner = await holder("owner", "store_owner");
    await query(`INSERT INTO store_owners (store_id, user_id) VALUES ($1, $2)`, [await storeIdOf(app.pool, "fixture-store-a"), owner.id]);
    const desk = new Browser();
    await desk.signIn(owner.email);
    const deskPage = await desk.get(`/seller/orders/${placed.order.number}`);
    expect(deskPage.status).toBe(200);
    expect(parseHtml(deskPage.text)("[data-placed-via=agent]").text()).toBe("Placed by an agent");
    const deskList = await desk.get(`/seller/orders`);
    expect(parseHtml(deskList.text)(`tr[data-order="${placed.order.number}"] [data-placed-via=agent]`).text()).toBe("Placed by an agent");
    // A storefront order is not marked.
    const storefront = await checkout.placeOrder(client, { buyer: { userId: id }, source: { lines: [{ listing_id: b, quantity: 1 }] }, placedVia: "storefront", checkoutToken: token() });
    const plain = await browser.get(`/account/orders/${storefront.order.number}`);
    expect(parseHtml(plain.text)("[data-placed-via]").length).toBe(0);
  });

  it("a guest can never be an agent buyer; an agent checkout needs its agent, and only an agent checkout names one", async () => {
    await marketplace(true);
    const item = await listing(1000);
    const orders = await count(`SELECT count(*) FROM orders`);
    const address = { full_name: "G", line1: "1 St", city: "C", state: "S", postal_code: "12345" };
    const guest = await refusal(
      checkout.placeOrder(client, {
        buyer: { email: "guest-agent@example.com" },
        source: { lines: [{ listing_id: item, quantity: 1 }] },
        shippingAddress: address,
        cardNumber: "4242 4242 4242 4242",
        placedVia: "agent",
        agent: { grantId: "grant-guest", scopes: ["checkout"] },
        checkoutToken: token(),
      }),
    );
    expect([guest.code, guest.param]).toEqual(["parameter_invalid", "buyer"]);
    const { id } = await holder("noagent");
    await allow(id, 5000, 5000);
    const missing = await refusal(checkout.placeOrder(client, { buyer: { userId: id }, source: { lines: [{ listing_id: item, quantity: 1 }] }, placedVia: "agent", checkoutToken: token() }));
    expect([missing.code, missing.param]).toEqual(["parameter_invalid", "agent"]);
    const stray = await refusal(
      checkout.placeOrder(client, {
        buyer: { userId: id },
        source: { lines: [{ listing_id: item, quantity: 1 }] },
        placedVia: "storefront",
        agent: { grantId: "grant-x", scopes: ["checkout"] },
        checkoutToken: token(),
      }),
    );
    expect([stray.code, stray.param]).toEqual(["parameter_invalid", "agent"]);
    expect(await count(`SELECT count(*) FROM orders`)).toBe(orders);
    expect(await quantityOf(item)).toBe(50);
  });
});

describe("an agent's checkout declined, then retried with the same idempotency key", () => {
  it("the retry (another default payment method) charges under the next reference and places the order once", async () => {
    const buyer = await import("../../lib/buyer/checkout");
    await marketplace(true);
    const { id } = await holder("declined");
    await allow(id, 100_000, 1_000_000);
    const item = await listing(1500, 5);
    const agent = { userId: id, grantId: "grant-declined", scopes: ["checkout"] };
    // The buyer API and the agent MCP derive the checkout token from the caller and the key.
    const checkoutToken = buyer.checkoutTokenFor(`oauth:${id}`, `key-${randomBytes(6).toString("hex")}`);
    const body = { lines: [{ listing_id: item, quantity: 1 }] };
    const charge = vi.spyOn(testProvider, "charge");
    try {
      // The saved card is declined once (the test card itself never is).
      charge.mockResolvedValueOnce({ status: "declined", reason: "The card was declined." });
      const declined = await refusal(buyer.buyerCheckout(client, agent, body, checkoutToken));
      expect([declined.code, declined.status]).toEqual(["payment_declined", 402]);
      expect(await query(`SELECT reference, outcome FROM payment_attempts WHERE checkout_token = $1`, [checkoutToken])).toEqual([
        { reference: `checkout:${checkoutToken}:0`, outcome: "declined" },
      ]);

      const order = await buyer.buyerCheckout(client, agent, body, checkoutToken);
      expect(order).toMatchObject({ placed_via: "agent", total_cents: 1500 });
      expect(charge.mock.calls.map(([request]) => request.reference)).toEqual([`checkout:${checkoutToken}:0`, `checkout:${checkoutToken}:1`]);
      const again = await buyer.buyerCheckout(client, agent, body, checkoutToken);
      expect(again.id).toBe(order.id);
      expect(charge).toHaveBeenCalledTimes(2);
      expect(await quantityOf(item)).toBe(4);
    } finally {
      charge.mockRestore();
    }
  });
});

describe("a saved payment method the marketplace can no longer charge", () => {
  it("a default method of a provider that is not configured is declined (402), nothing charged or placed", async () => {
    const buyer = await import("../../lib/buyer/checkout");
    await marketplace(true);
    const { id } = await holder("retired-provider");
    await allow(id, 100_000, 1_000_000);
    await query(`UPDATE payment_methods SET is_default = false WHERE user_id = $1`, [id]);
    await query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'retired', 'pm_gone', 'Visa', '1881', true)`, [id]);
    const item = await listing(1500, 5);
    const charge = vi.spyOn(testProvider, "charge");
    try {
      const agent = { userId: id, grantId: "grant-retired", scopes: ["checkout"] };
      const refused = await refusal(buyer.buyerCheckout(client, agent, { lines: [{ listing_id: item, quantity: 1 }] }, buyer.checkoutTokenFor(`oauth:${id}`, undefined)));
      expect([refused.code, refused.status, refused.param]).toEqual(["payment_declined", 402, "payment_method"]);
      expect(refused.message).toContain("ending in 1881");
      expect(charge).not.toHaveBeenCalled();
      expect(await quantityOf(item)).toBe(5);
      expect(await query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [id])).toEqual([{ n: 0 }]);
    } finally {
      charge.mockRestore();
    }
  });
});

describe("this month's agent spend", () => {
  it("counts agent orders of this calendar month that are not cancelled; not last month's, not storefront orders", async () => {
    await marketplace(true);
    const { id } = await holder("spend");
    await allow(id, 4000, 5000);
    await pastOrder(id, 4500, { status: "cancelled" });
    await pastOrder(id, 4500, { createdAt: `${MONTH_START} - interval '1 millisecond'` });
    await pastOrder(id, 4500, { createdAt: `${MONTH_START} - interval '20 days'` });
    await pastOrder(id, 4500, { placedVia: "storefront" });
    await pastOrder(id, 700, { status: "delivered", createdAt: MONTH_START, grantId: "grant-early" });
    expect(await agents.agentSpendThisMonth(client, id)).toBe(700);

    const item = await listing(4000);
    const placed = await agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }, { grantId: "grant-two" });
    expect(placed.order.total_cents).toBe(4000);
    expect(await agents.agentSpendThisMonth(client, id)).toBe(4700);
    const err = await refusal(agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }));
    expect(err.code).toBe("monthly_limit_exceeded");
    expect(err.message).toContain("$3.00 of $50.00 left");

    // Cancelling an agent order gives its amount back.
    await query(`UPDATE orders SET status = 'cancelled' WHERE id = $1`, [placed.order.id]);
    expect(await agents.agentSpendThisMonth(client, id)).toBe(700);
    expect(await agents.agentSpendByGrant(client, id)).toEqual(new Map([["grant-early", 700]]));
  });

  it("the month is the calendar month in UTC, whatever the database session's time zone", async () => {
    const { id } = await holder("utc");
    await pastOrder(id, 100, { createdAt: `${MONTH_START} - interval '1 millisecond'` });
    await pastOrder(id, 20, { createdAt: MONTH_START });
    await pastOrder(id, 3, { createdAt: `${MONTH_START} + interval '1 millisecond'` });
    for (const zone of ["UTC", "Pacific/Kiritimati", "Pacific/Honolulu", "America/Los_Angeles", "Asia/Kolkata"]) {
      const spent = await client.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL TimeZone = '${zone}'`);
        return agents.agentSpendThisMonth(tx, id);
      });
      expect(spent, zone).toBe(23);
    }
  });

  it("per grant: each connected agent's spend this month", async () => {
    await marketplace(true);
    const { id } = await holder("grants");
    await allow(id, 10_000, 100_000);
    const item = await listing(1000);
    await agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }, { grantId: "grant-a" });
    await agentOrder(id, { lines: [{ listing_id: item, quantity: 2 }] }, { grantId: "grant-a" });
    await agentOrder(id, { lines: [{ listing_id: item, quantity: 3 }] }, { grantId: "grant-b" });
    await pastOrder(id, 999, { grantId: "grant-b", createdAt: `${MONTH_START} - interval '1 day'` });
    const { id: other } = await holder("grants-other");
    await pastOrder(other, 555, { grantId: "grant-a" });
    expect(await agents.agentSpendByGrant(client, id)).toEqual(
      new Map([
        ["grant-a", 3000],
        ["grant-b", 3000],
      ]),
    );
  });
});

describe("concurrent agent checkouts of one holder", () => {
  it("10 at once, each within the per-order limit, together above the monthly limit: never more than the limit", async () => {
    await marketplace(true);
    const { id } = await holder("race");
    const monthly = 10_000;
    await allow(id, 3000, monthly);
    // A listing each, so that nothing but the holder's lock makes them wait for one another.
    const items = await Promise.all(Array.from({ length: 10 }, () => listing(2500, 5)));
    const results = await Promise.allSettled(
      items.map((item, i) => agentOrder(id, { lines: [{ listing_id: item, quantity: 1 }] }, { grantId: `grant-${i % 3}` })),
    );
    const placed = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof agentOrder>>>).value);
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as AppError);
    expect(placed.length).toBeGreaterThanOrEqual(1);
    const total = placed.reduce((sum, p) => sum + p.order.total_cents, 0);
    expect(total).toBeLessThanOrEqual(monthly);
    // They run one after another, so exactly as many as fit are placed.
    expect(placed.length).toBe(4);
    expect(refused.map((e) => e.code)).toEqual(Array(6).fill("monthly_limit_exceeded"));
    expect(await agents.agentSpendThisMonth(client, id)).toBe(total);
    expect(await count(`SELECT coalesce(sum(total_cents), 0) FROM orders WHERE user_id = $1 AND placed_via = 'agent'`, [id])).toBe(total);
    // Refused ones took no stock.
    const stock = await Promise.all(items.map(quantityOf));
    expect(stock.filter((q) => q === 4)).toHaveLength(4);
    expect(stock.filter((q) => q === 5)).toHaveLength(6);
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------
// The settings form on /account/agents

interface Page {
  status: number;
  text: string;
  location: string | null;
}

const rand = () => Math.floor(Math.random() * 254);

/** A browser: a cookie jar, GETs and form posts from the app's own pages. */
class Browser {
  private jar = new Map<string, string>();
  private readonly ip = `10.${rand()}.${rand()}.${rand() + 1}`;

  get(path: string): Promise<Page> {
    return this.request(path, { method: "GET" });
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = { "Sec-Fetch-Site": "same-origin", Origin: app.baseUrl }): Promise<Page> {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  async signIn(email: string) {
    const res = await this.post("/signin/password", { email, password: PASSWORD, next: "/account" });
    expect(res.status, res.text.slice(0, 200)).toBe(303);
    expect(this.jar.size).toBeGreaterThan(0);
  }

  /** Opens /account/agents, fills "Agent settings" by its labels, presses Save and follows the 303. */
  async save(values: Record<string, string | boolean>, extra: Record<string, string> = {}): Promise<{ posted: Page; page: Page }> {
    const page = await this.get("/account/agents");
    expect(page.status).toBe(200);
    const filled = fillForm(page.text, FORM, values, "Save");
    expect([filled.action, filled.method]).toEqual(["/account/agents/settings", "post"]);
    const posted = await this.post(filled.action, { ...filled.fields, ...extra });
    expect(posted.status, posted.text.slice(0, 300)).toBe(303);
    return { posted, page: await this.get(posted.location!) };
  }

  private async request(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("Cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    headers.set("X-Forwarded-For", this.ip);
    const res = await fetch(new URL(path, app.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(60_000) });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (!value || attrs.some((a) => /max-age=0\b/i.test(a.trim()))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    const location = res.headers.get("location");
    const url = location ? new URL(location, app.baseUrl) : null;
    return { status: res.status, text: await res.text(), location: url ? url.pathname + url.search : null };
  }
}

async function settingsRow(userId: string) {
  return (await query(`SELECT orders_enabled, per_order_limit_cents, monthly_limit_cents, updated_at FROM agent_settings WHERE user_id = $1`, [userId]))[0] ?? null;
}

/** The form as the page shows it: the checkbox, the two fields (by their labels), the spend line. */
function formState(html: string) {
  const $ = parseHtml(html);
  const form = $("form").filter((_, el) => $(`#${$(el).attr("aria-labelledby")}`).text().trim() === FORM);
  expect(form.length).toBe(1);
  return {
    enabled: form.find('input[name="orders_enabled"]').attr("checked") !== undefined,
    perOrder: form.find('input[name="per_order_limit"]').attr("value") ?? "",
    monthly: form.find('input[name="monthly_limit"]').attr("value") ?? "",
    invalid: form.find("[aria-invalid=true]").map((_, el) => $(el).attr("name") ?? "").get(),
    spend: $("[data-agent-spend-cents]").text().trim(),
  };
}

describe("the agent settings form on /account/agents", () => {
  it("signed out, the page sends to sign in; /account links to it", async () => {
    const anonymous = new Browser();
    const res = await anonymous.get("/account/agents");
    expect(res.status).toBe(307);
    expect(res.location).toBe("/signin?next=%2Faccount%2Fagents");
    const { email } = await holder("link");
    const browser = new Browser();
    await browser.signIn(email);
    const account = await browser.get("/account");
    const $ = parseHtml(account.text);
    expect($('nav[aria-label="Account"] a').filter((_, a) => $(a).text().trim() === "Agents").attr("href")).toBe("/account/agents");
  });

  it("has the heading, the exact accessible names, and saves limits in dollars", async () => {
    const { id, email } = await holder("form");
    const browser = new Browser();
    await browser.signIn(email);
    const page = await browser.get("/account/agents");
    expect(page.status).toBe(200);
    const $ = parseHtml(page.text);
    expect($("h1").text().trim()).toBe("Agents");
    expect($("h2").map((_, h) => $(h).text().trim()).get()).toContain("Agent settings");
    expect(formState(page.text)).toEqual({ enabled: false, perOrder: "", monthly: "", invalid: [], spend: "Spent by agents this month: $0.00 (no monthly limit set)" });
    // Each name matches exactly one control of the form (fillForm throws otherwise).
    fillForm(page.text, FORM, { [ENABLED]: true, [PER_ORDER]: "1", [MONTHLY]: "2" }, "Save");
    expect(await settingsRow(id)).toBeNull();

    const { posted, page: saved } = await browser.save({ [ENABLED]: true, [PER_ORDER]: "49.99", [MONTHLY]: "200" });
    expect(posted.location).toBe("/account/agents?notice=agent_settings_saved");
    expect(statusText(saved.text)).toBe("Agent settings saved.");
    expect(formState(saved.text)).toEqual({ enabled: true, perOrder: "49.99", monthly: "200", invalid: [], spend: "Spent by agents this month: $0.00 of $200.00" });
    expect(await settingsRow(id)).toMatchObject({ orders_enabled: true, per_order_limit_cents: 4999, monthly_limit_cents: 20_000 });
    expect(await agents.getAgentSettings(client, id)).toEqual({ orders_enabled: true, per_order_limit_cents: 4999, monthly_limit_cents: 20_000 });

    // What agents spent shows against the limit.
    await pastOrder(id, 1234);
    expect(formState((await browser.get("/account/agents")).text).spend).toBe("Spent by agents this month: $12.34 of $200.00");

    // Saving the page as shown changes nothing; "$50" and "0.5" are dollars too.
    await browser.save({});
    expect(await settingsRow(id)).toMatchObject({ orders_enabled: true, per_order_limit_cents: 4999, monthly_limit_cents: 20_000 });
    await browser.save({ [PER_ORDER]: "$50", [MONTHLY]: " 1000000 " });
    expect(await settingsRow(id)).toMatchObject({ per_order_limit_cents: 5000, monthly_limit_cents: 100_000_000 });
    // Turning off keeps the limits, or clears them when emptied.
    const { page: off } = await browser.save({ [ENABLED]: false });
    expect(formState(off.text)).toMatchObject({ enabled: false, perOrder: "50", monthly: "1000000" });
    await browser.save({ [PER_ORDER]: "", [MONTHLY]: "" });
    expect(await settingsRow(id)).toMatchObject({ orders_enabled: false, per_order_limit_cents: null, monthly_limit_cents: null });
  });

  it("hostile or wrong input gets a clear message next to its field and changes nothing", async () => {
    const { id, email } = await holder("hostile");
    const browser = new Browser();
    await browser.signIn(email);
    await browser.save({ [ENABLED]: true, [PER_ORDER]: "20", [MONTHLY]: "100" });
    const before = await settingsRow(id);
    expect(before).toMatchObject({ orders_enabled: true, per_order_limit_cents: 2000, monthly_limit_cents: 10_000 });

    const long = "9".repeat(10_000);
    const cases: Array<[Record<string, string | boolean>, string, RegExp]> = [
      [{ [PER_ORDER]: "-5" }, "per_order_limit", /Per-order limit \(USD\): enter an amount in dollars/],
      [{ [PER_ORDER]: "1e9" }, "per_order_limit", /Per-order limit \(USD\): enter an amount in dollars/],
      [{ [PER_ORDER]: "NaN" }, "per_order_limit", /Per-order limit \(USD\)/],
      [{ [PER_ORDER]: "Infinity" }, "per_order_limit", /Per-order limit \(USD\)/],
      [{ [PER_ORDER]: "49.999" }, "per_order_limit", /at most 2 decimals/],
      [{ [PER_ORDER]: "1,000" }, "per_order_limit", /no commas/],
      [{ [PER_ORDER]: "0x10" }, "per_order_limit", /Per-order limit \(USD\)/],
      [{ [PER_ORDER]: long }, "per_order_limit", /Per-order limit \(USD\)/],
      [{ [PER_ORDER]: "2\u00000" }, "per_order_limit", /Per-order limit \(USD\)/],
      [{ [PER_ORDER]: "0" }, "per_order_limit", /from \$0\.01 to \$1,000,000\.00/],
      [{ [MONTHLY]: long }, "monthly_limit", /Monthly limit \(USD\)/],
      [{ [MONTHLY]: "\u0000" }, "monthly_limit", /Monthly limit \(USD\)/],
      [{ [MONTHLY]: "1000000.01" }, "monthly_limit", /from \$0\.01 to \$1,000,000\.00/],
      [{ [MONTHLY]: "" }, "monthly_limit", /Monthly limit \(USD\): set a limit to let agents place orders/],
      [{ [PER_ORDER]: "", [MONTHLY]: "" }, "per_order_limit", /Per-order limit \(USD\): set a limit to let agents place orders/],
      [{ [PER_ORDER]: "300", [MONTHLY]: "200" }, "per_order_limit", /cannot be more than the monthly limit \(\$200\.00\)/],
      [{ [ENABLED]: false, [PER_ORDER]: "300", [MONTHLY]: "200" }, "per_order_limit", /cannot be more than the monthly limit/],
    ];
    for (const [values, field, message] of cases) {
      const { posted, page } = await browser.save(values);
      expect(posted.location, JSON.stringify(values).slice(0, 80)).toMatch(/^\/account\/agents\?flash=/);
      expect(alertText(page.text), JSON.stringify(values).slice(0, 80)).toMatch(message);
      expect(formState(page.text).invalid).toEqual([field]);
      expect(await settingsRow(id)).toEqual(before);
    }
    // A crafted checkbox value.
    const { page } = await browser.save({}, { orders_enabled: "yes" });
    expect(alertText(page.text)).toMatch(/Let agents place orders/);
    expect(await settingsRow(id)).toEqual(before);
    // The domain refuses the same, whoever calls it.
    await expect(agents.saveAgentSettings(client, id, { ordersEnabled: true, perOrderLimit: "NaN", monthlyLimit: "10" })).rejects.toMatchObject({
      code: "parameter_invalid",
      param: "per_order_limit",
    });
    expect(await settingsRow(id)).toEqual(before);
  }, 120_000);

  it("a cross-site post is refused and a signed-out post is sent to sign in; neither changes anything", async () => {
    const { id, email } = await holder("csrf");
    const browser = new Browser();
    await browser.signIn(email);
    await browser.save({ [ENABLED]: true, [PER_ORDER]: "20", [MONTHLY]: "100" });
    const before = await settingsRow(id);
    const fields = { orders_enabled: "on", per_order_limit: "999", monthly_limit: "9999" };
    const crossSite = await browser.post("/account/agents/settings", fields, { "Sec-Fetch-Site": "cross-site", Origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await browser.post("/account/agents/settings", fields, { Origin: "https://evil.example" });
    expect(foreignOrigin.status).toBe(403);
    expect(await settingsRow(id)).toEqual(before);

    const anonymous = new Browser();
    const signedOut = await anonymous.post("/account/agents/settings", fields);
    expect(signedOut.status).toBe(303);
    expect(signedOut.location).toMatch(/^\/signin\?next=/);
    expect(await settingsRow(id)).toEqual(before);
    expect(await count(`SELECT count(*) FROM agent_settings WHERE per_order_limit_cents = 99900`)).toBe(0);
  });

  it("the session decides whose settings change: an id in the form is ignored", async () => {
    const a = await holder("holder-a");
    const b = await holder("holder-b");
    const browserA = new Browser();
    await browserA.signIn(a.email);
    await browserA.save({ [ENABLED]: true, [PER_ORDER]: "10", [MONTHLY]: "20" });
    const rowA = await settingsRow(a.id);

    const browserB = new Browser();
    await browserB.signIn(b.email);
    await browserB.save({ [ENABLED]: true, [PER_ORDER]: "700", [MONTHLY]: "900" }, { user_id: a.id, userId: a.id, id: a.id });
    expect(await settingsRow(a.id)).toEqual(rowA);
    expect(await settingsRow(b.id)).toMatchObject({ orders_enabled: true, per_order_limit_cents: 70_000, monthly_limit_cents: 90_000 });
    // B's page shows B's settings only.
    expect(formState((await browserB.get("/account/agents")).text)).toMatchObject({ perOrder: "700", monthly: "900" });
    expect(formState((await browserA.get("/account/agents")).text)).toMatchObject({ perOrder: "10", monthly: "20" });
  });
});

describe("no agent can change the holder's agent settings (decisions.md: only the holder, signed in)", () => {
  it("the settings form takes no access token, and no buyer API route or agent MCP tool takes settings", async () => {
    const { id, email } = await holder("token-limits");
    const browser = new Browser();
    await browser.signIn(email);
    await browser.save({ [ENABLED]: true, [PER_ORDER]: "20", [MONTHLY]: "100" });
    const before = await settingsRow(id);
    const fields = { orders_enabled: "on", per_order_limit: "100000", monthly_limit: "1000000" };
    const scopes = ["profile:read", "cart:read", "cart:write", "orders:read", "returns:read", "returns:write", "checkout"];

    for (const resource of ["buyer_api", "agent_mcp"] as const) {
      const { token } = await mintAccessToken(app.pool, { userId: id, scopes, resource, baseUrl: app.baseUrl });
      // With the token alone (no session cookie), as a same-origin form post: sent to sign in.
      const res = await fetch(new URL("/account/agents/settings", app.baseUrl), {
        method: "POST",
        body: new URLSearchParams(fields).toString(),
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/x-www-form-urlencoded",
          "Sec-Fetch-Site": "same-origin",
          Origin: app.baseUrl,
          "X-Forwarded-For": "10.9.9.9",
        },
        redirect: "manual",
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/signin\?next=/);
      expect(await settingsRow(id)).toEqual(before);

      if (resource === "buyer_api") {
        // Nothing under the buyer API answers for settings or limits.
        for (const path of ["/settings", "/agent-settings", "/me/settings", "/limits", "/me"]) {
          for (const method of ["POST", "PATCH", "PUT"]) {
            const write = await fetch(new URL(`/api/v1/buyer${path}`, app.baseUrl), {
              method,
              body: JSON.stringify({ orders_enabled: true, per_order_limit_cents: 10_000_000, monthly_limit_cents: 100_000_000 }),
              headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "X-Forwarded-For": "10.9.9.8" },
            });
            expect([404, 405], `${method} ${path}`).toContain(write.status);
          }
        }
      } else {
        // The agent MCP server lists no tool that touches settings.
        const list = await fetch(new URL("/api/agent/mcp", app.baseUrl), {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "X-Forwarded-For": "10.9.9.7" },
        });
        expect(list.status).toBe(200);
        const tools = await fetch(new URL("/api/agent/mcp", app.baseUrl), {
          method: "POST",
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "Mcp-Protocol-Version": "2025-11-25",
            "X-Forwarded-For": "10.9.9.7",
          },
        });
        const text = await tools.text();
        const body = JSON.parse(text.startsWith("{") ? text : text.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
        const names: string[] = body.result.tools.map((t: { name: string }) => t.name);
        expect(names).toContain("checkout");
        expect(names.filter((n) => /setting|limit/i.test(n))).toEqual([]);
      }
    }
    expect(await settingsRow(id)).toEqual(before);
  });
});
