import { notFoundRoute } from "@/lib/http/not-found";

// /api/mcp and anything under it other than the endpoint itself.
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute("The MCP endpoint is /api/mcp/mcp.");
