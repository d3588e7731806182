import { absoluteUrl } from "@/lib/config";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import type { ConnectionGuideData } from "@/lib/schemas/mcp";

export const MCP_PATH = "/api/mcp/mcp";

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
    notes: [
      "No account, key, OAuth or cookie: the server is public, read-only except for cart links, and stateless (POST only; GET answers 405).",
      `Rate limit per client IP: a burst of ${capacity} requests, then ${refillPerSecond} per second. Over it the HTTP answer is 429 with Retry-After (seconds): wait that long. Responses carry X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset.`,
      "Send a descriptive User-Agent naming your agent and how to reach you.",
      "Purchases stay with people: create_cart_link returns a link for a person to open; no tool places an order or takes a payment.",
      `The same catalog is a JSON API at ${absoluteUrl("/api/public/v1")} (OpenAPI: ${absoluteUrl("/api/public/v1/openapi.json")}).`,
    ],
    docs_url: absoluteUrl("/help/for-agents-public-api"),
  };
}
