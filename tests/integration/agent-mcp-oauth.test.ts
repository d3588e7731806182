/**
 * The official MCP client's own OAuth support against the agent MCP server, end to end over real
 * HTTP (decisions.md "OAuth, agent MCP and buyer API"): @modelcontextprotocol/client 2.x with an
 * in-memory OAuthClientProvider (a loopback redirect URI, registered by RFC 7591) meets the 401,
 * discovers the RFC 9728 and RFC 8414 documents itself, registers and asks to open the
 * authorization URL; the test plays the holder's browser (the app's sign-in form, the consent page
 * with one scope unticked, "Allow"), hands the code to `finishAuth`, reconnects and calls tools. A
 * tool whose scope was unticked gets the HTTP 403 `insufficient_scope` (as the SDK reports it, in
 * both of its modes); "Revoke" on /account/agents makes the next call a 401. The same with a
 * client ID metadata document URL as client_id, on an app of its own that may fetch documents
 * from loopback (OAUTH_CIMD_ALLOW_LOOPBACK=on, trusting a self-signed certificate through
 * NODE_EXTRA_CA_CERTS, as tests/integration/oauth-attacks.test.ts does). A native client (loopback
 * redirect) that comes back on another port keeps its registration and completes (RFC 8252).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client, InsufficientScopeError, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import * as cheerio from "cheerio";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { Browser, BUYER_SCOPES, consent, randomIp } from "../helpers/oauth-agent";
import { InMemoryOAuthProvider, recordingFetch, type RecordedCall } from "../helpers/mcp-oauth";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const AGENT_MCP = "/api/agent/mcp";
const HOLDER_TOOLS = ["get_profile", "get_cart", "add_to_cart", "update_cart_line", "remove_cart_line", "checkout", "list_orders", "get_order", "request_return", "list_returns"];
const CATALOG_TOOLS = ["search_products", "get_product", "get_categories", "create_cart_link", "search_help", "get_help_article", "get_connection_guide"];
/** The MCP Apps views' app-only tools (lib/mcp/tools/agent.ts). */
const VIEW_TOOLS = ["view_add_to_cart", "view_set_quantity", "view_checkout_summary"];
const GRANTED = BUYER_SCOPES.filter((scope) => scope !== "orders:read");
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

/** What the protocol negotiation settled on, per client mode (reported by the test run). */
const negotiated: Record<string, string | undefined> = {};

async function createUser(pool: pg.Pool): Promise<{ id: string; email: string }> {
  const email = `mcp-oauth-${randomBytes(5).toString("hex")}@example.com`;
  const { rows } = await pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'MCP OAuth holder', 'shopper', $2) RETURNING id`, [email, await hashPassword(PASSWORD)]);
  return { id: rows[0].id, email };
}

/**
 * A loopback redirect URI on a port nothing listens on: the browser stops at it (another origin
 * than the app's, whose port the test setup chose from the ephemeral range above 32768).
 */
function loopbackRedirect(): string {
  return `http://127.0.0.1:${20_000 + Math.floor(Math.random() * 12_000)}/callback`;
}

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

function transportFor(base: string, provider: InMemoryOAuthProvider, calls: RecordedCall[], ip: string, options: { onInsufficientScope?: "reauthorize" | "throw" } = {}) {
  return new StreamableHTTPClientTransport(new URL(base + AGENT_MCP), { authProvider: provider, fetch: recordingFetch(calls, ip), ...options });
}

function newClient(mode: "2026" | "2025"): Client {
  return new Client({ name: "mcp-oauth-tests", version: "1.0.0" }, mode === "2026" ? { versionNegotiation: { mode: "auto" } } : {});
}

async function connect(base: string, provider: InMemoryOAuthProvider, calls: RecordedCall[], ip: string, mode: "2026" | "2025" = "2026", options: { onInsufficientScope?: "reauthorize" | "throw" } = {}): Promise<Connected> {
  const client = newClient(mode);
  const transport = transportFor(base, provider, calls, ip, options);
  await client.connect(transport);
  return { client, transport };
}

/** The holder's browser answers the authorization URL the SDK asked to open: consent with `scopes` ticked; answers the callback URL. */
async function holderAllows(browser: Browser, url: URL, scopes: readonly string[]): Promise<URL> {
  return consent(browser, { url, codeVerifier: "", state: "" }, [...scopes]);
}

