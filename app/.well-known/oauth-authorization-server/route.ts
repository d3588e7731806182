import { authorizationServerMetadataRoute } from "@/lib/http/oauth-metadata";

export const dynamic = "force-dynamic";

// RFC 8414 metadata of the issuer `${PUBLIC_BASE_URL}/oauth`. The path-inserted URL
// (/.well-known/oauth-authorization-server/oauth) is the standard one; the MCP TypeScript client also
// tries /.well-known/openid-configuration/oauth, and clients of the 2025-03-26 MCP revision read
// the root documents (/.well-known/oauth-authorization-server, /.well-known/openid-configuration).
export const { GET, OPTIONS } = authorizationServerMetadataRoute();
