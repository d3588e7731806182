/**
 * Refusals every MCP client can read (issue: "The MCP servers in every client"). Each tool's
 * output schema admits exactly the error codes that tool can answer, and clients that check a
 * tool error's structured content against that schema (the 1.x SDK does, after tools/list) must
 * read every refusal as its envelope, never as `-32602 Structured content does not match`.
 *
 * The matrix: for each client (SDK 2.x negotiating 2026-07-28, SDK 2.x with initialize, SDK 1.x),
 * connected to each server and always listing the tools first, every refusal code of every tool
 * is provoked and its envelope read. Then:
 * - the codes provoked per tool are exactly the codes its advertised schema admits (besides the
 *   500 and 503 any call may answer), so a code the schema lists but no test provokes, or one a
 *   tool answers but its schema leaves out, fails;
 * - each envelope is refused by the 1.x SDK's own validator once its code is taken out of the
 *   advertised schema: the matrix would fail if a tool's schema lost that code.
 *
 * The three refusals the holder can lift (agent orders off, the per-order and the monthly limit)
 * are an envelope for the 2026-07-28 client, which declares no URL elicitation here; a 2025-11-25
 * client is asked for the holder's approval instead (the error -32042 with the approval page,
 * its message naming the refusal's code: tests/integration/agent-approvals.test.ts has the rest).
 *
 * It flips the marketplace's agentic checkout switch, so it runs on an app and database of its own.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_SCOPES, allowAgentOrders, createHolder, createListing, setMarketplaceAgentCheckout, token } from "../helpers/buyer";
import { expectExactKeys } from "../helpers/http";
import { CLIENTS, MCP_PATH, type McpSession } from "../helpers/mcp";
import { createTestOrder } from "../helpers/orders";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";
import { EMBEDDED } from "../setup/app";

const AGENT_MCP = "/api/agent/mcp";
/** Any call may answer these; no request provokes them on purpose. */
const ANY_CALL = ["internal_error", "service_unavailable"];
/** Refusals a 2025-11-25 client gets as a URL elicitation (-32042) for the holder's approval (lib/mcp/elicitation.ts). */
const APPROVABLE = new Set(["agentic_purchasing_off", "per_order_limit_exceeded", "monthly_limit_exceeded"]);
/**
 * Embedded, one database session serves every request, so a key's advisory lock is never seen
 * held by another call: add_to_cart's and request_return's idempotency_key_in_use are provoked
 * against PostgreSQL only (the PostgreSQL-mode run).
 */
const POSTGRES_ONLY = EMBEDDED
  ? new Set(["agent add_to_cart idempotency_key_in_use", "agent view_add_to_cart idempotency_key_in_use", "agent request_return idempotency_key_in_use"])
  : new Set<string>();

type Server = "public" | "agent";
/** Whose token an agent-server case uses. */
type HolderKey = "ready" | "keys" | "fullCart" | "ordersOff" | "perOrder" | "monthly" | "noAddress" | "noCard" | "declined" | "marketplaceOff";

interface Case {
  tool: string;
  code: string;
  /** The arguments; may prepare the database first. `owner` is the idempotency owner of the session's grant. */
  args: (owner: string) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Undoes what `args` prepared. */
  after?: () => Promise<void>;
}

let app: IsolatedApp;
const holders = {} as Record<HolderKey, string>;
const fixtures = { listing: "", lowStock: "", inactive: "", placedOrder: "", placedLine: "" };

const PUBLIC_CASES: Case[] = [
  { tool: "search_products", code: "parameter_invalid", args: () => ({ page: "first" }) },
  { tool: "get_product", code: "parameter_invalid", args: () => ({ slug: 42 }) },
  { tool: "get_product", code: "parameter_missing", args: () => ({}) },
  { tool: "get_product", code: "product_not_found", args: () => ({ slug: `no-such-product-${randomBytes(4).toString("hex")}` }) },
  { tool: "get_categories", code: "parameter_invalid", args: () => ({ depth: 2 }) },
  { tool: "create_cart_link", code: "parameter_invalid", args: () => ({ items: "all of them" }) },
  { tool: "create_cart_link", code: "parameter_missing", args: () => ({}) },
  { tool: "create_cart_link", code: "no_purchasable_lines", args: () => ({ items: [{ listing_id: fixtures.inactive, quantity: 1 }] }) },
  { tool: "search_help", code: "parameter_invalid", args: () => ({ q: 7 }) },
  { tool: "get_help_article", code: "parameter_invalid", args: () => ({ slug: ["shipping"] }) },
  { tool: "get_help_article", code: "parameter_missing", args: () => ({}) },
  { tool: "get_help_article", code: "help_article_not_found", args: () => ({ slug: "no-such-article" }) },
  { tool: "get_connection_guide", code: "parameter_invalid", args: () => ({ client: "cursor" }) },
];