/** "Revoke" on /account/agents for the connection of `clientId`, posted as the holder's browser. */
async function revokeOnAccountPage(browser: Browser, clientId: string): Promise<void> {
  const page = await browser.fetch("/account/agents");
  expect(page.status).toBe(200);
  const $ = cheerio.load(await page.text());
  const items = $("#connected-agents li[data-grant-id]").filter((_, el) => $(el).attr("data-client-id") === clientId);
  expect(items.length).toBe(1);
  const action = items.find("form").attr("action")!;
  expect(action).toMatch(/^\/account\/agents\/[^/]+\/revoke$/);
  const res = await browser.postForm(action, [], { Origin: browser.baseUrl });
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/account/agents?notice=agent_revoked");
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error("expected the call to fail");
}

const mcpPosts = (calls: RecordedCall[], base: string) => calls.filter((c) => c.method === "POST" && c.url === base + AGENT_MCP);

/**
 * The whole flow on the app at `base`; `provider` decides how the client is identified (registered
 * by RFC 7591, or a client ID metadata document URL).
 */
function fullFlow(label: string, setup: () => { base: string; pool: pg.Pool; provider: InMemoryOAuthProvider; expectRegistration: boolean }) {
  describe(label, () => {
    let base = "";
    let provider: InMemoryOAuthProvider;
    let browser: Browser;
    let holder: { id: string; email: string };
    let expectRegistration = true;
    const calls: RecordedCall[] = [];
    const ip = randomIp();
    let session: Connected | undefined;

    beforeAll(async () => {
      const s = setup();
      base = s.base;
      provider = s.provider;
      expectRegistration = s.expectRegistration;
      holder = await createUser(s.pool);
      browser = new Browser(base);
      await browser.signIn(holder.email, PASSWORD);
    });

    afterAll(async () => {
      await session?.client.close().catch(() => {});
    });

    it("first connect: 401, the SDK discovers the resource and the authorization server, registers (or uses its metadata URL), and asks to open the authorization URL", async () => {
      const client = newClient("2026");
      const err = await rejection(client.connect(transportFor(base, provider, calls, ip)));
      expect(UnauthorizedError.isInstance(err), String(err)).toBe(true);

      const [first] = calls;
      expect(first).toMatchObject({ method: "POST", url: base + AGENT_MCP, status: 401 });
      expect(first!.wwwAuthenticate).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/api/agent/mcp"`);
      const urls = calls.map((c) => `${c.method} ${c.url.replace(base, "")} ${c.status}`);
      expect(urls).toContain("GET /.well-known/oauth-protected-resource/api/agent/mcp 200");
      expect(urls).toContain("GET /.well-known/oauth-authorization-server/oauth 200");
      expect(urls.includes("POST /oauth/register 201")).toBe(expectRegistration);

      expect(provider.discovery?.authorizationServerUrl).toBe(`${base}/oauth`);
      expect(provider.discovery?.resourceMetadata?.resource).toBe(base + AGENT_MCP);
      if (expectRegistration) {
        expect(provider.client?.client_id).toMatch(/^[\w-]+$/);
        expect((provider.client as { client_secret?: string }).client_secret).toBeUndefined();
      } else {
        expect(provider.client?.client_id).toBe(provider.clientMetadataUrl);
      }

      const url = provider.lastAuthorizationUrl();
      expect(`${url.origin}${url.pathname}`).toBe(`${base}/oauth/authorize`);
      expect(url.searchParams.get("client_id")).toBe(provider.client!.client_id);
      expect(url.searchParams.get("redirect_uri")).toBe(provider.redirectUrl);
      expect(url.searchParams.get("response_type")).toBe("code");
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("resource")).toBe(base + AGENT_MCP);
      // The SDK asks for what the resource's RFC 9728 document lists: every buyer scope, no offline_access.
      expect(url.searchParams.get("scope")!.split(" ").sort()).toEqual([...BUYER_SCOPES].sort());
    });

    it("the holder signs in, unticks one scope and allows; finishAuth exchanges the code; the client reconnects and calls tools", async () => {
      const callback = await holderAllows(browser, provider.lastAuthorizationUrl(), GRANTED);
      expect(`${callback.origin}${callback.pathname}`).toBe(provider.redirectUrl);
      expect(callback.searchParams.get("iss")).toBe(`${base}/oauth`);
      const code = callback.searchParams.get("code");
      expect(code).toBeTruthy();

      const finishing = transportFor(base, provider, calls, ip);
      await finishing.finishAuth(callback.searchParams);
      expect(provider.saved?.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(provider.saved?.refresh_token).toBeTypeOf("string");
      expect(provider.saved?.scope?.split(" ")).toEqual(GRANTED);
      expect(calls.at(-1)).toMatchObject({ method: "POST", url: `${base}/oauth/token`, status: 200 });

      session = await connect(base, provider, calls, ip, "2026");
      negotiated[`${label} (versionNegotiation auto)`] = session.client.getNegotiatedProtocolVersion();
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...CATALOG_TOOLS, ...HOLDER_TOOLS, ...VIEW_TOOLS].sort());

      const profile = (await session.client.callTool({ name: "get_profile", arguments: {} })) as { structuredContent?: any; isError?: boolean };
      expect(profile.isError).toBeFalsy();
      expect(profile.structuredContent.data).toEqual({ id: holder.id, object: "user", email: holder.email, name: "MCP OAuth holder" });

      const cart = (await session.client.callTool({ name: "get_cart", arguments: {} })) as { structuredContent?: any; isError?: boolean };
      expect(cart.isError).toBeFalsy();
      expect(cart.structuredContent.data.lines).toEqual([]);

      const search = (await session.client.callTool({ name: "search_products", arguments: { page_size: 2 } })) as { structuredContent?: any; isError?: boolean };
      expect(search.isError).toBeFalsy();
      expect(search.structuredContent.data.length).toBeGreaterThan(0);
      expect(search.structuredContent.meta.page_size).toBe(2);

      // Every request to the MCP server after the code exchange carried the token and succeeded.
      const since = calls.findIndex((c) => c.url === `${base}/oauth/token`);
      expect(mcpPosts(calls.slice(since), base).every((c) => c.status === 200 || c.status === 202)).toBe(true);

      // The 2025 handshake (initialize) works with the same token too.
      const legacy = await connect(base, provider, calls, ip, "2025");
      negotiated[`${label} (default, initialize)`] = legacy.client.getNegotiatedProtocolVersion();
      expect(((await legacy.client.callTool({ name: "get_profile", arguments: {} })) as { structuredContent?: any }).structuredContent.data.id).toBe(holder.id);
      await legacy.client.close();
    });

    it("a tool whose scope was unticked is an HTTP 403 insufficient_scope: InsufficientScopeError in 'throw' mode, a step-up authorization request by default", async () => {
      const throwing = await connect(base, provider, calls, ip, "2026", { onInsufficientScope: "throw" });
      const err = await rejection(throwing.client.callTool({ name: "list_orders", arguments: {} }));
      expect(InsufficientScopeError.isInstance(err), String(err)).toBe(true);
      expect((err as InsufficientScopeError).requiredScope).toBe("orders:read");
      expect((err as InsufficientScopeError).resourceMetadataUrl?.toString()).toBe(`${base}/.well-known/oauth-protected-resource/api/agent/mcp`);
      expect(mcpPosts(calls, base).at(-1)).toMatchObject({ status: 403, wwwAuthenticate: expect.stringContaining('error="insufficient_scope", scope="orders:read"') });
      await throwing.client.close();

      // Default ('reauthorize'): the SDK starts a step-up authorization for the union of the
      // granted scopes and the one asked, and the call fails with UnauthorizedError meanwhile.
      const before = provider.authorizationUrls.length;
      const stepUp = await rejection(session!.client.callTool({ name: "list_orders", arguments: {} }));
      expect(UnauthorizedError.isInstance(stepUp), String(stepUp)).toBe(true);
      expect(provider.authorizationUrls.length).toBe(before + 1);
      const asked = provider.lastAuthorizationUrl().searchParams.get("scope")!.split(" ");
      expect(asked).toEqual(expect.arrayContaining([...GRANTED, "orders:read"]));
      // The token is left alone: the calls it may make still work.
      const profile = (await session!.client.callTool({ name: "get_profile", arguments: {} })) as { structuredContent?: any };
      expect(profile.structuredContent.data.id).toBe(holder.id);
    });

    it("Revoke on /account/agents: the next call is a 401 invalid_token, the refresh token is dead too", async () => {
      await revokeOnAccountPage(browser, provider.client!.client_id);
      const mark = calls.length;
      const err = await rejection(session!.client.callTool({ name: "get_profile", arguments: {} }));
      const after = calls.slice(mark);
      const firstPost = mcpPosts(after, base)[0];
      expect(firstPost).toMatchObject({ status: 401 });
      expect(firstPost!.wwwAuthenticate).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/);
      // The SDK tried its refresh token, which the revocation ended with the grant.
      const refreshAttempt = after.find((c) => c.url === `${base}/oauth/token`);
      expect(refreshAttempt).toMatchObject({ status: 400 });
      expect(JSON.parse(refreshAttempt!.body!).error).toBe("invalid_grant");
      // ... then dropped its tokens and asked to open a new authorization URL.
      expect(provider.invalidated).toContain("tokens");
      expect(UnauthorizedError.isInstance(err), String(err)).toBe(true);
      expect(provider.saved).toBeUndefined();
    });
  });
}

