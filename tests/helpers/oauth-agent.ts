/**
 * An agent and a browser, over real HTTP, for the OAuth server tests: oauth4webapi plays the agent
 * (discovery, registration, PKCE, `iss` validation, code exchange, refresh, revocation); a small
 * cookie jar plays the holder's browser (the app's sign-in form, the consent page and its form).
 * It imports nothing from a test runner.
 */
import { randomBytes } from "node:crypto";
import * as oauth from "oauth4webapi";
import * as cheerio from "cheerio";

export const BUYER_SCOPES = ["profile:read", "cart:read", "cart:write", "orders:read", "returns:read", "returns:write", "checkout"];

export function randomIp(): string {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `10.${b()}.${b()}.${b()}`;
}

/** A browser: cookies by name (path rules ignored: every cookie goes everywhere, which only helps the app). */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly baseUrl: string,
    readonly ip = randomIp(),
  ) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("X-Forwarded-For", this.ip);
    if (this.cookies.size) headers.set("Cookie", this.cookieHeader());
    const res = await fetch(new URL(url, this.baseUrl), { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(25_000) });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (/max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async postForm(url: string, fields: Array<[string, string]>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(url, { method: "POST", body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });
  }

  /** Signs in with the app's own sign-in form. */
  async signIn(email: string, password: string): Promise<void> {
    const res = await this.postForm("/signin/password", [["email", email], ["password", password], ["next", "/account"]]);
    if (res.status !== 303 || !this.cookieHeader().includes("session-token")) throw new Error(`sign-in failed: ${res.status} ${res.headers.get("location")}`);
  }
}

/** The agent's side: an authorization server discovered and a client registered there. */
export interface Agent {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  redirectUri: string;
  options: { [oauth.allowInsecureRequests]: true; [oauth.customFetch]: typeof fetch };
}

export function agentOptions(ip = randomIp()) {
  return {
    [oauth.allowInsecureRequests]: true as const,
    [oauth.customFetch]: ((url: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      headers.set("X-Forwarded-For", ip);
      return fetch(url, { ...init, headers, redirect: "manual" });
    }) as typeof fetch,
  };
}

export async function discover(baseUrl: string, options = agentOptions()): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(`${baseUrl}/oauth`);
  return oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...options }));
}

export async function registerAgent(baseUrl: string, metadata: Partial<oauth.Client> = {}, options = agentOptions()): Promise<Agent> {
  const as = await discover(baseUrl, options);
  const redirectUri = `https://agent-${randomBytes(4).toString("hex")}.example/callback`;
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], client_name: "Test Agent", ...metadata },
    options,
  );
  const client = (await oauth.processDynamicClientRegistrationResponse(response)) as oauth.Client;
  return { as, client, redirectUri: (client.redirect_uris as string[])[0]!, options };
}

export interface AuthorizationStart {
  url: URL;
  codeVerifier: string;
  state: string;
}

/** An authorization request URL with PKCE S256 and `resource` (overrides replace or, with undefined, remove parameters). */
export async function authorizationUrl(agent: Agent, params: Record<string, string | undefined> = {}): Promise<AuthorizationStart> {
  const codeVerifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(agent.as.authorization_endpoint!);
  const all: Record<string, string | undefined> = {
    client_id: agent.client.client_id,
    redirect_uri: agent.redirectUri,
    response_type: "code",
    scope: BUYER_SCOPES.join(" "),
    resource: agent.as.issuer.replace(/\/oauth$/, "/api/v1/buyer"),
    code_challenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return { url, codeVerifier, state };
}

/** The browser opens the authorization URL: answers the consent page's path (after the redirect). */
export async function openAuthorization(browser: Browser, start: AuthorizationStart): Promise<Response> {
  return browser.fetch(start.url.toString());
}

export interface ConsentPage {
  action: string;
  account: string;
  scopes: Array<{ value: string; label: string; checked: boolean }>;
  html: string;
}

export function readConsentPage(html: string): ConsentPage {
  const $ = cheerio.load(html);
  const form = $("form[action^='/oauth/consent/']");
  if (form.length !== 1) throw new Error(`no consent form in page: ${html.slice(0, 500)}`);
  return {
    action: form.attr("action")!,
    account: form.find("input[name=account]").attr("value") ?? "",
    scopes: form
      .find("input[name=scope]")
      .toArray()
      .map((el) => ({ value: $(el).attr("value")!, label: $(el).parent().text().trim(), checked: $(el).attr("checked") !== undefined })),
    html,
  };
}

/** Follows the browser's redirects on this site until one leaves it (to the client's redirect URI); answers that URL. */
export async function followToClient(browser: Browser, location: string): Promise<URL> {
  let next = new URL(location, browser.baseUrl);
  for (let i = 0; i < 10 && next.origin === new URL(browser.baseUrl).origin; i++) {
    const res = await browser.fetch(next.toString());
    const to = res.headers.get("location");
    if (!to) throw new Error(`expected a redirect from ${next}, got ${res.status}: ${(await res.text()).slice(0, 300)}`);
    next = new URL(to, next);
  }
  return next;
}

/**
 * The whole browser part: open the authorization URL, the consent page, post it with only
 * `scopes` ticked (Allow), follow the redirects back to the client; answers the callback URL.
 */
export async function consent(browser: Browser, start: AuthorizationStart, scopes: string[], decision: "allow" | "deny" = "allow"): Promise<URL> {
  const opened = await openAuthorization(browser, start);
  const consentPath = opened.headers.get("location");
  if (opened.status !== 303 || !consentPath?.includes("/oauth/consent/")) throw new Error(`authorization did not go to consent: ${opened.status} ${consentPath} ${(await opened.text()).slice(0, 300)}`);
  const page = await browser.fetch(consentPath);
  const form = readConsentPage(await page.text());
  const answered = await browser.postForm(form.action, [["account", form.account], ...scopes.map((s): [string, string] => ["scope", s]), ["decision", decision]]);
  if (answered.status !== 303) throw new Error(`consent answer: ${answered.status} ${(await answered.text()).slice(0, 300)}`);
  return followToClient(browser, answered.headers.get("location")!);
}

export async function exchangeCode(agent: Agent, callback: URL, start: AuthorizationStart, resource?: string) {
  const params = oauth.validateAuthResponse(agent.as, agent.client, callback, start.state);
  const response = await oauth.authorizationCodeGrantRequest(agent.as, agent.client, oauth.None(), params, agent.redirectUri, start.codeVerifier, {
    ...agent.options,
    ...(resource ? { additionalParameters: { resource } } : {}),
  });
  return oauth.processAuthorizationCodeResponse(agent.as, agent.client, response);
}

export async function refresh(agent: Agent, refreshToken: string, additionalParameters?: Record<string, string>) {
  const response = await oauth.refreshTokenGrantRequest(agent.as, agent.client, oauth.None(), refreshToken, { ...agent.options, additionalParameters });
  return oauth.processRefreshTokenResponse(agent.as, agent.client, response);
}

/** The raw token endpoint answer (for refusals): status and JSON body. A list value repeats its parameter. */
export async function tokenRequest(agent: Agent, body: Record<string, string | string[]>): Promise<{ status: number; json: any }> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ client_id: agent.client.client_id, ...body })) for (const v of [value].flat()) form.append(name, v);
  const res = await agent.options[oauth.customFetch](agent.as.token_endpoint!, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: form,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}
