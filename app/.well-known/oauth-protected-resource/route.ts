import { protectedResourceMetadataRoute } from "@/lib/http/oauth-metadata";

export const dynamic = "force-dynamic";

// RFC 9728 metadata at the root well-known URL: the agent MCP server's (/api/agent/mcp), which MCP
// clients look for here when the path-suffixed URL is not tried first.
export const { GET, OPTIONS } = protectedResourceMetadataRoute("agent_mcp");