const checkoutLine = () => ({ lines: [{ listing_id: fixtures.listing, quantity: 1 }] });

const HOLDER_CASES: Partial<Record<HolderKey, Case[]>> = {
  ready: [
    { tool: "get_profile", code: "parameter_invalid", args: () => ({ fields: "email" }) },
    { tool: "get_cart", code: "parameter_invalid", args: () => ({ cart_id: "mine" }) },
    { tool: "add_to_cart", code: "parameter_invalid", args: () => ({ listing_id: fixtures.listing, quantity: 0 }) },
    { tool: "add_to_cart", code: "parameter_missing", args: () => ({ quantity: 1 }) },
    { tool: "add_to_cart", code: "insufficient_stock", args: () => ({ listing_id: fixtures.lowStock, quantity: 5 }) },
    { tool: "add_to_cart", code: "listing_unavailable", args: () => ({ listing_id: fixtures.inactive, quantity: 1 }) },
    { tool: "update_cart_line", code: "parameter_invalid", args: () => ({ listing_id: fixtures.listing, quantity: 100 }) },
    { tool: "update_cart_line", code: "parameter_missing", args: () => ({ listing_id: fixtures.listing }) },
    { tool: "update_cart_line", code: "cart_line_not_found", args: () => ({ listing_id: fixtures.listing, quantity: 2 }) },
    { tool: "remove_cart_line", code: "parameter_invalid", args: () => ({ listing_id: fixtures.listing, all: true }) },
    { tool: "remove_cart_line", code: "parameter_missing", args: () => ({}) },
    { tool: "remove_cart_line", code: "cart_line_not_found", args: () => ({ listing_id: fixtures.listing }) },
    { tool: "checkout", code: "parameter_invalid", args: () => ({ lines: [] }) },
    { tool: "checkout", code: "parameter_missing", args: () => ({ lines: [{ quantity: 1 }] }) },
    { tool: "checkout", code: "cart_empty", args: () => ({}) },
    { tool: "checkout", code: "insufficient_stock", args: () => ({ lines: [{ listing_id: fixtures.lowStock, quantity: 5 }] }) },
    { tool: "checkout", code: "listing_unavailable", args: () => ({ lines: [{ listing_id: fixtures.inactive, quantity: 1 }] }) },
    { tool: "checkout", code: "total_changed", args: () => ({ ...checkoutLine(), expected_total_cents: 1 }) },
    { tool: "list_orders", code: "parameter_invalid", args: () => ({ limit: 0 }) },
    { tool: "get_order", code: "parameter_invalid", args: () => ({ order_id: 10042 }) },
    { tool: "get_order", code: "parameter_missing", args: () => ({}) },
    { tool: "get_order", code: "order_not_found", args: () => ({ order_id: randomUUID() }) },
    { tool: "request_return", code: "parameter_invalid", args: () => ({ order_id: fixtures.placedOrder, lines: [] }) },
    { tool: "request_return", code: "parameter_missing", args: () => ({ order_id: fixtures.placedOrder }) },
    {
      tool: "request_return",
      code: "order_not_found",
      args: () => ({ order_id: randomUUID(), lines: [{ order_line_id: randomUUID(), quantity: 1, reason: "damaged" }] }),
    },
    {
      tool: "request_return",
      code: "order_not_returnable",
      args: () => ({ order_id: fixtures.placedOrder, lines: [{ order_line_id: fixtures.placedLine, quantity: 1, reason: "damaged" }] }),
    },
    { tool: "list_returns", code: "parameter_invalid", args: () => ({ cursor: 5, limit: "many" }) },
    // The views' app-only tools (MCP Apps).
    { tool: "view_add_to_cart", code: "parameter_invalid", args: () => ({ listing_id: fixtures.listing, quantity: 0 }) },
    { tool: "view_add_to_cart", code: "parameter_missing", args: () => ({ quantity: 1 }) },
    { tool: "view_add_to_cart", code: "insufficient_stock", args: () => ({ listing_id: fixtures.lowStock, quantity: 5 }) },
    { tool: "view_add_to_cart", code: "listing_unavailable", args: () => ({ listing_id: fixtures.inactive, quantity: 1 }) },
    { tool: "view_set_quantity", code: "parameter_invalid", args: () => ({ listing_id: fixtures.listing, quantity: -1 }) },
    { tool: "view_set_quantity", code: "parameter_missing", args: () => ({ listing_id: fixtures.listing }) },
    { tool: "view_set_quantity", code: "cart_line_not_found", args: () => ({ listing_id: fixtures.listing, quantity: 0 }) },
    { tool: "view_checkout_summary", code: "parameter_invalid", args: () => ({ store: "all" }) },
  ],
  keys: (["add_to_cart", "view_add_to_cart", "checkout", "request_return"] as const).flatMap((tool): Case[] => [
    { tool, code: "idempotency_key_reused", args: (owner) => keyedElsewhere(owner, tool) },
    ...(EMBEDDED && tool !== "checkout" ? [] : [{ tool, code: "idempotency_key_in_use", args: (owner: string) => keyRunning(owner, tool), after: releaseKey }]),
  ]),
  fullCart: ["add_to_cart", "view_add_to_cart"].map((tool) => ({ tool, code: "cart_full", args: () => ({ listing_id: fixtures.listing, quantity: 1 }) })),
  ordersOff: [{ tool: "checkout", code: "agentic_purchasing_off", args: checkoutLine }],
  perOrder: [{ tool: "checkout", code: "per_order_limit_exceeded", args: checkoutLine }],
  monthly: [{ tool: "checkout", code: "monthly_limit_exceeded", args: checkoutLine }],
  noAddress: [{ tool: "checkout", code: "shipping_address_missing", args: checkoutLine }],
  noCard: [{ tool: "checkout", code: "payment_method_missing", args: checkoutLine }],
  declined: [{ tool: "checkout", code: "payment_declined", args: checkoutLine }],
  marketplaceOff: [{ tool: "checkout", code: "agentic_checkout_disabled", args: checkoutLine }],
};

