import { ucpOtherMethods } from "@/lib/http/protocols/ucp";
import { ucpMcpPost } from "@/lib/mcp/ucp";

// UCP's MCP binding: streamable HTTP, POST only and stateless; GET answers 405 in UCP's shape.
export const POST = ucpMcpPost;
export const { OPTIONS, GET, PUT, PATCH, DELETE } = ucpOtherMethods(["POST"]);
