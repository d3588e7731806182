import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/server";
import { absoluteUrl, publicBaseUrl } from "@/lib/config";
import { resourceMetadataUrl } from "@/lib/oauth/resources";
import { AGENT_SURFACE } from "./agent";
import { MCP_SERVER_VERSION, PUBLIC_SURFACE, type McpSurface } from "./server";

/**
 * MCP Server Cards and the AI Catalog that lists them, as the Server Card extension describes
 * them (modelcontextprotocol/experimental-ext-server-card, docs/discovery.md, tracking SEP-2127):
 * each server's card at the location MCP reserves, `GET <streamable-http-url>/server-card`, and
 * the domain's servers listed in `/.well-known/ai-catalog.json`. A card is built from the surface
 * the server itself runs, so the two cannot disagree.
 */

export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
export const AI_CATALOG_MEDIA_TYPE = "application/ai-catalog+json";

/** The servers with a card, in the catalog's order. */
export const CARD_SURFACES: readonly McpSurface[] = [PUBLIC_SURFACE, AGENT_SURFACE];

/** The revision createMcpHandler serves beside the SDK's 2025-era versions (lib/mcp/handler.ts). */
const MODERN_PROTOCOL_VERSION = "2026-07-28";

export function serverCardPath(surface: McpSurface): string {
  return `${surface.path}/server-card`;
}

/** The host in reverse-DNS order, without a port (`shop.example.com` -> `com.example.shop`); an IPv4 address as it is. */
function reverseDnsHost(): string {
  const host = new URL(publicBaseUrl()).hostname;
  return /^\d+(\.\d+){3}$/.test(host) ? host : host.split(".").reverse().join(".");
}

/** The card's `name`: `<reverse-DNS host>/<serverInfo.name>`. */
export function serverCardName(surface: McpSurface): string {
  return `${reverseDnsHost()}/${surface.name}`;
}

/**
 * The Server Card of `surface`: identity as its `serverInfo`, one streamable HTTP remote, and for
 * a server behind OAuth the Authorization header it needs, pointing at its RFC 9728 metadata.
 * No tools: cards leave primitives to `tools/list`.
 */
export function serverCard(surface: McpSurface) {
  const authorization = surface.resource && {
    name: "Authorization",
    description: `OAuth 2.1 bearer access token for this resource; how to get one: ${resourceMetadataUrl(surface.resource)} (RFC 9728).`,
    isRequired: true,
    isSecret: true,
    value: "Bearer {access_token}",
    variables: { access_token: { description: "An access token issued for this server's resource URL.", isRequired: true, isSecret: true } },
  };
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: serverCardName(surface),
    version: MCP_SERVER_VERSION,
    title: surface.title,
    description: surface.description,
    websiteUrl: absoluteUrl("/"),
    remotes: [
      {
        type: "streamable-http" as const,
        url: absoluteUrl(surface.path),
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
        ...(authorization ? { headers: [authorization] } : {}),
      },
    ],
    ...(surface.resource ? { _meta: { "marketplace/oauth-protected-resource": resourceMetadataUrl(surface.resource) } } : {}),
  };
}

/** The domain's AI Catalog: one entry per server, each pointing at its card. */
export function aiCatalog() {
  const host = new URL(publicBaseUrl()).hostname;
  return {
    specVersion: "1.0",
    entries: CARD_SURFACES.map((surface) => ({
      identifier: `urn:air:${host}:mcp:${surface.name}`,
      type: SERVER_CARD_MEDIA_TYPE,
      url: absoluteUrl(serverCardPath(surface)),
    })),
  };
}
