/**
 * UCP identity linking: a platform holding an access token of this app's OAuth server for the UCP
 * endpoint checks out for that account holder, held to the holder's agent settings and limits by
 * the same code, and with the same codes, as the agent MCP server.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowAgentOrders, createHolder, setMarketplaceAgentCheckout } from "../helpers/buyer";
import { mintAccessToken } from "../helpers/oauth-tokens";
import { storeIdOf } from "../helpers/seller";
import { expectCheckout, expectUcpError, UcpHarness } from "../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => {
  ucp = await UcpHarness.start("ucp-identity-linking");
  await setMarketplaceAgentCheckout(ucp.app.pool, true);
});
afterAll(() => ucp?.stop());

async function listing(price: number, quantity = 100): Promise<string> {
  const product = (await ucp.app.pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`)).rows[0].id;
  return (
    await ucp.app.pool.query(
      `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
       VALUES ($1, $2, $3, 'new', $4, $4, $5, false, 'active', now()) RETURNING id`,
      [await storeIdOf(ucp.app.pool, "fixture-store-a"), product, `UCPL-${randomBytes(3).toString("hex")}`, price, quantity],
    )
  ).rows[0].id;
}

async function linkedHolder(scopes = ["checkout"], perOrder = 5000, monthly = 10_000) {
  const holder = await createHolder(ucp.app.pool, "ucp-linked");
  await allowAgentOrders(ucp.app.pool, holder.id, perOrder, monthly);
  const { token, grantId } = await mintAccessToken(ucp.app.pool, { userId: holder.id, scopes, resource: "ucp", baseUrl: ucp.app.baseUrl });
  return { ...holder, token, grantId, headers: () => ucp.headers({ Authorization: `Bearer ${token}` }) };
}

/** A linked holder's checkout of `itemId`, shipped to a destination with the standard option. */
async function create(headers: Record<string, string>, itemId: string) {
  const payload = ucp.createPayload({ itemId });
  delete (payload as { buyer?: unknown }).buyer;
  const res = await ucp.request("POST", "/checkout-sessions", payload, headers);
  expect(res.status, res.text).toBe(201);
  expectCheckout(res.json);
  return res.json;
}

const complete = (id: string, headers: Record<string, string>) => ucp.request("POST", `/checkout-sessions/${id}/complete`, ucp.paymentPayload(), headers);

describe("UCP identity linking", () => {
  it("a linked holder's checkout is theirs: their e-mail, an agent order under their grant, unseen by anyone else", async () => {
    const holder = await linkedHolder();
    const checkout = await create(holder.headers(), await listing(2000));
    expect(checkout.buyer.email).toBe(holder.email);
    expect(checkout.status).toBe("ready_for_complete");
    const other = await linkedHolder();
    expectUcpError(await ucp.request("GET", `/checkout-sessions/${checkout.id}`, undefined, other.headers()), 404, "not_found");
    expectUcpError(await ucp.request("GET", `/checkout-sessions/${checkout.id}`), 404, "not_found");
    const res = await complete(checkout.id, holder.headers());
    expect(res.status, res.text).toBe(200);
    const [order] = (await ucp.app.pool.query(`SELECT user_id, placed_via, agent_grant_id FROM orders WHERE checkout_session_id = $1`, [checkout.id])).rows;
    expect(order).toEqual({ user_id: holder.id, placed_via: "agent", agent_grant_id: holder.grantId });
    expectUcpError(await ucp.request("GET", `/orders/${res.json.order.id}`), 404, "not_found");
    expect((await ucp.request("GET", `/orders/${res.json.order.id}`, undefined, holder.headers())).status).toBe(200);
  });

  it("over the per-order limit: the checkout needs the holder (requires_escalation, continue_url); completing is 403 per_order_limit_exceeded", async () => {
    const holder = await linkedHolder();
    const checkout = await create(holder.headers(), await listing(6000));
    expect(checkout.status).toBe("requires_escalation");
    expect(checkout.continue_url).toBe(`${ucp.app.baseUrl}/account/agents`);
    expect(checkout.messages.map((m: any) => [m.code, m.severity])).toEqual([["per_order_limit_exceeded", "requires_buyer_input"]]);
    const res = await complete(checkout.id, holder.headers());
    expectUcpError(res, 403, "per_order_limit_exceeded");
  });

  it("over what is left of the monthly limit: 403 monthly_limit_exceeded, the agent MCP server's code; nothing placed", async () => {
    const holder = await linkedHolder(["checkout"], 5000, 5000);
    const first = await create(holder.headers(), await listing(3000));
    expect((await complete(first.id, holder.headers())).status).toBe(200);
    const second = await create(holder.headers(), await listing(3000));
    expect(second.status).toBe("requires_escalation");
    expectUcpError(await complete(second.id, holder.headers()), 403, "monthly_limit_exceeded");
    const orders = await ucp.app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [holder.id]);
    expect(orders.rows[0].n).toBe(1);
  });

  it("10 concurrent checkouts of one holder never pass the monthly limit together", async () => {
    const holder = await linkedHolder(["checkout"], 3000, 10_000);
    const item = await listing(3000, 100);
    const checkouts = await Promise.all(Array.from({ length: 10 }, () => create(holder.headers(), item)));
    const results = await Promise.all(checkouts.map((c) => complete(c.id, holder.headers())));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 200)) expectUcpError(r, 403, "monthly_limit_exceeded");
    const spent = await ucp.app.pool.query(`SELECT coalesce(sum(total_cents), 0)::int AS n FROM orders WHERE user_id = $1`, [holder.id]);
    expect(spent.rows[0].n).toBe(9000);
  });

  it("a token without `checkout` completes nothing (403 scope_missing); the marketplace switch off is 403 agentic_checkout_disabled", async () => {
    const holder = await linkedHolder(["cart:read"]);
    const checkout = await create(holder.headers(), await listing(1000));
    expectUcpError(await complete(checkout.id, holder.headers()), 403, "scope_missing");
    const allowed = await linkedHolder();
    const other = await create(allowed.headers(), await listing(1000));
    await setMarketplaceAgentCheckout(ucp.app.pool, false);
    try {
      expectUcpError(await complete(other.id, allowed.headers()), 403, "agentic_checkout_disabled");
    } finally {
      await setMarketplaceAgentCheckout(ucp.app.pool, true);
    }
  });

  it("a token that is not one for the UCP endpoint is 401 with the challenge; its metadata names this app's authorization server", async () => {
    const holder = await createHolder(ucp.app.pool, "ucp-wrong-audience");
    const buyerToken = await mintAccessToken(ucp.app.pool, { userId: holder.id, scopes: ["checkout"], resource: "buyer_api", baseUrl: ucp.app.baseUrl });
    for (const auth of [`Bearer ${buyerToken.token}`, "Bearer not-a-token", "Basic abc"]) {
      const res = await ucp.request("POST", "/checkout-sessions", ucp.createPayload(), ucp.headers({ Authorization: auth }));
      expectUcpError(res, 401);
      expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${ucp.app.baseUrl}/.well-known/oauth-protected-resource/api/ucp"`);
    }
    const metadata = await ucp.request("GET", `${ucp.app.baseUrl}/.well-known/oauth-protected-resource/api/ucp`, undefined, {});
    expect(metadata.status).toBe(200);
    expect(metadata.json).toMatchObject({ resource: `${ucp.app.baseUrl}/api/ucp`, authorization_servers: [`${ucp.app.baseUrl}/oauth`] });
  });
});
