import { publicEndpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/methods";
import { MCP_REQUEST_HEADERS, serveMcp } from "@/lib/mcp/handler";

// Streamable HTTP, POST only and stateless (spec 4.6); no cookie is read.
export const POST = publicEndpoint({ name: "public.mcp", limit: "mcp" }, ({ request, requestId, noteError }) =>
  serveMcp(request, { requestId, noteError }),
);
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { requestHeaders: MCP_REQUEST_HEADERS });
