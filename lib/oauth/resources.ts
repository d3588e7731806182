import { absoluteUrl } from "@/lib/config";

/**
 * The two protected resources an OAuth access token can be issued for (RFC 8707): each token has
 * exactly one of them as its audience, and the other refuses it. `path` is the resource's URL
 * path; its RFC 9728 document is served at the path-suffixed well-known URL.
 */
export const RESOURCES = {
  buyer_api: { path: "/api/v1/buyer", name: "Marketplace buyer API" },
  agent_mcp: { path: "/api/agent/mcp", name: "Marketplace agent MCP server" },
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
