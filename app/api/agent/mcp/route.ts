import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { agentMcpPost } from "@/lib/mcp/agent";

// Streamable HTTP, POST only and stateless, as the public server; an OAuth access token, no cookie, no CORS.
export const POST = agentMcpPost;
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: buyerFallbackAccess(), name: "agent.mcp.method_not_allowed" });
