/**
 * The UCP conformance port's harness (tests/integration/ucp-conformance/): an app of its own, the
 * suite's fixtures made from this marketplace's catalog (an item, a sold-out item, an item that
 * does not exist), its helpers (create, make fulfillment ready, complete), and the check every
 * answer gets: it validates against the pinned @ucp-js/sdk schemas and loses no field doing so
 * (`orders`, our multi-order extension, aside).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { expect } from "vitest";
import { createHolder } from "./buyer";
import { api, type ApiResponse } from "./http";
import { mintAccessToken } from "./oauth-tokens";
import { storeIdOf, startIsolatedApp, type IsolatedApp } from "./seller";

// The package's ESM build imports its own files without extensions, which Node's loader refuses:
// its CommonJS build is the one that loads.
const { CheckoutWithFulfillmentResponseSchema, OrderSchema, UcpDiscoveryProfileSchema } = createRequire(import.meta.url)("@ucp-js/sdk") as typeof import("@ucp-js/sdk");

export const UCP_VERSION = "2026-01-11";
export const PLATFORM_PROFILE = "https://platform.example/profiles/shopping-agent.json";
export const GOOD_CARD = "4242424242424242";
export const DECLINED_CARD = "4000000000000002";

/** Fields this business adds to UCP's objects on purpose (documented in docs/agents.md). */
const EXTENSIONS = new Set(["orders"]);

/** Why the suite's tests of order writes do not apply (invalid_input_test, order_test). */
export const NO_ORDER_WRITES =
  "not applicable: UCP 2026-01-11 defines no way for a platform to change an order (orders flow from the business to the platform); the suite's PUT /orders/{id} is its sample server's own";

export type UcpAnswer<T = any> = ApiResponse<T>;

export interface Fixtures {
  /** An in-stock item of one store (ships free), its price and title. */
  item: { id: string; price: number; title: string };
  /** Items of two more stores. */
  second: { id: string; price: number };
  third: { id: string; price: number };
  outOfStock: { id: string };
  nonExistent: { id: string };
}

export class UcpHarness {
  private constructor(
    readonly app: IsolatedApp,
    readonly fixtures: Fixtures,
    /** The platform's profile URL every request names in UCP-Agent. */
    readonly platformProfile: string,
  ) {}

  static async start(label: string, env: Record<string, string> = {}, platformProfile = PLATFORM_PROFILE): Promise<UcpHarness> {
    const app = await startIsolatedApp(label, env);
    const product = (await app.pool.query(`SELECT id, title FROM products WHERE publicly_listed ORDER BY slug LIMIT 1`)).rows[0];
    const listing = async (store: string, price: number, quantity: number) =>
      (
        await app.pool.query(
          `INSERT INTO listings (store_id, product_id, sku, condition, price_cents, list_price_cents, quantity, allow_backorder, status, published_at)
           VALUES ($1, $2, $3, 'new', $4, $4, $5, false, 'active', now()) RETURNING id`,
          [await storeIdOf(app.pool, store), product.id, `UCP-${randomBytes(4).toString("hex")}`, price, quantity],
        )
      ).rows[0].id as string;
    const fixtures: Fixtures = {
      item: { id: await listing("fixture-store-a", 3500, 1000), price: 3500, title: product.title },
      second: { id: await listing("fixture-store-b", 1250, 1000), price: 1250 },
      third: { id: await listing("harbor-electronics", 990, 1000), price: 990 },
      outOfStock: { id: await listing("fixture-store-a", 1500, 0) },
      nonExistent: { id: randomUUID() },
    };
    return new UcpHarness(app, fixtures, platformProfile);
  }

  stop() {
    return this.app.stop();
  }

  /** An account holder (a saved default address, 5 Elm Road) whose platform holds a UCP token for them. */
  async linkedHolder(agent: Record<string, string> = {}) {
    const holder = await createHolder(this.app.pool, "ucp-known");
    const { token } = await mintAccessToken(this.app.pool, { userId: holder.id, scopes: ["checkout"], resource: "ucp", baseUrl: this.app.baseUrl });
    return { ...holder, headers: () => this.headers({ Authorization: `Bearer ${token}`, ...agent }) };
  }

