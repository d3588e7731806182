/**
 * Attacks on the OAuth authorization server, each refused (decisions.md "OAuth, agent MCP and buyer
 * API", RFC 9700). Runs on an app of its own that may fetch client ID metadata documents from
 * loopback (OAUTH_CIMD_ALLOW_LOOPBACK=on, trusting this test's self-signed certificate through
 * NODE_EXTRA_CA_CERTS); the refusal of loopback addresses is checked on the suite's shared app,
 * which runs without that setting. Nothing depends on wall-clock speed: a code "used after 60 s"
 * is aged in the database; the slow document does not answer for a minute, far past the 3 s limit.
 */
import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";
import { Browser, BUYER_SCOPES, agentOptions, authorizationUrl, consent, exchangeCode, readConsentPage, refresh, registerAgent, tokenRequest, type Agent } from "../helpers/oauth-agent";
import * as oauth from "oauth4webapi";

let app: IsolatedApp;
let base = "";
let verify: typeof import("@/lib/oauth/verify").authenticateAccessToken;
let db: typeof import("@/lib/db").db;
let agent: Agent;
let browser: Browser;
let certDir = "";
let docs: https.Server;
let docsBase = "";
const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

async function check(token: string, resource: "buyer_api" | "agent_mcp"): Promise<string> {
  try {
    await verify(db(), token, resource);
    return "ok";
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

function cimdDocument(clientId: string, extra: Record<string, unknown> = {}) {
  return { client_id: clientId, client_name: "CIMD Agent", redirect_uris: ["https://cimd-agent.example/callback"], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], ...extra };
}

beforeAll(async () => {
  certDir = mkdtempSync(path.join(tmpdir(), "oauth-cimd-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path.join(certDir, "key.pem"), "-out", path.join(certDir, "cert.pem"), "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], { stdio: "ignore" });
  docs = https.createServer({ key: readFileSync(path.join(certDir, "key.pem")), cert: readFileSync(path.join(certDir, "cert.pem")) }, (req, res) => {
    const id = `${docsBase}${req.url}`;
    const send = (body: unknown) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url!.startsWith("/good")) return send(cimdDocument(id));
    if (req.url!.startsWith("/big")) return send(cimdDocument(id, { client_name: "x".repeat(6 * 1024) }));
    if (req.url!.startsWith("/slow")) return void setTimeout(() => send(cimdDocument(id)), 60_000).unref();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => docs.listen(0, "127.0.0.1", resolve));
  docsBase = `https://127.0.0.1:${(docs.address() as { port: number }).port}`;

  app = await startIsolatedApp("oauth-attacks", { OAUTH_CIMD_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: path.join(certDir, "cert.pem") });
  base = app.baseUrl;
  process.env.DATABASE_URL = app.database.databaseUrl;
  process.env.PUBLIC_BASE_URL = base;
  verify = (await import("@/lib/oauth/verify")).authenticateAccessToken;
  db = (await import("@/lib/db")).db;
  const email = `attacks-${randomBytes(4).toString("hex")}@example.com`;
  await app.pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Holder', 'shopper', $2)`, [email, await hashPassword(PASSWORD)]);
  agent = await registerAgent(base);
  browser = new Browser(base);
  await browser.signIn(email, PASSWORD);
});

afterAll(async () => {
  await db?.().$disconnect();
  await app?.stop();
  docs?.close();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

/** Opens an authorization URL: the redirect back to the client (an error) or the status of an error page. */
async function authorizeError(url: URL): Promise<{ status: number; error: string | null; location: string | null }> {
  const res = await browser.fetch(url.toString());
  const location = res.headers.get("location");
  const error = location ? new URL(location, base).searchParams.get("error") : null;
  await res.arrayBuffer();
  return { status: res.status, error, location };
}

async function tokensFor(scopes = BUYER_SCOPES, params: Record<string, string | undefined> = {}) {
  const start = await authorizationUrl(agent, params);
  const callback = await consent(browser, start, scopes);
  return { start, callback, tokens: await exchangeCode(agent, callback, start) };
}

describe("PKCE and redirect URIs", () => {
  it("refuses an authorization request without PKCE, or with plain PKCE", async () => {
    const none = await authorizeError((await authorizationUrl(agent, { code_challenge: undefined, code_challenge_method: undefined })).url);
    expect(none.error).toBe("invalid_request");
    const start = await authorizationUrl(agent, { code_challenge_method: "plain" });
    start.url.searchParams.set("code_challenge", "a".repeat(43));
    expect((await authorizeError(start.url)).error).toBe("invalid_request");
  });

  it("refuses a redirect URI that differs by a trailing slash, a query or case (an error page, no redirect)", async () => {
    for (const redirectUri of [`${agent.redirectUri}/`, `${agent.redirectUri}?x=1`, agent.redirectUri.replace("/callback", "/Callback")]) {
      const result = await authorizeError((await authorizationUrl(agent, { redirect_uri: redirectUri })).url);
      expect(result.status, redirectUri).toBe(400);
      expect(result.location).toBeNull();
    }
  });
});

describe("codes", () => {
  it("a code works once; a second use fails and ends the tokens of the first (RFC 9700)", async () => {
    const { start, callback, tokens } = await tokensFor();
    expect(await check(tokens.access_token, "buyer_api")).toBe("ok");
    const again = await tokenRequest(agent, { grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: agent.redirectUri, code_verifier: start.codeVerifier });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe("invalid_grant");
    expect(await check(tokens.access_token, "buyer_api")).toBe("invalid_token");
    expect((await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! })).json.error).toBe("invalid_grant");
  });

  it("a code used after 60 s fails (the stored code aged in the database)", async () => {
    const start = await authorizationUrl(agent);
    const callback = await consent(browser, start, BUYER_SCOPES);
    const code = callback.searchParams.get("code")!;
    const aged = await app.pool.query(
      `UPDATE oauth_records SET expires_at = now() - interval '1 second', payload = jsonb_set(payload, '{exp}', to_jsonb(floor(extract(epoch FROM now()))::bigint - 1))
        WHERE model = 'AuthorizationCode' AND id_hash = $1`,
      [sha256(code)],
    );
    expect(aged.rowCount).toBe(1);
    const late = await tokenRequest(agent, { grant_type: "authorization_code", code, redirect_uri: agent.redirectUri, code_verifier: start.codeVerifier });
    expect(late.status).toBe(400);
    expect(late.json.error).toBe("invalid_grant");
  });

  it("a code with the wrong verifier fails", async () => {
    const start = await authorizationUrl(agent);
    const callback = await consent(browser, start, BUYER_SCOPES);
    const wrong = await tokenRequest(agent, { grant_type: "authorization_code", code: callback.searchParams.get("code")!, redirect_uri: agent.redirectUri, code_verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.json.error).toBe("invalid_grant");
  });
});

describe("refresh tokens", () => {
  it("a refresh token used twice ends the whole grant: the newest access and refresh tokens fail at once", async () => {
    const { tokens } = await tokensFor();
    const newest = await refresh(agent, tokens.refresh_token!);
    expect(await check(newest.access_token, "buyer_api")).toBe("ok");
    const reuse = await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! });
    expect(reuse.json.error).toBe("invalid_grant");
    expect(await check(newest.access_token, "buyer_api")).toBe("invalid_token");
    expect((await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: newest.refresh_token! })).json.error).toBe("invalid_grant");
  });

  it("two refreshes racing with one token: one wins, and the grant ends", async () => {
    const { tokens } = await tokensFor();
    const results = await Promise.all([0, 1].map(() => tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token! })));
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of results.filter((r) => r.status === 200)) expect(await check(r.json.access_token, "buyer_api")).toBe("invalid_token");
  });
});

