/**
 * The official MCP client (@modelcontextprotocol/client 2.x) as an OAuth client of the app: an
 * in-memory OAuthClientProvider (everything a host would persist kept in fields), and a fetch for
 * its transport that sends every request from one client address and records each one. The
 * "redirect" to the authorization URL is only recorded: the test plays the holder's browser.
 * It imports nothing from a test runner.
 */
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { randomIp } from "./oauth-agent";

export class InMemoryOAuthProvider implements OAuthClientProvider {
  client?: StoredOAuthClientInformation;
  saved?: StoredOAuthTokens;
  verifier = "";
  discovery?: OAuthDiscoveryState;
  /** Every authorization URL the SDK sent the user agent to, in order. */
  readonly authorizationUrls: URL[] = [];
  /** Every `invalidateCredentials` scope the SDK asked for, in order. */
  readonly invalidated: string[] = [];

  constructor(
    readonly redirectUrl: string,
    private readonly metadata: Partial<OAuthClientMetadata> = {},
    /** When set, the client's id is this client ID metadata document URL (no registration). */
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP SDK Test Agent",
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      ...this.metadata,
    } as OAuthClientMetadata;
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery") {
    this.invalidated.push(scope);
    if (scope === "all" || scope === "tokens") this.saved = undefined;
    if (scope === "all" || scope === "client") this.client = undefined;
    if (scope === "all" || scope === "verifier") this.verifier = "";
    if (scope === "all" || scope === "discovery") this.discovery = undefined;
  }

  /** The last authorization URL the SDK asked to open. */
  lastAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (!url) throw new Error("the SDK never redirected to authorization");
    return url;
  }
}

export interface RecordedCall {
  method: string;
  url: string;
  status: number;
  wwwAuthenticate: string | null;
  /** The response body, when it is short JSON (OAuth endpoints' errors). */
  body?: string;
}

/** fetch for the transport (and the SDK's OAuth requests): one client address, every call recorded. */
export function recordingFetch(calls: RecordedCall[], ip = randomIp()) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set("X-Forwarded-For", ip);
    const url = input instanceof Request ? input.url : String(input);
    const response = await fetch(input, { ...init, headers, signal: init?.signal ?? AbortSignal.timeout(25_000) });
    const type = response.headers.get("content-type") ?? "";
    const body = type.includes("application/json") && !url.includes("/.well-known/") ? await response.clone().text() : undefined;
    calls.push({ method: init?.method ?? "GET", url, status: response.status, wwwAuthenticate: response.headers.get("www-authenticate"), body });
    return response;
  };
}