  get endpoint(): string {
    return `${this.app.baseUrl}/api/ucp`;
  }

  /** The suite's headers: UCP-Agent, a request signature, a fresh idempotency key and request id. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      "UCP-Agent": `profile="${this.platformProfile}"`,
      "Request-Signature": "test",
      "Idempotency-Key": randomUUID(),
      "Request-Id": randomUUID(),
      "Content-Type": "application/json",
      ...extra,
    };
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = this.headers()): Promise<UcpAnswer<T>> {
    const url = path.startsWith("http") ? path : path.startsWith("/.well-known") ? `${this.app.baseUrl}${path}` : `${this.endpoint}${path}`;
    return api<T>(url, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  }

  /** The suite's create payload: one line of the item, a US destination and the standard option. */
  createPayload(options: { quantity?: number; itemId?: string; currency?: string; buyer?: Record<string, unknown>; fulfillment?: boolean; headers?: Record<string, string> } = {}) {
    return {
      id: randomUUID(), // the suite sends one; the business mints its own
      line_items: [{ item: { id: options.itemId ?? this.fixtures.item.id, title: "Wrong Title" }, quantity: options.quantity ?? 1 }],
      currency: options.currency ?? "USD",
      buyer: options.buyer ?? { email: `buyer-${randomBytes(4).toString("hex")}@example.com`, first_name: "Ada", last_name: "Lovelace" },
      payment: { instruments: [], handlers: [{ id: "google_pay", name: "google.pay", version: UCP_VERSION, spec: "https://example.com/spec", config_schema: "https://example.com/schema", instrument_schemas: [], config: {} }] },
      ...(options.fulfillment === false
        ? {}
        : {
            fulfillment: {
              methods: [{ type: "shipping", destinations: [{ id: "dest_1", ...ADDRESS }], selected_destination_id: "dest_1", groups: [{ selected_option_id: "standard" }] }],
            },
          }),
    };
  }

  /** Creates a checkout (201) and, unless told not to, makes its fulfillment ready. */
  async createCheckout(options: Parameters<UcpHarness["createPayload"]>[0] = {}): Promise<any> {
    const payload = this.createPayload(options);
    // A linked holder's checkout carries the account's own e-mail: no buyer is sent.
    if (options.headers?.Authorization) delete (payload as { buyer?: unknown }).buyer;
    const created = await this.request("POST", "/checkout-sessions", payload, options.headers);
    expect(created.status, created.text).toBe(201);
    expectCheckout(created.json);
    return created.json;
  }

  /** The update body the suite's helper sends: the checkout's lines again, with what changes. */
  updatePayload(checkout: any, changes: Record<string, unknown> = {}) {
    return {
      id: checkout.id,
      currency: checkout.currency,
      line_items: checkout.line_items.map((li: any) => ({ id: li.id, item: { id: li.item.id, title: li.item.title }, quantity: li.quantity })),
      payment: { selected_instrument_id: checkout.payment.selected_instrument_id, instruments: checkout.payment.instruments ?? [] },
      ...changes,
    };
  }

  async update(checkout: any, changes: Record<string, unknown> = {}, expected = 200, headers?: Record<string, string>): Promise<any> {
    const res = await this.request("PUT", `/checkout-sessions/${checkout.id}`, this.updatePayload(checkout, changes), headers);
    expect(res.status, res.text).toBe(expected);
    if (expected === 200) expectCheckout(res.json);
    return res.json;
  }

  async get(id: string): Promise<any> {
    const res = await this.request("GET", `/checkout-sessions/${id}`);
    expect(res.status, res.text).toBe(200);
    expectCheckout(res.json);
    return res.json;
  }

