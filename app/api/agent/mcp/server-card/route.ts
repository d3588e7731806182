import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { AGENT_SURFACE } from "@/lib/mcp/agent";
import { SERVER_CARD_MEDIA_TYPE, serverCard } from "@/lib/mcp/server-card";

export const dynamic = "force-dynamic";

/** The agent MCP server's Server Card: public, like its protected resource metadata (lib/mcp/server-card.ts). */
export const GET = publicRoute({ name: "agent.mcp.server_card", limit: "catalog", cache: "document" }, async () => ({
  text: JSON.stringify(serverCard(AGENT_SURFACE)),
  contentType: SERVER_CARD_MEDIA_TYPE,
}));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
