import { buyerFallbackAccess } from "@/lib/http/access";
import { notFoundRoute } from "@/lib/http/not-found";

// /api/agent and anything under it other than the endpoint itself.
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute("The agent MCP endpoint is /api/agent/mcp.", { access: buyerFallbackAccess(), name: "agent.not_found" });
