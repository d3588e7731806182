import { createMcpHandler, type McpServer, type Server } from "@modelcontextprotocol/server";
import { MAX_BODY_BYTES } from "@/lib/http/body";
import { logError } from "@/lib/http/log";
import { createMcpServer, PUBLIC_SURFACE, type McpRequestContext, type McpSurface } from "./server";

/** Request headers a browser-based MCP client may send (CORS preflight). */
export const MCP_REQUEST_HEADERS = ["Content-Type", "Accept", "Mcp-Protocol-Version", "Mcp-Method", "Mcp-Name", "Last-Event-ID", "X-Request-Id"];

/**
 * Serves one POST to the MCP endpoint with the SDK's createMcpHandler: the 2026-07-28 revision
 * (stateless by design) and, for 2025-era clients that open with `initialize`, its stateless
 * fallback (no session id). The handler is made per request so that its server knows the
 * request id; nothing outlives the request.
 */
export async function serveMcp(request: Request, context: McpRequestContext, surface: McpSurface = PUBLIC_SURFACE): Promise<Response> {
  return serveMcpWith(request, context.requestId, () => createMcpServer(context, surface));
}

/** One POST answered by a fresh server from `factory` (UCP's binding builds its own). */
export async function serveMcpWith(request: Request, requestId: string, factory: () => McpServer | Server): Promise<Response> {
  let failure: Error | undefined;
  const handler = createMcpHandler(factory, {
    maxRequestBodySize: MAX_BODY_BYTES,
    // Reporting only: rejected requests (a client's mistake) land here too.
    onerror: (error) => (failure = error),
  });
  const response = await handler.fetch(request);
  if (response.status >= 500 && failure) logError(requestId, failure);
  return response;
}