/** Each keyed tool's arguments (but the key): valid, so that only the key can refuse them. */
const keyedArgs = (tool: string): Record<string, unknown> =>
  tool === "add_to_cart" || tool === "view_add_to_cart"
    ? { listing_id: fixtures.listing, quantity: 1 }
    : tool === "checkout"
      ? checkoutLine()
      : { order_id: fixtures.placedOrder, lines: [{ order_line_id: fixtures.placedLine, quantity: 1, reason: "damaged" }] };

/** The operation a tool's keys are kept under: the view's add to cart is add_to_cart's (one key, one line added, whichever of the two sent it). */
const keyedAs = (tool: string) => (tool === "view_add_to_cart" ? "add_to_cart" : tool);

async function keptKey(owner: string, tool: string, key: string, requestHash: Buffer, status: number) {
  await query(
    `INSERT INTO idempotency_keys (owner, key, method, path, request_hash, status, response, expires_at) VALUES ($1, $2, 'tools/call', $3, $4, $5, '{}', now() + interval '1 day')`,
    [owner, key, keyedAs(tool), requestHash, status],
  );
}

/** A key the grant already used for other arguments. */
async function keyedElsewhere(owner: string, tool: string) {
  const key = randomUUID();
  await keptKey(owner, tool, key, randomBytes(32), 200);
  return { ...keyedArgs(tool), idempotency_key: key };
}

/** What lib/http/policies/idempotency.ts hashes of a request: method, path and body with sorted keys. */
function requestHash(tool: string, body: unknown): Buffer {
  const canonical = (value: unknown): string =>
    Array.isArray(value)
      ? `[${value.map(canonical).join(",")}]`
      : value && typeof value === "object"
        ? `{${Object.keys(value)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
            .join(",")}}`
        : JSON.stringify(value);
  return createHash("sha256").update(`tools/call\n${keyedAs(tool)}\n${canonical(body)}`).digest();
}

let keyHolder: import("pg").PoolClient | undefined;

/**
 * A key whose first call still runs: checkout claims its key (a row in its running state), the
 * other writes hold the key's advisory lock in their transaction; each is made here as the
 * first call would leave it.
 */
async function keyRunning(owner: string, tool: string) {
  const key = randomUUID();
  const args = keyedArgs(tool);
  if (tool === "checkout") {
    await keptKey(owner, tool, key, requestHash(tool, args), 0);
  } else {
    keyHolder = await app.pool.connect();
    await keyHolder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [`idempotency\n${owner}\n${key}`]);
  }
  return { ...args, idempotency_key: key };
}

async function releaseKey() {
  if (!keyHolder) return;
  await keyHolder.query(`SELECT pg_advisory_unlock_all()`);
  keyHolder.release();
  keyHolder = undefined;
}