  /** A complete request paying with `number` as a card credential (or a token). */
  paymentPayload(number = GOOD_CARD, credential: "card" | "token" = "card", extra: Record<string, unknown> = {}) {
    return {
      payment_data: {
        id: "instr_1",
        handler_id: "test_card",
        type: "card",
        brand: "visa",
        last_digits: number.slice(-4),
        credential: credential === "card" ? { type: "card", card_number_type: "fpan", number, expiry_month: 12, expiry_year: 2030, cvc: "123", name: "Ada Lovelace" } : { type: "token", token: number },
        billing_address: ADDRESS,
      },
      risk_signals: {},
      ...extra,
    };
  }

  async complete(id: string, payload: unknown = this.paymentPayload()): Promise<any> {
    const res = await this.request("POST", `/checkout-sessions/${id}/complete`, payload);
    expect(res.status, res.text).toBe(200);
    expectCheckout(res.json);
    return res.json;
  }

  /** Creates and completes a checkout; its order's id. */
  async completedOrder(): Promise<{ checkout: any; orderId: string }> {
    const checkout = await this.complete((await this.createCheckout()).id);
    return { checkout, orderId: checkout.order.id };
  }

  async order(id: string): Promise<any> {
    const res = await this.request("GET", `/orders/${id}`);
    expect(res.status, res.text).toBe(200);
    expectValid(OrderSchema, res.json, "order");
    return res.json;
  }
}

export const ADDRESS = {
  full_name: "Ada Lovelace",
  street_address: "123 Main St",
  address_locality: "Springfield",
  address_region: "IL",
  postal_code: "62704",
  address_country: "US",
};

/** The amount of a `totals` entry of `type`. */
export function total(totals: Array<{ type: string; amount: number }>, type: string): number | undefined {
  return totals.find((t) => t.type === type)?.amount;
}

interface SafeParser {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { message: string } };
}

/** `value` validates against `schema` and keeps every field (our documented extensions aside). */
export function expectValid(schema: SafeParser, value: unknown, what: string): void {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what} does not validate against @ucp-js/sdk: ${parsed.error.message.slice(0, 1500)}`);
  const lost = lostFields(value, parsed.data, "$");
  expect(lost, `${what}: fields the SDK schema does not know`).toEqual([]);
}

export function expectCheckout(value: unknown): void {
  expectValid(CheckoutWithFulfillmentResponseSchema, value, "checkout");
}

/**
 * The schema of an order webhook's body (rest.openapi.json `order_event_webhook`): the order with
 * `event_id` and `created_time` (strings; the SDK's own zod builds it).
 */
export function orderEventSchema(): SafeParser {
  const text = OrderSchema.shape.id;
  return OrderSchema.extend({ event_id: text, created_time: text });
}

export function expectProfile(value: unknown): void {
  expectValid(UcpDiscoveryProfileSchema, value, "business profile");
}

/** Paths present in `original` that parsing dropped. */
function lostFields(original: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(original)) return original.flatMap((v, i) => lostFields(v, (parsed as unknown[])?.[i], `${path}[${i}]`));
  if (!original || typeof original !== "object" || parsed instanceof Date) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(original)) {
    if (path === "$" && EXTENSIONS.has(key)) continue;
    if (!parsed || typeof parsed !== "object" || !(key in parsed)) out.push(`${path}.${key}`);
    else out.push(...lostFields(value, (parsed as Record<string, unknown>)[key], `${path}.${key}`));
  }
  return out;
}

/** An error answer of UCP's shape: exactly status, code, detail and messages. */
export function expectUcpError(res: UcpAnswer, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.json).sort()).toEqual(["code", "detail", "messages", "status"]);
  expect(res.json.status).toBe("error");
  expect(typeof res.json.detail).toBe("string");
  expect(res.json.messages.length).toBeGreaterThan(0);
  for (const m of res.json.messages) {
    expect(m.type).toBe("error");
    expect(["recoverable", "requires_buyer_input", "requires_buyer_review"]).toContain(m.severity);
    expect(typeof m.content).toBe("string");
  }
  if (code) expect(res.json.code).toBe(code);
}
