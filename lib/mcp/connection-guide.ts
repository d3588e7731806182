import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { absoluteUrl } from "@/lib/config";
import { RESOURCES, resourceMetadataUrl } from "@/lib/oauth/resources";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import type { ConnectionGuideData } from "@/lib/schemas/mcp";

export const MCP_PATH = "/api/mcp/mcp";
/** Where the authorization server's RFC 8414 metadata is served (its issuer is `{base}/oauth`). */
export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server/oauth";

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** How to connect common MCP clients to this server, with this deployment's absolute URLs. */
export function connectionGuide(): ConnectionGuideData {
  const url = absoluteUrl(MCP_PATH);
  const { capacity, refillPerSecond } = RATE_LIMITS.mcp;
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_products", arguments: { q: "headphones", page_size: 5 } } };
  return {
    server_url: url,
    transport: "streamable-http",
    authentication: "none",
    clients: [
      {
        client: "claude_code",
        name: "Claude Code",
        steps: "Run this in a terminal. It adds the server to the current project; add `--scope user` for every project.",
        snippet: `claude mcp add --transport http marketplace ${url}`,
        snippet_language: "shell",
      },
      {
        client: "claude_desktop",
        name: "Claude Desktop",
        steps:
          "Settings > Connectors > Add custom connector: give it a name and this URL; it needs no authentication. A version without custom connectors can reach it through the mcp-remote bridge in claude_desktop_config.json:",
        snippet: json({ mcpServers: { marketplace: { command: "npx", args: ["-y", "mcp-remote", url] } } }),
        snippet_language: "json",
      },
      {
        client: "cursor",
        name: "Cursor",
        steps: "Add this to ~/.cursor/mcp.json (or .cursor/mcp.json in a project), then turn the server on in Cursor's MCP settings.",
        snippet: json({ mcpServers: { marketplace: { url } } }),
        snippet_language: "json",
      },
      {
        client: "vscode",
        name: "Visual Studio Code (agent mode)",
        steps: "Add this to .vscode/mcp.json in the workspace, or run \"MCP: Add Server\", choose HTTP and paste the URL.",
        snippet: json({ servers: { marketplace: { type: "http", url } } }),
        snippet_language: "json",
      },
      {
        client: "mcp_inspector",
        name: "MCP Inspector",
        steps:
          "Lists the tools from a terminal. Without --cli the Inspector opens its web UI: choose the Streamable HTTP transport and paste the URL.",
        snippet: `npx @modelcontextprotocol/inspector --cli ${url} --transport http --method tools/list`,
        snippet_language: "shell",
      },
      {
        client: "generic",
        name: "Any streamable HTTP client",
        steps:
          "POST JSON-RPC to the URL with Content-Type: application/json and Accept: application/json, text/event-stream. Clients of the 2025 revisions may open with initialize (no session id is issued; send none), clients of the 2026-07-28 revision send each request with its _meta envelope. A single tools/call works without a handshake:",
        snippet: `curl -s ${url} \\\n  -H 'Content-Type: application/json' \\\n  -H 'Accept: application/json, text/event-stream' \\\n  -H 'User-Agent: example-agent/1.0 (+https://agent.example.com)' \\\n  -d '${JSON.stringify(call)}'`,
        snippet_language: "shell",
      },
    ],
    agent_server: {
      server_url: absoluteUrl(RESOURCES.agent_mcp.path),
      transport: "streamable-http",
      authentication: "oauth",
      authorization_server_metadata_url: absoluteUrl(AUTHORIZATION_SERVER_METADATA_PATH),
      protected_resource_metadata_url: resourceMetadataUrl("agent_mcp"),
      scopes: [...BUYER_SCOPES],
      buyer_api_url: absoluteUrl(RESOURCES.buyer_api.path),
      buyer_openapi_url: absoluteUrl(`${RESOURCES.buyer_api.path}/openapi.json`),
      manage_url: absoluteUrl("/account/agents"),
      summary:
        `To act for a person (their cart, checkout, orders and returns), connect to ${absoluteUrl(RESOURCES.agent_mcp.path)} instead: the same catalog tools plus the holder's. ` +
        "It uses OAuth: an unauthenticated request answers 401 with WWW-Authenticate pointing at its protected resource metadata, which names the authorization server; " +
        "MCP clients with OAuth support (Claude Code, Claude Desktop, Cursor, VS Code) then register and open the sign-in and consent page in a browser. " +
        "The person signs in, grants each scope one by one on the consent page, and can revoke the agent at any time on /account/agents, where they also set whether agents may place orders and their spending limits.",
    },
    notes: [
      "No account, key, OAuth or cookie: the server is public, read-only except for cart links, and stateless (POST only; GET answers 405).",
      `Rate limit per client IP: a burst of ${capacity} requests, then ${refillPerSecond} per second. Over it the HTTP answer is 429 with Retry-After (seconds): wait that long. Responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.`,
      "Send a descriptive User-Agent naming your agent and how to reach you.",
      "Purchases stay with people: create_cart_link returns a link for a person to open; no tool places an order or takes a payment.",
      `Agents acting for an account holder connect to the authenticated server ${absoluteUrl(RESOURCES.agent_mcp.path)} (OAuth) or use the buyer API ${absoluteUrl(RESOURCES.buyer_api.path)} (OpenAPI: ${absoluteUrl(`${RESOURCES.buyer_api.path}/openapi.json`)}); see agent_server.`,
      `The same catalog is a JSON API at ${absoluteUrl("/api/public/v1")} (OpenAPI: ${absoluteUrl("/api/public/v1/openapi.json")}).`,
    ],
    docs_url: absoluteUrl("/help/for-agents-public-api"),
  };
}