/** Codes provoked, per server and tool. */
const provoked = new Map<string, Set<string>>();
/** Each server's tools/list as a client saw it (the last one). */
const advertised: Record<Server, Map<string, { outputSchema?: Record<string, unknown> }>> = { public: new Map(), agent: new Map() };
const validator = new AjvJsonSchemaValidator();

async function query(sql: string, params: unknown[] = []) {
  return (await app.pool.query(sql, params)).rows;
}

let ordersBefore = 0;
const orderCount = async () => (await query(`SELECT count(*)::int AS n FROM orders`))[0].n as number;

/** The advertised schema with `code` taken out of every `code` enum. */
function withoutCode(schema: unknown, code: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutCode(item, code));
  if (schema === null || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key === "code" && value && typeof value === "object" && Array.isArray((value as { enum?: unknown }).enum)) {
        return [key, { ...value, enum: ((value as { enum: string[] }).enum).filter((c) => c !== code) }];
      }
      return [key, withoutCode(value, code)];
    }),
  );
}

/** Every `code` enum value of an advertised output schema. */
function codesOf(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) codesOf(item, into);
  else if (schema !== null && typeof schema === "object") {
    for (const [key, value] of Object.entries(schema)) {
      const values = key === "code" && value && typeof value === "object" ? (value as { enum?: unknown }).enum : undefined;
      if (Array.isArray(values)) for (const c of values) into.add(String(c));
      else codesOf(value, into);
    }
  }
  return into;
}

/** A session, and the idempotency owner of its grant (none on the public server). */
async function connect(kind: (typeof CLIENTS)[number], server: Server, holder?: HolderKey): Promise<{ session: McpSession; owner: string }> {
  if (server === "public") return { session: await kind.connect({ url: app.baseUrl + MCP_PATH }), owner: "" };
  const minted = await token(app, holders[holder!], ALL_SCOPES, { resource: "agent_mcp" });
  return { session: await kind.connect({ url: app.baseUrl + AGENT_MCP, accessToken: minted.token }), owner: `oauth_grant:${minted.grantId}` };
}

/** Lists the tools (as real clients do first), then provokes each case and reads its envelope. */
async function runCases(kind: (typeof CLIENTS)[number], server: Server, cases: Case[], holder?: HolderKey) {
  const { session, owner } = await connect(kind, server, holder);
  try {
    const { tools } = await session.listTools();
    for (const tool of tools) advertised[server].set(tool.name, tool);
    for (const c of cases) {
      const label = `${kind.label} ${server} ${c.tool} → ${c.code}`;
      if (kind.era === "2025" && APPROVABLE.has(c.code)) {
        expect(session.protocolVersion, label).toBe("2025-11-25");
        const asked = await session.callTool(c.tool, await c.args(owner)).then(
          (result) => ({ code: 0, message: JSON.stringify(result) }),
          (err: { code: number; message: string }) => err,
        );
        expect(asked.code, `${label}: ${asked.message}`).toBe(-32042);
        expect(asked.message, label).toContain(`${c.code}:`);
        continue;
      }
      let result;
      try {
        result = await session.callTool(c.tool, await c.args(owner));
      } finally {
        await c.after?.();
      }
      expect(result.isError, label).toBe(true);
      const envelope = result.structuredContent;
      expect(envelope?.error?.code, `${label}: ${JSON.stringify(envelope)}`).toBe(c.code);
      expect(JSON.parse(result.content[0]!.text!), label).toEqual(envelope);
      expectExactKeys(envelope, ["error"]);
      for (const key of ["type", "code", "message", "request_id"]) expect(typeof envelope.error[key], `${label}: error.${key}`).toBe("string");

      const schema = tools.find((t: { name: string }) => t.name === c.tool)?.outputSchema;
      expect(schema, `${label}: an output schema`).toBeDefined();
      expect(validator.getValidator(schema)(envelope).valid, label).toBe(true);
      expect(validator.getValidator(withoutCode(schema, c.code) as never)(envelope).valid, `${label}: refused once the schema lacks ${c.code}`).toBe(false);

      const key = `${server} ${c.tool}`;
      provoked.set(key, (provoked.get(key) ?? new Set()).add(c.code));
    }
  } finally {
    await session.close();
  }
}

