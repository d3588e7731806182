/**
 * Helpers for tests of the buyer API and the agent MCP server: account holders ready to check out
 * (a default address and the test card, as `user create --demo-buyer` leaves them), listings to
 * buy, agentic checkout switched on for a holder, and requests with an access token minted as the
 * authorization server stores it (tests/helpers/oauth-tokens.ts).
 */
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { hashPassword } from "@/lib/accounts/password";
import { mintAccessToken, type MintedToken } from "./oauth-tokens";
import { sellerRequest, storeIdOf, type IsolatedApp, type SellerResponse } from "./seller";

export const ALL_SCOPES = [...BUYER_SCOPES];
export const BUYER = "/api/v1/buyer";

export interface Holder {
  id: string;
  email: string;
}

/** An account holder; `ready` gives it a default address and the test card. */
export async function createHolder(pool: pg.Pool, label: string, ready = true): Promise<Holder> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.com`;
  const { rows } = await pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, $2, 'shopper', $3) RETURNING id`, [
    email,
    `Holder ${label}`,
    await hashPassword(`pw-${randomBytes(8).toString("hex")}`),
  ]);
  const id = rows[0].id as string;
  if (ready) {
    await pool.query(
      `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, $2, '5 Elm Road', 'Portland', 'OR', '97201', 'US', true)`,
      [id, `Holder ${label}`],
    );
    await pool.query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'test', 'test_card', 'Test card', '4242', true)`, [id]);
  }
  return { id, email };
}

/** The marketplace's `agentic_checkout` switch. */
export async function setMarketplaceAgentCheckout(pool: pg.Pool, on: boolean) {
  await pool.query(
    `INSERT INTO settings (key, value) VALUES ('agentic_checkout', $1::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()`,
    [JSON.stringify(on)],
  );
}

/** The holder's "Let agents place orders" with generous limits. */
export async function allowAgentOrders(pool: pg.Pool, userId: string, perOrderCents = 5_000_000, monthlyCents = 50_000_000) {
  await pool.query(
    `INSERT INTO agent_settings (user_id, orders_enabled, per_order_limit_cents, monthly_limit_cents) VALUES ($1, true, $2, $3)
     ON CONFLICT (user_id) DO UPDATE SET orders_enabled = true, per_order_limit_cents = $2, monthly_limit_cents = $3`,
    [userId, perOrderCents, monthlyCents],
  );
}

let skuSeq = 0;

/** An active listing of a fixture store on a publicly listed product (no shipping template: ships free). */
export async function createListing(pool: pg.Pool, priceCents: number, quantity = 50, status = "active"): Promise<string> {
  const product = (await pool.query(`SELECT id FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`)).rows[0].id;
  const { rows } = await pool.query(
    `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
     VALUES ($1, $2, $3, 'new', $4, $4, $5, false, $6::listing_status, now()) RETURNING id`,
    [await storeIdOf(pool, "fixture-store-a"), product, `BUY-${++skuSeq}-${randomBytes(3).toString("hex")}`, priceCents, quantity, status],
  );
  return rows[0].id as string;
}

export async function token(app: IsolatedApp, userId: string, scopes: readonly string[], extra: { resource?: "buyer_api" | "agent_mcp"; expiresIn?: number } = {}): Promise<MintedToken> {
  return mintAccessToken(app.pool, { userId, scopes: [...scopes], resource: extra.resource ?? "buyer_api", baseUrl: app.baseUrl, expiresIn: extra.expiresIn });
}

/** A buyer API request (`path` relative to /api/v1/buyer) with the token as Bearer. */
export function buyer<T = any>(
  app: IsolatedApp,
  method: string,
  path: string,
  accessToken: string | undefined,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<SellerResponse<T>> {
  return sellerRequest<T>(app.baseUrl, method, BUYER + path, { key: accessToken, ...options });
}
