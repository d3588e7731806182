import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { absoluteUrl, publicBaseUrl } from "@/lib/config";

/**
 * The protected resources an OAuth access token can be issued for (RFC 8707): each token has
 * exactly one of them as its audience, and the others refuse it. `path` is the resource's URL
 * path; its RFC 9728 document is served at the path-suffixed well-known URL. The UCP endpoint's
 * tokens are UCP identity linking: a platform acting for a linked account holder.
 */
export const RESOURCES = {
  buyer_api: { path: "/api/v1/buyer", name: "Marketplace buyer API" },
  agent_mcp: { path: "/api/agent/mcp", name: "Marketplace agent MCP server" },
  ucp: { path: "/api/ucp", name: "Marketplace UCP endpoint" },
} as const;

export type ResourceName = keyof typeof RESOURCES;
export const RESOURCE_NAMES = Object.keys(RESOURCES) as ResourceName[];

/** The resource identifier: exactly the endpoint URL, no trailing slash (the audience of its tokens). */
export function resourceUrl(resource: ResourceName): string {
  return absoluteUrl(RESOURCES[resource].path);
}

/** Where the resource's RFC 9728 protected resource metadata is served. */
export function resourceMetadataUrl(resource: ResourceName): string {
  return absoluteUrl(`/.well-known/oauth-protected-resource${RESOURCES[resource].path}`);
}

/**
 * The resource a `resource` parameter (RFC 8707) names, or undefined. Real MCP clients vary the
 * URL they send: the exact endpoint URL and the same URL with one trailing slash are the same
 * resource; anything else (a query string, another path, another origin) names none.
 */
export function resourceNamed(value: string): ResourceName | undefined {
  const exact = value.endsWith("/") ? value.slice(0, -1) : value;
  return RESOURCE_NAMES.find((name) => resourceUrl(name) === exact);
}

/** The resource an authorization request gets when it names none: the agent MCP server. */
export const DEFAULT_RESOURCE: ResourceName = "agent_mcp";

/** Where the authorization server is mounted: its issuer is `${PUBLIC_BASE_URL}/oauth`. */
export const OAUTH_MOUNT = "/oauth";

/** The authorization server's issuer identifier (RFC 8414), also `iss` in authorization responses. */
export function issuer(): string {
  return `${publicBaseUrl()}${OAUTH_MOUNT}`;
}

/**
 * The resource's RFC 9728 protected resource metadata: `resource` exactly the endpoint URL, this
 * app's authorization server, the buyer scopes (never `offline_access`: refresh tokens come
 * without it), tokens in the Authorization header only.
 */
export function protectedResourceMetadata(resource: ResourceName) {
  return {
    resource: resourceUrl(resource),
    resource_name: RESOURCES[resource].name,
    authorization_servers: [issuer()],
    scopes_supported: [...BUYER_SCOPES],
    bearer_methods_supported: ["header"],
  };
}