beforeAll(async () => {
  app = await startIsolatedApp("mcp-refusals");
  fixtures.listing = await createListing(app.pool, 1500);
  fixtures.lowStock = await createListing(app.pool, 1000, 1);
  fixtures.inactive = await createListing(app.pool, 1000, 50, "inactive");
  await setMarketplaceAgentCheckout(app.pool, true);

  for (const key of ["ready", "keys", "fullCart", "marketplaceOff"] as const) {
    holders[key] = (await createHolder(app.pool, key)).id;
    await allowAgentOrders(app.pool, holders[key]);
  }
  holders.ordersOff = (await createHolder(app.pool, "orders-off")).id;
  holders.perOrder = (await createHolder(app.pool, "per-order")).id;
  await allowAgentOrders(app.pool, holders.perOrder, 1000, 50_000_000);
  // 1,400 of a 2,000 monthly limit left after an agent order of 600 this month: a 1,500 order is over it.
  holders.monthly = (await createHolder(app.pool, "monthly")).id;
  await allowAgentOrders(app.pool, holders.monthly, 2000, 2000);
  const [monthly] = await query(`SELECT email FROM users WHERE id = $1`, [holders.monthly]);
  await createTestOrder(app.pool, { userId: holders.monthly, email: monthly.email, placedVia: "agent", parts: [{ store: "fixture-store-a", lines: [{ quantity: 1, unitPriceCents: 600 }] }] });
  for (const key of ["noAddress", "noCard", "declined"] as const) {
    holders[key] = (await createHolder(app.pool, key, false)).id;
    await allowAgentOrders(app.pool, holders[key]);
  }
  const address = `INSERT INTO addresses (user_id, full_name, line1, city, state, postal_code, country, is_default) VALUES ($1, 'Holder', '5 Elm Road', 'Portland', 'OR', '97201', 'US', true)`;
  await query(address, [holders.noCard]);
  await query(address, [holders.declined]);
  // A saved card ending in 0002: the test provider declines it.
  await query(`INSERT INTO payment_methods (user_id, provider, provider_ref, brand, last4, is_default) VALUES ($1, 'test', 'card_declined', 'Visa', '0002', true)`, [
    holders.declined,
  ]);

  // A cart of 100 different offers (the most it may hold).
  const fill = await Promise.all(Array.from({ length: 100 }, () => createListing(app.pool, 100)));
  const [cart] = await query(`INSERT INTO carts (user_id) VALUES ($1) RETURNING id`, [holders.fullCart]);
  await query(`INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents) SELECT $1, unnest($2::uuid[]), 1, 100`, [cart.id, fill]);

  const [holderRow] = await query(`SELECT email FROM users WHERE id = $1`, [holders.ready]);
  const order = await createTestOrder(app.pool, { userId: holders.ready, email: holderRow.email, parts: [{ store: "fixture-store-a", lines: [{ quantity: 1 }] }] });
  fixtures.placedOrder = order.number;
  fixtures.placedLine = order.lines[0]!.id;
  ordersBefore = await orderCount();
});

afterAll(async () => {
  await app?.stop();
});

describe.each(CLIENTS)("$label, after tools/list", (kind) => {
  it.each(["public", "agent"] as const)("reads every refusal of every catalog tool on the %s server", async (server) => {
    await runCases(kind, server, PUBLIC_CASES, server === "agent" ? "ready" : undefined);
  });

  it("reads every refusal of every holder tool on the agent server", async () => {
    for (const [holder, cases] of Object.entries(HOLDER_CASES) as [HolderKey, Case[]][]) {
      if (holder === "marketplaceOff") await setMarketplaceAgentCheckout(app.pool, false);
      try {
        await runCases(kind, "agent", cases, holder);
      } finally {
        if (holder === "marketplaceOff") await setMarketplaceAgentCheckout(app.pool, true);
      }
    }
  });
});

describe("each tool's schema admits exactly the refusals it answers", () => {
  it.each(["public", "agent"] as const)("%s server: the codes provoked above are the codes advertised (besides 500 and 503)", (server) => {
    expect(advertised[server].size).toBeGreaterThan(0);
    for (const [name, tool] of advertised[server]) {
      const codes = [...codesOf(tool.outputSchema)].filter((code) => !ANY_CALL.includes(code) && !POSTGRES_ONLY.has(`${server} ${name} ${code}`)).sort();
      expect(codes, `${server} ${name}`).toEqual([...(provoked.get(`${server} ${name}`) ?? [])].sort());
      for (const code of ANY_CALL) expect(codesOf(tool.outputSchema).has(code), `${server} ${name} admits ${code}`).toBe(true);
    }
  });

  it("nothing refused above was placed, and nothing was charged and refunded", async () => {
    expect(await orderCount()).toBe(ordersBefore);
    expect((await query(`SELECT count(*)::int AS n FROM payment_attempts WHERE outcome = 'refunded'`))[0].n).toBe(0);
  });
});
