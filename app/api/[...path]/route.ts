import { notFoundRoute } from "@/lib/http/not-found";

// Anything under /api/ that no API serves (a path that normalizes out of its API, `/api/x/../y`,
// lands here too): the 404 envelope, naming where the APIs are.
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute(
  "The APIs are /api/public/v1, /api/v1 (sellers) and /api/v1/buyer; the MCP servers /api/mcp/mcp and /api/agent/mcp.",
);
