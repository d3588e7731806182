import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { PUBLIC_SURFACE } from "@/lib/mcp/server";
import { SERVER_CARD_MEDIA_TYPE, serverCard } from "@/lib/mcp/server-card";

export const dynamic = "force-dynamic";

/** The public MCP server's Server Card, at the location MCP reserves (lib/mcp/server-card.ts). */
export const GET = publicRoute({ name: "public.mcp.server_card", limit: "catalog", cache: "document" }, async () => ({
  text: JSON.stringify(serverCard(PUBLIC_SURFACE)),
  contentType: SERVER_CARD_MEDIA_TYPE,
}));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
