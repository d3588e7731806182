/**
 * Spec 4.6 and decisions.md (public MCP tools mirror the public API one to one): the MCP server at
 * /api/mcp/mcp, driven by the official clients over HTTP: @modelcontextprotocol/client 2.x in
 * both protocol eras and the @modelcontextprotocol/sdk 1.x Client. Every tool is listed and
 * called; the catalog tools answer exactly what the API answers for the same input.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { readHelpArticles } from "@/lib/seed/help";
import {
  api,
  baseUrl,
  CARD_KEYS,
  expectExactKeys,
  findInventoryLeak,
  OFFER_KEYS,
  PRODUCT_KEYS,
  qs,
  SEARCH_META_KEYS,
} from "../helpers/http";
import { CLIENTS, type McpSession, type ToolCallResult, withoutRequestId } from "../helpers/mcp";

const TOOL_NAMES = [
  "search_products",
  "get_product",
  "get_categories",
  "create_cart_link",
  "search_help",
  "get_help_article",
  "get_connection_guide",
];
const READ_ONLY = TOOL_NAMES.filter((name) => name !== "create_cart_link");

/** A successful tool result: `{ data, meta }` as structured content, a non-empty text rendering. */
function expectSuccess(result: ToolCallResult) {
  expect(result.isError ?? false, JSON.stringify(result).slice(0, 500)).toBe(false);
  expectExactKeys(result.structuredContent, ["data", "meta"], "structured content");
  expect(result.structuredContent.meta.request_id).toMatch(/^[A-Za-z0-9._-]{8,128}$/);
  expect(result.content[0]?.type).toBe("text");
  expect(result.content[0]?.text?.length).toBeGreaterThan(0);
  return result.structuredContent;
}

/** A tool error: isError, the API's error envelope as structured content and as the text. */
function expectToolError(result: ToolCallResult, e: { type: string; code: string; param?: string; rejected?: boolean }) {
  expect(result.isError, JSON.stringify(result).slice(0, 500)).toBe(true);
  expectExactKeys(result.structuredContent, ["error"], "error envelope");
  const keys = ["type", "code", "message", "request_id"];
  if (e.param !== undefined) keys.push("param");
  if (e.rejected) keys.push("rejected");
  expectExactKeys(result.structuredContent.error, keys, "error object");
  expect(result.structuredContent.error).toMatchObject({ type: e.type, code: e.code, ...(e.param === undefined ? {} : { param: e.param }) });
  expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result.structuredContent.error;
}

/** The envelope without its request id, to compare a tool error with the API's. */
function errorWithoutId(error: Record<string, unknown>) {
  const rest = { ...error };
  delete rest.request_id;
  return rest;
}