describe("resources", () => {
  it("a token for one resource is refused by the other", async () => {
    const { tokens } = await tokensFor();
    expect(await check(tokens.access_token, "buyer_api")).toBe("ok");
    expect(await check(tokens.access_token, "agent_mcp")).toBe("invalid_token");
  });

  it("accepts the resource with a trailing slash (the token's audience is exact); refuses one with a query (invalid_target)", async () => {
    const slash = `${base}/api/agent/mcp/`;
    const start = await authorizationUrl(agent, { resource: slash });
    const tokens = await exchangeCode(agent, await consent(browser, start, BUYER_SCOPES), start, slash);
    expect(await check(tokens.access_token, "agent_mcp")).toBe("ok");
    const { rows } = await app.pool.query(`SELECT payload->>'aud' AS aud FROM oauth_records WHERE model = 'AccessToken' AND id_hash = $1`, [sha256(tokens.access_token)]);
    expect(rows[0].aud).toBe(`${base}/api/agent/mcp`);
    for (const resource of [`${base}/api/agent/mcp?x=1`, `${base}/api/agent`, "https://elsewhere.example/api/agent/mcp"]) {
      expect((await authorizeError((await authorizationUrl(agent, { resource })).url)).error, resource).toBe("invalid_target");
    }
    const refreshed = await tokenRequest(agent, { grant_type: "refresh_token", refresh_token: tokens.refresh_token!, resource: `${base}/api/agent/mcp?x=1` });
    expect(refreshed.json.error).toBe("invalid_target");
  });
});

