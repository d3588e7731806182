/**
 * The OAuth authorization server end to end over real HTTP (decisions.md "OAuth, agent MCP and
 * buyer API"): oauth4webapi plays the agent, a cookie jar the holder's browser (the app's sign-in
 * form, the consent page). Tokens are checked where the resources check them (lib/oauth/verify.ts,
 * against the app's database) since the buyer API is not on this branch.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { Browser, BUYER_SCOPES, agentOptions, authorizationUrl, consent, discover, exchangeCode, readConsentPage, refresh, registerAgent, type Agent } from "../helpers/oauth-agent";
import * as oauth from "oauth4webapi";

let base = "";
let pool: pg.Pool;
let verify: typeof import("@/lib/oauth/verify").authenticateAccessToken;
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

async function createUser(): Promise<{ id: string; email: string }> {
  const email = `oauth-${randomBytes(5).toString("hex")}@example.com`;
  const { rows } = await pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'OAuth holder', 'shopper', $2) RETURNING id`, [email, await hashPassword(PASSWORD)]);
  return { id: rows[0].id, email };
}

/** `ok` with the principal's scopes, or the refusal's code. */
async function check(token: string, resource: "buyer_api" | "agent_mcp"): Promise<string> {
  try {
    const principal = await verify(token, resource);
    return `ok ${principal.scopes.join(" ")}`;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

beforeAll(async () => {
  base = inject("BASE_URL");
  process.env.DATABASE_URL = inject("DATABASE_URL");
  process.env.PUBLIC_BASE_URL = base;
  pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
  verify = (await import("@/lib/oauth/verify")).authenticateAccessToken;
});

afterAll(async () => {
  await pool?.end();
  const { db } = await import("@/lib/db");
  await db().$disconnect();
});

describe("discovery", () => {
  it("serves RFC 8414 metadata at the path-inserted well-known URL, with what agents rely on", async () => {
    const as = await discover(base);
    expect(as.issuer).toBe(`${base}/oauth`);
    expect(as.code_challenge_methods_supported).toEqual(["S256"]);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${base}/oauth/register`);
    expect(as.revocation_endpoint).toBe(`${base}/oauth/revoke`);
    expect(as.token_endpoint).toBe(`${base}/oauth/token`);
    expect(as.authorization_endpoint).toBe(`${base}/oauth/authorize`);
    expect(as.response_types_supported).toEqual(["code"]);
    expect(as.token_endpoint_auth_methods_supported).toEqual(["none"]);
    expect(as.scopes_supported).toEqual(expect.arrayContaining(BUYER_SCOPES));
    expect(as.scopes_supported).not.toContain("offline_access");
    expect((as as Record<string, unknown>).client_id_metadata_document_supported).toBe(true);
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration", "/.well-known/openid-configuration/oauth", "/oauth/.well-known/openid-configuration"]) {
      const res = await fetch(`${base}${path}`, { headers: { "X-Forwarded-For": "10.9.9.9" } });
      expect(res.status, path).toBe(200);
      expect((await res.json()).issuer, path).toBe(`${base}/oauth`);
    }
    const cors = await fetch(`${base}/.well-known/oauth-authorization-server/oauth`, { headers: { Origin: "https://elsewhere.example" } });
    expect(cors.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("serves RFC 9728 documents for both resources, `resource` exactly the endpoint URL, no offline_access", async () => {
    const cases = [
      ["/.well-known/oauth-protected-resource/api/agent/mcp", "/api/agent/mcp"],
      ["/.well-known/oauth-protected-resource/api/v1/buyer", "/api/v1/buyer"],
      ["/.well-known/oauth-protected-resource", "/api/agent/mcp"],
    ];
    for (const [path, resource] of cases) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const doc = await res.json();
      expect(doc.resource).toBe(`${base}${resource}`);
      expect(doc.authorization_servers).toEqual([`${base}/oauth`]);
      expect(doc.scopes_supported).toEqual(BUYER_SCOPES);
      expect(doc.bearer_methods_supported).toEqual(["header"]);
    }
  });
});

describe("registration, consent, tokens, refresh and revocation", () => {
  let agent: Agent;
  let holder: { id: string; email: string };
  let browser: Browser;

  beforeAll(async () => {
    agent = await registerAgent(base, { client_name: "Shopping Helper" });
    holder = await createUser();
    browser = new Browser(base);
    await browser.signIn(holder.email, PASSWORD);
  });

  it("registers public clients only (RFC 7591): no secret is issued, a secret-based method is refused", async () => {
    expect(agent.client.client_id).toBeTypeOf("string");
    expect(agent.client.client_secret).toBeUndefined();
    expect(agent.client.token_endpoint_auth_method).toBe("none");
    const res = await oauth.dynamicClientRegistrationRequest(agent.as, { redirect_uris: ["https://x.example/cb"], token_endpoint_auth_method: "client_secret_basic" }, agentOptions());
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("invalid_client_metadata");
  });

  it("shows the consent page: client name, redirect host, one ticked checkbox per scope in plain words, the spending limits when checkout is asked", async () => {
    const start = await authorizationUrl(agent);
    const opened = await browser.fetch(start.url.toString());
    expect(opened.status).toBe(303);
    const location = opened.headers.get("location")!;
    expect(location).toMatch(/^\/oauth\/consent\/[\w-]+$/);
    const html = await (await browser.fetch(location)).text();
    const page = readConsentPage(html);
    expect(page.scopes.map((s) => s.value)).toEqual(BUYER_SCOPES);
    expect(page.scopes.every((s) => s.checked)).toBe(true);
    expect(page.scopes.find((s) => s.value === "cart:read")!.label).toBe("See your cart");
    expect(html).toContain("Shopping Helper");
    expect(html).toContain(new URL(agent.redirectUri).host);
    expect(html).toContain('data-section="agent-limits"');
    expect(html).toMatch(/>Allow<\/button>/);
    expect(html).toMatch(/>Deny<\/button>/);
  });

  it("issues opaque tokens for exactly the ticked scopes, with iss in the response; refresh rotates; RFC 7009 revocation ends the grant", async () => {
    const start = await authorizationUrl(agent);
    const callback = await consent(browser, start, ["profile:read", "cart:read", "orders:read"]);
    expect(callback.searchParams.get("iss")).toBe(`${base}/oauth`);
    const tokens = await exchangeCode(agent, callback, start);
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe("profile:read cart:read orders:read");
    expect(tokens.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.refresh_token).toBeTypeOf("string");
    expect(await check(tokens.access_token, "buyer_api")).toBe("ok profile:read cart:read orders:read");
    expect(await check(tokens.access_token, "agent_mcp")).toBe("invalid_token");

    // Stored hashed: neither token appears in the table.
    const { rows: leak } = await pool.query(`SELECT count(*)::int AS n FROM oauth_records WHERE payload::text LIKE $1 OR payload::text LIKE $2`, [`%${tokens.access_token}%`, `%${tokens.refresh_token}%`]);
    expect(leak[0].n).toBe(0);
    const { rows: conn } = await pool.query(`SELECT user_id::text, client_id, client_name, redirect_host, scopes, revoked_at FROM agent_connections WHERE client_id = $1 ORDER BY created_at DESC LIMIT 1`, [agent.client.client_id]);
    expect(conn[0]).toEqual({ user_id: holder.id, client_id: agent.client.client_id, client_name: "Shopping Helper", redirect_host: new URL(agent.redirectUri).host, scopes: ["profile:read", "cart:read", "orders:read"], revoked_at: null });

    const rotated = await refresh(agent, tokens.refresh_token!);
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.scope).toBe("profile:read cart:read orders:read");
    expect(await check(rotated.access_token, "buyer_api")).toBe("ok profile:read cart:read orders:read");

    const revoked = await oauth.revocationRequest(agent.as, agent.client, oauth.None(), rotated.refresh_token!, agent.options);
    await oauth.processRevocationResponse(revoked);
    expect(await check(rotated.access_token, "buyer_api")).toBe("invalid_token");
    const { rows: after } = await pool.query(`SELECT revoked_at FROM agent_connections WHERE client_id = $1 ORDER BY created_at DESC LIMIT 1`, [agent.client.client_id]);
    expect(after[0].revoked_at).toBeInstanceOf(Date);
  });

  it("issues a token for the MCP server, and a refresh without `resource` keeps the granted one", async () => {
    const resource = `${base}/api/agent/mcp`;
    const start = await authorizationUrl(agent, { resource });
    const tokens = await exchangeCode(agent, await consent(browser, start, BUYER_SCOPES), start, resource);
    expect(await check(tokens.access_token, "agent_mcp")).toBe(`ok ${BUYER_SCOPES.join(" ")}`);
    expect(await check(tokens.access_token, "buyer_api")).toBe("invalid_token");
    const rotated = await refresh(agent, tokens.refresh_token!);
    expect(await check(rotated.access_token, "agent_mcp")).toBe(`ok ${BUYER_SCOPES.join(" ")}`);
  });

  it("Deny sends access_denied (with iss) back to the client; ticking nothing is a Deny", async () => {
    for (const [scopes, decision] of [[BUYER_SCOPES, "deny"], [[], "allow"]] as const) {
      const start = await authorizationUrl(agent);
      const callback = await consent(browser, start, [...scopes], decision);
      expect(callback.searchParams.get("error")).toBe("access_denied");
      expect(callback.searchParams.get("iss")).toBe(`${base}/oauth`);
      expect(callback.searchParams.get("code")).toBeNull();
    }
  });
});
