import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { AI_CATALOG_MEDIA_TYPE, aiCatalog } from "@/lib/mcp/server-card";

export const dynamic = "force-dynamic";

/** The domain's AI Catalog: where each MCP server's Server Card is (lib/mcp/server-card.ts). */
export const GET = publicRoute({ name: "mcp.ai_catalog", limit: "catalog", cache: "document" }, async () => ({
  text: JSON.stringify(aiCatalog()),
  contentType: AI_CATALOG_MEDIA_TYPE,
}));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