let sharedPool: pg.Pool;
beforeAll(() => {
  sharedPool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
});
afterAll(async () => {
  await sharedPool?.end();
});

fullFlow("registered by RFC 7591", () => ({
  base: inject("BASE_URL"),
  pool: sharedPool,
  provider: new InMemoryOAuthProvider(loopbackRedirect()),
  expectRegistration: true,
}));

describe("a native client's loopback redirect URI", () => {
  it("may come back on another port than it registered (RFC 8252): the SDK's next authorization on a new port completes", async () => {
    const base = inject("BASE_URL");
    const holder = await createUser(sharedPool);
    const browser = new Browser(base);
    await browser.signIn(holder.email, PASSWORD);
    const calls: RecordedCall[] = [];
    const ip = randomIp();
    const first = new InMemoryOAuthProvider(loopbackRedirect());
    expect(UnauthorizedError.isInstance(await rejection(newClient("2026").connect(transportFor(base, first, calls, ip))))).toBe(true);
    expect((first.client as { application_type?: string }).application_type).toBe("native");

    // A later run of the same client listens on another port; it keeps its registration.
    const registered = new URL(first.redirectUrl);
    const moved = new URL(first.redirectUrl);
    moved.port = String(Number(registered.port) + 1);
    const second = new InMemoryOAuthProvider(moved.toString());
    second.client = first.client;
    expect(UnauthorizedError.isInstance(await rejection(newClient("2026").connect(transportFor(base, second, calls, ip))))).toBe(true);
    expect(calls.filter((c) => c.url.endsWith("/oauth/register"))).toHaveLength(1);
    expect(second.lastAuthorizationUrl().searchParams.get("redirect_uri")).toBe(moved.toString());

    const callback = await holderAllows(browser, second.lastAuthorizationUrl(), ["profile:read"]);
    expect(`${callback.origin}${callback.pathname}`).toBe(moved.toString());
    await transportFor(base, second, calls, ip).finishAuth(callback.searchParams);
    const { client } = await connect(base, second, calls, ip);
    expect(((await client.callTool({ name: "get_profile", arguments: {} })) as { structuredContent?: any }).structuredContent.data.id).toBe(holder.id);
    await client.close();
  });
});

