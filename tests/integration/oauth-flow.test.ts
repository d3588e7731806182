/**
 * The OAuth authorization server end to end over real HTTP (decisions.md "OAuth, agent MCP and
 * buyer API"): oauth4webapi plays the agent, a cookie jar the holder's browser (the app's sign-in
 * form, the consent page). Every token it obtains is used on the real resources: `GET
 * /api/v1/buyer/me` and a `get_profile` tool call on `/api/agent/mcp`, each of which refuses the
 * other's tokens with 401 `invalid_token` and its own `resource_metadata` challenge.
 *
 * RFC 7009 revocation, as oidc-provider does it and the app relies on: revoking a refresh token
 * ends its whole grant (every access and refresh token of it, and the holder's connection on
 * /account/agents), and so does revoking an access token. A reused (rotated-out) refresh token
 * ends the grant as well. Each takes effect on the very next request. A refused refresh spends
 * nothing: the same refresh token works afterwards.
 */
import { createHash, randomBytes } from "node:crypto";
import * as cheerio from "cheerio";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { Browser, BUYER_SCOPES, agentOptions, authorizationUrl, consent, discover, exchangeCode, randomIp, readConsentPage, refresh, registerAgent, tokenRequest, type Agent } from "../helpers/oauth-agent";
import * as oauth from "oauth4webapi";

let base = "";
let pool: pg.Pool;
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

async function createUser(): Promise<{ id: string; email: string }> {
  const email = `oauth-${randomBytes(5).toString("hex")}@example.com`;
  const { rows } = await pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'OAuth holder', 'shopper', $2) RETURNING id`, [email, await hashPassword(PASSWORD)]);
  return { id: rows[0].id, email };
}

type Resource = "buyer_api" | "agent_mcp";

interface ResourceAnswer {
  status: number;
  /** The error code of a refusal (the envelope's `error.code`). */
  code?: string;
  /** `WWW-Authenticate` of a refusal. */
  challenge: string | null;
  /** The profile the resource answered with (the buyer API's `data`, the tool's structured content `data`). */
  profile?: { id: string; object: string; email: string; name: string };
}

/**
 * The holder's profile through a real resource with `token` as Bearer: `GET /api/v1/buyer/me`, or a
 * `get_profile` tool call on `/api/agent/mcp` (stateless streamable HTTP: one POST, no session).
 */
async function whoAmI(token: string, resource: Resource): Promise<ResourceAnswer> {
  const headers = { Authorization: `Bearer ${token}`, "X-Forwarded-For": randomIp() };
  const res =
    resource === "buyer_api"
      ? await fetch(`${base}/api/v1/buyer/me`, { headers })
      : await fetch(`${base}/api/agent/mcp`, {
          method: "POST",
          headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_profile", arguments: {} } }),
        });
  const text = await res.text();
  const json = JSON.parse((res.headers.get("content-type") ?? "").startsWith("text/event-stream") ? text.split("\n").find((l) => l.startsWith("data: "))!.slice(6) : text);
  const answer: ResourceAnswer = { status: res.status, challenge: res.headers.get("www-authenticate") };
  if (res.status !== 200) answer.code = json.error?.code;
  else answer.profile = resource === "buyer_api" ? json.data : json.result?.structuredContent?.data;
  return answer;
}

/** `200 <email>` when the resource answers the holder's profile, else `<status> <code>`. */
async function says(token: string, resource: Resource): Promise<string> {
  const answer = await whoAmI(token, resource);
  return answer.status === 200 ? `200 ${answer.profile?.email}` : `${answer.status} ${answer.code}`;
}

/** The 401 challenge of `resource` for a token it refuses (RFC 6750, RFC 9728). */
function invalidTokenChallenge(resource: Resource): RegExp {
  const path = resource === "buyer_api" ? "/api/v1/buyer" : "/api/agent/mcp";
  const metadata = `${base}/.well-known/oauth-protected-resource${path}`.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${metadata}"$`);
}

/** The grant ids of the holder's connected agents, as /account/agents lists them. */
async function listedConnections(browser: Browser): Promise<string[]> {
  const page = await browser.fetch("/account/agents");
  expect(page.status).toBe(200);
  const $ = cheerio.load(await page.text());
  return $("#connected-agents li[data-grant-id]")
    .toArray()
    .map((el) => $(el).attr("data-grant-id")!);
}

async function grantOf(accessToken: string): Promise<string> {
  const { rows } = await pool.query(`SELECT grant_id FROM oauth_records WHERE model = 'AccessToken' AND id_hash = $1`, [createHash("sha256").update(accessToken, "utf8").digest()]);
  return rows[0].grant_id;
}

beforeAll(async () => {
  base = inject("BASE_URL");
  pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
});

