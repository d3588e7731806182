import { protectedResourceMetadataRoute } from "@/lib/http/oauth-metadata";

export const dynamic = "force-dynamic";

/** RFC 9728 metadata of the agent MCP server (/api/agent/mcp). */
export const { GET, OPTIONS } = protectedResourceMetadataRoute("agent_mcp");