describe("with a client ID metadata document URL as client_id", () => {
  let app: IsolatedApp;
  let certDir = "";
  let docs: https.Server;
  let docUrl = "";
  const redirect = loopbackRedirect();

  beforeAll(async () => {
    certDir = mkdtempSync(path.join(tmpdir(), "mcp-cimd-"));
    execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(certDir, "key.pem"), "-out", path.join(certDir, "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], { stdio: "ignore" });
    docs = https.createServer({ key: readFileSync(path.join(certDir, "key.pem")), cert: readFileSync(path.join(certDir, "cert.pem")) }, (req, res) => {
      if (req.url !== "/mcp-client.json") return void res.writeHead(404).end();
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ client_id: docUrl, client_name: "MCP SDK CIMD Agent", redirect_uris: [redirect], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], application_type: "native" }));
    });
    await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
    docUrl = `https://127.0.0.1:${(docs.address() as { port: number }).port}/mcp-client.json`;
    app = await startIsolatedApp("mcp-oauth-cimd", { OAUTH_CIMD_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: path.join(certDir, "cert.pem") });
  });

  afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => docs?.close(resolve));
    if (certDir) rmSync(certDir, { recursive: true, force: true });
  });

  fullFlow("metadata document", () => ({
    base: app.baseUrl,
    pool: app.pool,
    provider: new InMemoryOAuthProvider(redirect, {}, docUrl),
    expectRegistration: false,
  }));
});

afterAll(() => {
  process.stderr.write(`[agent-mcp-oauth] negotiated protocol versions: ${JSON.stringify(negotiated)}\n`);
});