describe("client ID metadata documents", () => {
  const clientIdUrl = (name: string) => `${docsBase}/${name}-${randomBytes(4).toString("hex")}.json`;
  const cimdAuthorization = async (clientId: string) => {
    const start = await authorizationUrl(agent, { client_id: clientId, redirect_uri: "https://cimd-agent.example/callback" });
    return browser.fetch(start.url.toString());
  };

  it("a good document (the control: this setup can fetch) leads to the consent page", async () => {
    const res = await cimdAuthorization(clientIdUrl("good"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/^\/oauth\/consent\//);
    const page = readConsentPage(await (await browser.fetch(res.headers.get("location")!)).text());
    expect(page.html).toContain("CIMD Agent");
  });

  it("refuses a document larger than 5 KB", async () => {
    const res = await cimdAuthorization(clientIdUrl("big"));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("invalid_client");
  });

  it("refuses a document that takes longer than 3 s", async () => {
    const res = await cimdAuthorization(clientIdUrl("slow"));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("invalid_client");
  }, 20_000);

  it("refuses private and link-local addresses, and loopback without the tests' allowance", async () => {
    const shared = new Browser(inject("BASE_URL"));
    const sharedAgent = await registerAgent(inject("BASE_URL"));
    for (const clientId of [`${docsBase}/good-loopback.json`, `https://localhost:${new URL(docsBase).port}/good.json`, "https://10.0.0.1/client.json", "https://169.254.169.254/client.json"]) {
      const start = await authorizationUrl(sharedAgent, { client_id: clientId, redirect_uri: "https://cimd-agent.example/callback" });
      const res = await shared.fetch(start.url.toString());
      expect(res.status, clientId).toBe(400);
      expect(await res.text()).toContain("invalid_client");
    }
  });
});

describe("the consent form", () => {
  async function openConsent() {
    const start = await authorizationUrl(agent);
    const opened = await browser.fetch(start.url.toString());
    const path = opened.headers.get("location")!;
    return { path, form: readConsentPage(await (await browser.fetch(path)).text()) };
  }

  it("refuses a cross-site post (403) and changes nothing", async () => {
    const { form } = await openConsent();
    const res = await browser.postForm(form.action, [["account", form.account], ["scope", "cart:read"], ["decision", "allow"]], { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    const ok = await browser.postForm(form.action, [["account", form.account], ["scope", "cart:read"], ["decision", "allow"]]);
    expect(ok.status).toBe(303);
  });

  it("refuses a replayed post with a clear page, never a 500", async () => {
    const { form } = await openConsent();
    const fields: Array<[string, string]> = [["account", form.account], ["scope", "cart:read"], ["decision", "allow"]];
    const first = await browser.postForm(form.action, fields);
    expect(first.status).toBe(303);
    const second = await browser.postForm(form.action, fields);
    expect(second.status).toBe(409);
    expect(await second.text()).toContain("already answered");
    // And once the request has finished (the browser went back through the server).
    await browser.fetch(first.headers.get("location")!);
    const third = await browser.postForm(form.action, fields);
    expect([404, 409]).toContain(third.status);
    expect(await third.text()).toContain("This request is over");
  });

  it("sends a signed-out visitor to sign in, and back", async () => {
    const { path } = await openConsent();
    const stranger = new Browser(base);
    for (const [k, v] of browser.cookies) if (k.startsWith("oauth_")) stranger.cookies.set(k, v);
    const res = await stranger.fetch(path);
    expect([303, 307]).toContain(res.status);
    expect(res.headers.get("location")).toBe(`/signin?next=${encodeURIComponent(path)}`);
  });
});

describe("rate limits", () => {
  it("registration: 10 an hour per client IP, then 429 with Retry-After and an OAuth-style body", async () => {
    const options = agentOptions("10.77.77.77");
    const as = agent.as;
    for (let i = 0; i < 10; i++) {
      const res = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: ["https://r.example/cb"], token_endpoint_auth_method: "none" }, options);
      expect(res.status, `registration ${i + 1}`).toBe(201);
    }
    const over = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: ["https://r.example/cb"], token_endpoint_auth_method: "none" }, options);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await over.json()).error).toBe("rate_limited");
  });
});