describe.each(CLIENTS)("MCP over HTTP with $label", (kind) => {
  let session: McpSession;
  beforeAll(async () => {
    session = await kind.connect();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("negotiates its protocol era and receives the server instructions", () => {
    if (kind.era === "2026-07-28") expect(session.protocolVersion).toBe("2026-07-28");
    else expect(session.protocolVersion).toMatch(/^2025-/);
    expect(session.instructions).toContain("create_cart_link");
    expect(session.instructions).toContain("User-Agent");
    expect(session.instructions).toContain("Retry-After");
  });

  it("lists exactly the seven tools, each with a description, input and output schema", async () => {
    const { tools } = await session.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.description.length, tool.name).toBeGreaterThan(80);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.inputSchema.type, tool.name).toBe("object");
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(READ_ONLY.includes(tool.name));
      // MCP Apps: search_products and get_product link the product cards view; no tool is app-only here.
      const ui = (tool as { _meta?: { ui?: { resourceUri?: string; visibility?: string[] } } })._meta?.ui;
      expect(ui?.resourceUri, tool.name).toBe(["search_products", "get_product"].includes(tool.name) ? "ui://marketplace/products.html" : undefined);
      expect(ui?.visibility, tool.name).toBeUndefined();
    }
    const cartLink = tools.find((t) => t.name === "create_cart_link")!;
    expect(cartLink.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(cartLink.description).toMatch(/for a human|a person/i);
    expect(cartLink.description).toContain("places no order");
    const search = tools.find((t) => t.name === "search_products")!;
    expect(search.description).toContain("page_size");
    // JSON-natural types, generated from the same schema as openapi.json.
    expect(search.inputSchema.properties.page).toMatchObject({ type: "integer", minimum: 1, maximum: 500 });
    expect(search.inputSchema.properties.page_size).toMatchObject({ type: "integer", minimum: 1 });
    expect(search.inputSchema.properties.price_min_cents).toMatchObject({ type: "integer", minimum: 0 });
    expect(search.inputSchema.properties.brand).toMatchObject({ type: "array", items: { type: "string" }, maxItems: 50 });
    expect(search.inputSchema.properties.condition.items.enum).toContain("like_new");
    expect(search.inputSchema.properties.q).toMatchObject({ type: "string", maxLength: 200 });
  });

  it("search_products returns the API's body for the same search, request id included", async () => {
    const result = await session.callTool("search_products", { q: "Quokkaphone", page_size: 5 });
    const body = expectSuccess(result);
    expect(session.responses.at(-1)!.headers.get("x-request-id")).toBe(body.meta.request_id);
    const res = await api(`/search${qs({ q: "Quokkaphone", page_size: 5 })}`);
    expect(res.status).toBe(200);
    expect(withoutRequestId(body)).toEqual(withoutRequestId(res.json));
    expectExactKeys(body.meta, SEARCH_META_KEYS, "search meta");
    for (const card of body.data) expectExactKeys(card, CARD_KEYS, "card");
    expect(body.data.map((c: { slug: string }) => c.slug)).toContain("fixture-mixed-offers");
  });

  it("search_products says in words when the query was corrected or relaxed; the structured content stays the API's body", async () => {
    const corrected = await session.callTool("search_products", { q: "Quokkaphnoe", page_size: 5 });
    const text = (corrected.content as { type: string; text: string }[])[0]!.text;
    expect(text.split("\n")[0]).toBe('Showing results for "quokkaphone" (a misspelt word was corrected).');
    expectExactKeys(expectSuccess(corrected), ["data", "meta"], "body");

    const relaxed = await session.callTool("search_products", { q: "Quokkaphone headphones", page_size: 5 });
    expect((relaxed.content as { text: string }[])[0]!.text).toMatch(/^Not every word of the query matched/);

    const plain = await session.callTool("search_products", { q: "Quokkaphone", page_size: 5 });
    expect((plain.content as { text: string }[])[0]!.text).toMatch(/^2 products match/);
  });

  it("get_product returns the API's body: offers cheapest first, buy box", async () => {
    const body = expectSuccess(await session.callTool("get_product", { slug: "fixture-mixed-offers" }));
    const res = await api("/products/fixture-mixed-offers");
    expect(withoutRequestId(body)).toEqual(withoutRequestId(res.json));
    expectExactKeys(body.data, PRODUCT_KEYS, "product");
    expectExactKeys(body.meta, ["request_id"], "product meta");
    for (const offer of body.data.offers) expectExactKeys(offer, OFFER_KEYS, "offer");
    expect(body.data.offers.map((o: { price_cents: number }) => o.price_cents)).toEqual([6000, 7000, 9800, 10000]);
    expect(findInventoryLeak(body)).toEqual([]);
  });

  it("get_categories returns the API's body", async () => {
    const body = expectSuccess(await session.callTool("get_categories", {}));
    const res = await api("/categories");
    expect(withoutRequestId(body)).toEqual(withoutRequestId(res.json));
    expectExactKeys(body.meta, ["count", "request_id"], "categories meta");
  });

  it("create_cart_link returns a link that opens the cart page with the chosen offer", async () => {
    const product = expectSuccess(await session.callTool("get_product", { slug: "fixture-mixed-offers" }));
    const listingId = product.data.buy_box_listing_id as string;
    const body = expectSuccess(await session.callTool("create_cart_link", { items: [{ listing_id: listingId, quantity: 2 }] }));
    expectExactKeys(body.data, ["url", "expires_at", "accepted", "rejected"], "cart link");
    expectExactKeys(body.meta, ["request_id"], "cart link meta");
    expect(body.data).toMatchObject({ accepted: 1, rejected: [] });
    expect(body.data.url.startsWith(`${baseUrl()}/cart/l/`)).toBe(true);
    expect(body.data.url).toMatch(/\/cart\/l\/[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(body.data.expires_at) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const page = await fetch(body.data.url, { headers: { "X-Forwarded-For": "10.200.0.1" } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('data-cart-link-state="opened"');
    expect(html).toContain(`data-cart-line="${listingId}"`);
  });

  it("search_help and get_help_article read the help centre", async () => {
    const found = expectSuccess(await session.callTool("search_help", { q: "cart link" }));
    expectExactKeys(found.meta, ["count", "request_id"], "help search meta");
    expect(found.meta.count).toBe(found.data.length);
    for (const article of found.data) expectExactKeys(article, ["slug", "title", "summary", "url"], "help article summary");
    expect(found.data.map((a: { slug: string }) => a.slug)).toContain("buying-with-a-cart-link");

    const article = expectSuccess(await session.callTool("get_help_article", { slug: "buying-with-a-cart-link" }));
    expectExactKeys(article.data, ["slug", "title", "summary", "body", "url", "updated_at"], "help article");
    expect(article.data.url).toBe(`${baseUrl()}/help/buying-with-a-cart-link`);
    expect(article.data.body).toContain("# Buying with a cart link");
    expectToolError(await session.callTool("get_help_article", { slug: "no-such-article" }), {
      type: "not_found_error",
      code: "help_article_not_found",
    });
  });

  it("get_connection_guide gives this server's absolute URL for the common clients", async () => {
    const body = expectSuccess(await session.callTool("get_connection_guide", {}));
    const url = `${baseUrl()}/api/mcp/mcp`;
    expect(body.data.server_url).toBe(url);
    expect(body.data.clients.map((c: { client: string }) => c.client)).toEqual([
      "claude_code",
      "claude_desktop",
      "cursor",
      "vscode",
      "mcp_inspector",
      "generic",
    ]);
    for (const client of body.data.clients) expect(client.snippet, client.client).toContain(url);
    expectExactKeys(body.data, ["server_url", "transport", "authentication", "clients", "agent_server", "notes", "docs_url"], "connection guide");
  });

  it("get_connection_guide points agents acting for a person at the authenticated server and the buyer API (OAuth)", async () => {
    const body = expectSuccess(await session.callTool("get_connection_guide", {}));
    const base = baseUrl();
    const agent = body.data.agent_server;
    expectExactKeys(
      agent,
      [
        "server_url",
        "transport",
        "authentication",
        "authorization_server_metadata_url",
        "protected_resource_metadata_url",
        "scopes",
        "buyer_api_url",
        "buyer_openapi_url",
        "manage_url",
        "summary",
      ],
      "agent server guide",
    );
    expect(agent).toMatchObject({
      server_url: `${base}/api/agent/mcp`,
      transport: "streamable-http",
      authentication: "oauth",
      authorization_server_metadata_url: `${base}/.well-known/oauth-authorization-server/oauth`,
      protected_resource_metadata_url: `${base}/.well-known/oauth-protected-resource/api/agent/mcp`,
      buyer_api_url: `${base}/api/v1/buyer`,
      buyer_openapi_url: `${base}/api/v1/buyer/openapi.json`,
      manage_url: `${base}/account/agents`,
    });
    expect(agent.scopes).toEqual(["profile:read", "cart:read", "cart:write", "orders:read", "returns:read", "returns:write", "checkout"]);
    expect(agent.summary).toMatch(/consent page/);
    expect(agent.summary).toMatch(/revoke/);
    expect(body.data.notes.join("\n")).toContain(`${base}/api/agent/mcp`);
  });

  it("a bad argument is a tool error carrying the API's envelope, never a protocol error", async () => {
    const error = expectToolError(await session.callTool("search_products", { page_size: "abc" }), {
      type: "invalid_request_error",
      code: "parameter_invalid",
      param: "page_size",
    });
    expect(session.responses.at(-1)!.status).toBe(200);
    expect(session.responses.at(-1)!.headers.get("x-request-id")).toBe(error.request_id);
    expectToolError(await session.callTool("get_product", { slug: "fixture-unlisted" }), {
      type: "not_found_error",
      code: "product_not_found",
    });
  });

  it("no response ever carries an Mcp-Session-Id", () => {
    expect(session.responses.length).toBeGreaterThan(5);
    for (const response of session.responses) expect(response.headers.get("mcp-session-id")).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Tool arguments are validated as the API validates the same input
// ---------------------------------------------------------------------------------------------

const UNKNOWN_LISTING = "00000000-0000-4000-8000-000000000000";

/** search_products arguments and the query string GET /search gets for the same search. */
const SEARCHES: Array<[string, Record<string, unknown>, Record<string, string | number | string[] | undefined>]> = [
  ["no arguments (browse)", {}, {}],
  ["a text query", { q: "headphones" }, { q: "headphones" }],
  ["lists as arrays, a sort", { q: "Quokkaphone", condition: ["new", "used"], sort: "price_asc" }, { q: "Quokkaphone", condition: ["new", "used"], sort: "price_asc" }],
  [
    "category, brands, price range, paging as numbers",
    { category: "electronics", brand: ["voltix", "aurora-sound"], price_min_cents: 2500, price_max_cents: 20000, page: 2, page_size: 5 },
    { category: "electronics", brand: ["voltix", "aurora-sound"], price_min_cents: 2500, price_max_cents: 20000, page: 2, page_size: 5 },
  ],
  ["page_size 10000 is clamped to 60", { page_size: 10000 }, { page_size: 10000 }],
  ["a page past the last", { q: "Quokkaphone", page: 500 }, { q: "Quokkaphone", page: 500 }],
  ["the query-string forms: a comma list, digit strings", { brand: "voltix,aurora-sound", page: "2", page_size: "3" }, { brand: "voltix,aurora-sound", page: 2, page_size: 3 }],
  ["null is an omitted argument", { q: "Quokkaphone", category: null, brand: null }, { q: "Quokkaphone" }],
  ["SQL in q", { q: "'; DROP TABLE products; --" }, { q: "'; DROP TABLE products; --" }],
  ["tsquery syntax in q", { q: "head & phones | !wired:* <-> (cable" }, { q: "head & phones | !wired:* <-> (cable" }],
];

/** search_products arguments that GET /search refuses in the same way. */
const SEARCH_ERRORS: Array<[string, Record<string, unknown>, Record<string, string | number | string[]>, string]> = [
  ["q of 201 characters", { q: "x".repeat(201) }, { q: "x".repeat(201) }, "q"],
  ["q with a NUL byte", { q: "a\u0000b" }, { q: "a\u0000b" }, "q"],
  ["page_size that is not a number", { page_size: "abc" }, { page_size: "abc" }, "page_size"],
  ["page 0", { page: 0 }, { page: 0 }, "page"],
  ["page 501", { page: 501 }, { page: 501 }, "page"],
  ["a fractional page", { page: 1.5 }, { page: "1.5" }, "page"],
  ["a negative price", { price_min_cents: -1 }, { price_min_cents: -1 }, "price_min_cents"],
  ["a price range that is empty", { price_min_cents: 5000, price_max_cents: 5000 }, { price_min_cents: 5000, price_max_cents: 5000 }, "price_max_cents"],
  ["an unknown condition", { condition: ["mint"] }, { condition: "mint" }, "condition"],
  ["an unknown sort", { sort: "cheapest" }, { sort: "cheapest" }, "sort"],
  ["an unknown category", { category: "no_such_category" }, { category: "no_such_category" }, "category"],
  ["a malformed category", { category: "Bad-Slug" }, { category: "Bad-Slug" }, "category"],
  ["51 brands", { brand: Array.from({ length: 51 }, (_, i) => `b${i}`) }, { brand: Array.from({ length: 51 }, (_, i) => `b${i}`).join(",") }, "brand"],
];

/** search_products arguments of the wrong JSON type (a query string cannot have them). */
const SEARCH_TYPE_ERRORS: Array<[string, Record<string, unknown>, string]> = [
  ["page as a boolean", { page: true }, "page"],
  ["page as an object", { page: { n: 1 } }, "page"],
  ["q as a number", { q: 5 }, "q"],
  ["category as an array", { category: ["electronics"] }, "category"],
  ["sort as an object", { sort: { by: "price" } }, "sort"],
  ["brand with numbers", { brand: [1, 2] }, "brand"],
  ["brand as nested arrays", { brand: [["voltix"]] }, "brand"],
  ["an extra argument", { q: "lamp", colour: "red" }, "colour"],
];

/** create_cart_link arguments and POST /cart-links bodies, refused in the same way. */
const CART_LINK_ERRORS: Array<[string, Record<string, unknown>, { code: string; param?: string; rejected?: boolean }]> = [
  ["no items", {}, { code: "parameter_missing", param: "items" }],
  ["items not an array", { items: "abc" }, { code: "parameter_invalid", param: "items" }],
  ["an empty list", { items: [] }, { code: "parameter_invalid", param: "items" }],
  ["21 lines", { items: Array.from({ length: 21 }, () => ({ listing_id: UNKNOWN_LISTING, quantity: 1 })) }, { code: "parameter_invalid", param: "items" }],
  ["a listing id that is not a UUID", { items: [{ listing_id: "not-a-uuid", quantity: 1 }] }, { code: "parameter_invalid", param: "items[0].listing_id" }],
  ["quantity 100", { items: [{ listing_id: UNKNOWN_LISTING, quantity: 100 }] }, { code: "parameter_invalid", param: "items[0].quantity" }],
  ["quantity as a string", { items: [{ listing_id: UNKNOWN_LISTING, quantity: "2" }] }, { code: "parameter_invalid", param: "items[0].quantity" }],
  ["a missing quantity", { items: [{ listing_id: UNKNOWN_LISTING }] }, { code: "parameter_missing", param: "items[0].quantity" }],
  ["an unknown field in a line", { items: [{ listing_id: UNKNOWN_LISTING, quantity: 1, colour: "red" }] }, { code: "parameter_invalid", param: "items[0].colour" }],
  ["an unknown top-level field", { items: [{ listing_id: UNKNOWN_LISTING, quantity: 1 }], note: "x" }, { code: "parameter_invalid", param: "note" }],
  ["repeated lines summing past 99", { items: [{ listing_id: UNKNOWN_LISTING, quantity: 60 }, { listing_id: UNKNOWN_LISTING, quantity: 50 }] }, { code: "parameter_invalid", param: "items[1].quantity" }],
  ["no purchasable line", { items: [{ listing_id: UNKNOWN_LISTING, quantity: 1 }] }, { code: "no_purchasable_lines", rejected: true }],
];

describe.each(CLIENTS)("tool arguments, validated as the API validates them ($label)", (kind) => {
  let session: McpSession;
  beforeAll(async () => {
    session = await kind.connect();
  });
  afterAll(async () => {
    await session?.close();
  });

  it.each(SEARCHES)("search_products with %s equals GET /search", async (_label, args, query) => {
    const body = expectSuccess(await session.callTool("search_products", args));
    const res = await api(`/search${qs(query)}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(withoutRequestId(body)).toEqual(withoutRequestId(res.json));
  });

  it.each(SEARCH_ERRORS)("search_products with %s: the API's 400, as a tool error", async (_label, args, query, param) => {
    const error = expectToolError(await session.callTool("search_products", args), { type: "invalid_request_error", code: "parameter_invalid", param });
    const res = await api(`/search${qs(query)}`);
    expect(res.status).toBe(400);
    expect(errorWithoutId(error)).toEqual(errorWithoutId(res.json.error));
  });

  it.each(SEARCH_TYPE_ERRORS)("search_products with %s: a tool error naming the argument", async (_label, args, param) => {
    expectToolError(await session.callTool("search_products", args), { type: "invalid_request_error", code: "parameter_invalid", param });
  });

  it("search_products with 10,000 unknown brands: a tool error naming brand, as the API", async () => {
    const brands = Array.from({ length: 10_000 }, (_, i) => `no-such-brand-${i}`);
    const error = expectToolError(await session.callTool("search_products", { brand: brands }), { type: "invalid_request_error", code: "parameter_invalid", param: "brand" });
    expect(error.message).toBe("Invalid 'brand': must have at most 50 values.");
  });

  it.each(CART_LINK_ERRORS)("create_cart_link with %s: POST /cart-links's error, as a tool error", async (_label, args, e) => {
    const type = "invalid_request_error";
    const error = expectToolError(await session.callTool("create_cart_link", args), { type, ...e });
    const res = await api("/cart-links", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(args) });
    expect(res.status).toBe(400);
    expect(errorWithoutId(error)).toEqual(errorWithoutId(res.json.error));
  });

  it.each([
    ["get_product", { slug: 5 }, "parameter_invalid", "slug"],
    ["get_product", {}, "parameter_missing", "slug"],
    ["get_product", { slug: null }, "parameter_missing", "slug"],
    ["get_product", { slug: "fixture-mixed-offers", extra: 1 }, "parameter_invalid", "extra"],
    ["get_categories", { depth: 2 }, "parameter_invalid", "depth"],
    ["search_help", { q: "x".repeat(201) }, "parameter_invalid", "q"],
    ["search_help", { q: ["returns"] }, "parameter_invalid", "q"],
    ["get_help_article", { slug: ["returns"] }, "parameter_invalid", "slug"],
    ["get_connection_guide", { client: "cursor" }, "parameter_invalid", "client"],
  ] as const)("%s with %j: a tool error naming the argument", async (tool, args, code, param) => {
    expectToolError(await session.callTool(tool, args), { type: "invalid_request_error", code, param });
  });

  it("get_product with a slug that cannot exist is not found, as in the API", async () => {
    const slug = "x".repeat(5000);
    const error = expectToolError(await session.callTool("get_product", { slug }), { type: "not_found_error", code: "product_not_found" });
    const res = await api(`/products/${slug}`);
    expect(errorWithoutId(error)).toEqual(errorWithoutId(res.json.error));
  });
});

// ---------------------------------------------------------------------------------------------
// Help search
// ---------------------------------------------------------------------------------------------

describe("search_help: every word, in title, summary or text, published articles only", () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await CLIENTS[0]!.connect();
  });
  afterAll(async () => {
    await session?.close();
  });

  const slugsOf = async (args: Record<string, unknown>) =>
    (expectSuccess(await session.callTool("search_help", args)).data as Array<{ slug: string }>).map((a) => a.slug);

  it("without q lists every article in the order of /help", async () => {
    const page = await (await fetch(`${baseUrl()}/help`, { headers: { "X-Forwarded-For": "10.200.0.2" } })).text();
    const onPage = [...page.matchAll(/href="\/help\/([a-z0-9-]+)"/g)].map((m) => m[1]);
    expect(await slugsOf({})).toEqual(onPage);
    expect(onPage.length).toBeGreaterThanOrEqual(7);
  });

  it("serves the articles of content/help, in their order, text byte for byte", async () => {
    const files = readHelpArticles();
    expect(await slugsOf({})).toEqual(files.map((a) => a.slug));
    for (const file of files) {
      const { data } = expectSuccess(await session.callTool("get_help_article", { slug: file.slug }));
      expect({ title: data.title, summary: data.summary, body: data.body }, file.slug).toEqual({ title: file.title, summary: file.summary, body: file.body });
    }
  });

  it("matches every word, case-insensitively, titles first", async () => {
    const slugs = await slugsOf({ q: "CART link" });
    expect(slugs[0]).toBe("buying-with-a-cart-link");
    expect(slugs).toContain("for-agents-public-api");
    expect(await slugsOf({ q: "cart link zzzunmatched" })).toEqual([]);
  });

  it("treats % and _ as themselves, not as wildcards", async () => {
    const all = await slugsOf({});
    // "%" finds only articles that hold one (one says "0 to 20 %"), never every article.
    const percent = await slugsOf({ q: "%" });
    expect(percent.length).toBeLessThan(all.length);
    for (const slug of percent) expect(JSON.stringify(await session.callTool("get_help_article", { slug }))).toContain("%");
    const underscore = await slugsOf({ q: "_" });
    expect(underscore.length).toBeGreaterThan(0);
    expect(underscore.length).toBeLessThan(all.length);
  });

  it("never finds or reads an unpublished article", async () => {
    const client = new pg.Client({ connectionString: inject("DATABASE_URL") });
    await client.connect();
    const slug = `draft-${Date.now()}`;
    try {
      await client.query("INSERT INTO help_articles (slug, title, summary, body, published) VALUES ($1, $2, $2, $2, false)", [slug, "Zebrafinch draft article"]);
      expect(await slugsOf({ q: "Zebrafinch" })).toEqual([]);
      expect(await slugsOf({})).not.toContain(slug);
      expectToolError(await session.callTool("get_help_article", { slug }), { type: "not_found_error", code: "help_article_not_found" });
    } finally {
      await client.query("DELETE FROM help_articles WHERE slug = $1", [slug]);
      await client.end();
    }
  });

  it("takes SQL and backslashes as text", async () => {
    expect(await slugsOf({ q: "'; DROP TABLE help_articles; --" })).toEqual([]);
    expect(await slugsOf({ q: "\\" })).toEqual([]);
    expect((await slugsOf({})).length).toBeGreaterThanOrEqual(7);
  });
});