afterAll(async () => {
  await pool?.end();
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

  it("issues opaque tokens for exactly the ticked scopes, with iss in the response, stored hashed; the buyer API answers the holder, the MCP server refuses the token", async () => {
    const start = await authorizationUrl(agent);
    const callback = await consent(browser, start, ["profile:read", "cart:read", "orders:read"]);
    expect(callback.searchParams.get("iss")).toBe(`${base}/oauth`);
    const tokens = await exchangeCode(agent, callback, start);
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    expect(tokens.expires_in).toBe(900);
    expect(tokens.scope).toBe("profile:read cart:read orders:read");
    expect(tokens.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.refresh_token).toBeTypeOf("string");

    const me = await whoAmI(tokens.access_token, "buyer_api");
    expect(me.status).toBe(200);
    expect(me.profile).toEqual({ id: holder.id, object: "user", email: holder.email, name: "OAuth holder" });
    const mcp = await whoAmI(tokens.access_token, "agent_mcp");
    expect(mcp.status).toBe(401);
    expect(mcp.code).toBe("invalid_token");
    expect(mcp.challenge).toMatch(invalidTokenChallenge("agent_mcp"));

    // Stored hashed: neither token appears in the table.
    const { rows: leak } = await pool.query(`SELECT count(*)::int AS n FROM oauth_records WHERE payload::text LIKE $1 OR payload::text LIKE $2`, [`%${tokens.access_token}%`, `%${tokens.refresh_token}%`]);
    expect(leak[0].n).toBe(0);
    const { rows: conn } = await pool.query(`SELECT user_id::text, client_id, client_name, redirect_host, scopes, revoked_at FROM agent_connections WHERE grant_id = $1`, [await grantOf(tokens.access_token)]);
    expect(conn[0]).toEqual({ user_id: holder.id, client_id: agent.client.client_id, client_name: "Shopping Helper", redirect_host: new URL(agent.redirectUri).host, scopes: ["profile:read", "cart:read", "orders:read"], revoked_at: null });
  });

  it("issues a token for the MCP server: get_profile answers the holder there, the buyer API refuses it; a refresh without `resource` keeps the granted one", async () => {
    const resource = `${base}/api/agent/mcp`;
    const start = await authorizationUrl(agent, { resource });
    const tokens = await exchangeCode(agent, await consent(browser, start, BUYER_SCOPES), start, resource);
    expect(tokens.scope).toBe(BUYER_SCOPES.join(" "));
    const mcp = await whoAmI(tokens.access_token, "agent_mcp");
    expect(mcp.status).toBe(200);
    expect(mcp.profile).toEqual({ id: holder.id, object: "user", email: holder.email, name: "OAuth holder" });
    const api = await whoAmI(tokens.access_token, "buyer_api");
    expect(api.status).toBe(401);
    expect(api.code).toBe("invalid_token");
    expect(api.challenge).toMatch(invalidTokenChallenge("buyer_api"));

    const rotated = await refresh(agent, tokens.refresh_token!);
    expect(await says(rotated.access_token, "agent_mcp")).toBe(`200 ${holder.email}`);
    expect(await says(rotated.access_token, "buyer_api")).toBe("401 invalid_token");
  });

  it("refresh rotates: the new access token works, the old refresh token is dead, and presenting it ends the grant (reuse detection)", async () => {
    const start = await authorizationUrl(agent);
    const tokens = await exchangeCode(agent, await consent(browser, start, ["profile:read", "cart:read"]), start);
    const grantId = await grantOf(tokens.access_token);
    const rotated = await refresh(agent, tokens.refresh_token!);
    expect(rotated.refresh_token).toBeTypeOf("string");
    expect(rotated.refresh_token).not.toBe(tokens.refresh_token);
    expect(rotated.access_token).not.toBe(tokens.access_token);
    expect(rotated.scope).toBe("profile:read cart:read");
    expect(await says(rotated.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    // The access token issued before the refresh lives on until it expires (rotation replaces only the refresh token).
    expect(await says(tokens.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    expect(await listedConnections(browser)).toContain(grantId);

    const reused = await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(reused.status).toBe(400);
    expect(reused.json.error).toBe("invalid_grant");
    // Reuse of a rotated-out refresh token ends the whole grant: every token of it, on the next request.
    expect(await says(rotated.access_token, "buyer_api")).toBe("401 invalid_token");
    expect(await says(tokens.access_token, "buyer_api")).toBe("401 invalid_token");
    expect((await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: rotated.refresh_token! })).json.error).toBe("invalid_grant");
    expect(await listedConnections(browser)).not.toContain(grantId);
  });

  it("a refused refresh changes nothing: after invalid_target (a resource not granted, an unknown one, two at once) or invalid_scope, the same refresh token still refreshes and the grant is whole", async () => {
    const start = await authorizationUrl(agent);
    const tokens = await exchangeCode(agent, await consent(browser, start, ["profile:read", "cart:read"]), start);
    const grantId = await grantOf(tokens.access_token);
    const stored = async () => {
      const { rows } = await pool.query(
        `SELECT model, payload::text AS payload, consumed_at FROM oauth_records WHERE grant_id = $1 ORDER BY model, id_hash`,
        [grantId],
      );
      return rows;
    };
    const before = await stored();
    expect(before.map((r) => r.model)).toEqual(["AccessToken", "AuthorizationCode", "Grant", "RefreshToken"]);

    // The same answers oidc-provider gives (RFC 8707 section 2, RFC 6749 section 5.2).
    const unknown = { error: "invalid_target", error_description: "resource indicator is missing, or unknown" };
    const refusals: [Record<string, string | string[]>, Record<string, string>][] = [
      [{ resource: `${base}/api/agent/mcp` }, unknown],
      [{ resource: `${base}/api/agent/mcp?x=1` }, unknown],
      [{ resource: "https://elsewhere.example/api/v1/buyer" }, unknown],
      [{ resource: [`${base}/api/v1/buyer`, `${base}/api/agent/mcp`] }, { error: "invalid_target", error_description: "only a single resource indicator value must be requested/resolved during Access Token Request" }],
      [{ scope: "profile:read orders:read" }, { error: "invalid_scope", error_description: "refresh token missing requested scope", scope: "orders:read" }],
    ];
    for (const [params, answer] of refusals) {
      const refused = await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, ...params });
      expect(refused.status, JSON.stringify(params)).toBe(400);
      expect(refused.json, JSON.stringify(params)).toEqual(answer);
    }
    // Nothing was written: the refresh token is not consumed, no access token was added, the grant is as it was.
    expect(await stored()).toEqual(before);
    expect(await says(tokens.access_token, "buyer_api")).toBe(`200 ${holder.email}`);

    // The retry with the granted resource (here named; without `resource` it is the same) refreshes.
    const rotated = await refresh(agent, tokens.refresh_token!, { resource: `${base}/api/v1/buyer` });
    expect(rotated.scope).toBe("profile:read cart:read");
    expect(await says(rotated.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    expect(await says(tokens.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    expect(await listedConnections(browser)).toContain(grantId);
    const again = await refresh(agent, rotated.refresh_token!, { scope: "profile:read" });
    expect(again.scope).toBe("profile:read");
    expect(await says(again.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
  });

  it("RFC 7009 revocation of the refresh token ends the grant: every access token of it is 401 on the next request, the refresh token is dead, the connection leaves /account/agents", async () => {
    const start = await authorizationUrl(agent);
    const tokens = await exchangeCode(agent, await consent(browser, start, ["profile:read", "cart:read", "orders:read"]), start);
    const grantId = await grantOf(tokens.access_token);
    const rotated = await refresh(agent, tokens.refresh_token!);
    expect(await says(tokens.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    expect(await says(rotated.access_token, "buyer_api")).toBe(`200 ${holder.email}`);
    expect(await listedConnections(browser)).toContain(grantId);

    const revoked = await oauth.revocationRequest(agent.as, agent.client, oauth.None(), rotated.refresh_token!, agent.options);
    await oauth.processRevocationResponse(revoked);
    const after = await whoAmI(rotated.access_token, "buyer_api");
    expect(after.status).toBe(401);
    expect(after.challenge).toMatch(invalidTokenChallenge("buyer_api"));
    expect(await says(tokens.access_token, "buyer_api")).toBe("401 invalid_token");
    expect((await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: rotated.refresh_token! })).json.error).toBe("invalid_grant");
    expect(await listedConnections(browser)).not.toContain(grantId);
    const { rows } = await pool.query(`SELECT revoked_at FROM agent_connections WHERE grant_id = $1`, [grantId]);
    expect(rows[0].revoked_at).toBeInstanceOf(Date);
  });

  it("RFC 7009 revocation of an access token ends the grant too: the refresh token is dead and the connection leaves /account/agents", async () => {
    const start = await authorizationUrl(agent);
    const tokens = await exchangeCode(agent, await consent(browser, start, ["profile:read"]), start);
    const grantId = await grantOf(tokens.access_token);
    expect(await says(tokens.access_token, "buyer_api")).toBe(`200 ${holder.email}`);

    const revoked = await oauth.revocationRequest(agent.as, agent.client, oauth.None(), tokens.access_token, { ...agent.options, additionalParameters: { token_type_hint: "access_token" } });
    await oauth.processRevocationResponse(revoked);
    expect(await says(tokens.access_token, "buyer_api")).toBe("401 invalid_token");
    expect((await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! })).json.error).toBe("invalid_grant");
    expect(await listedConnections(browser)).not.toContain(grantId);
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
