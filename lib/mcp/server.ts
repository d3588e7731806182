import { registerAppResource, registerAppTool, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { McpServer, type ToolCallback } from "@modelcontextprotocol/server";
import { absoluteUrl } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { errorOf } from "@/lib/http/errors";
import type { ResourceName } from "@/lib/oauth/resources";
import { withDeprecatedAliases } from "./deprecations";
import { askForApproval, elicitationModeOf, HolderApprovalRequired } from "./elicitation";
import { serverInstructions } from "./instructions";
import { PUBLIC_TOOLS } from "./tools/public";
import type { ToolCaller, ToolDefinition, ToolResult } from "./tools/types";
import { viewHtml, viewMeta, VIEWS, viewUri, type ViewActions, type ViewName } from "./views";

/** The servers' `serverInfo.version`, also their server cards' version. */
export const MCP_SERVER_VERSION = "1.0.0";

const CACHE_HINT = { ttlMs: 300_000, cacheScope: "public" } as const;

/** What a server instance knows of the HTTP request it serves. */
export interface McpRequestContext {
  /** The request's id: `meta.request_id` / `error.request_id` of every result, as in the API. */
  requestId: string;
  /** Names the error of a failed tool call in the request's log line. */
  noteError: (code: string) => void;
  /** The caller (the agent's token on the agent server). */
  caller?: ToolCaller;
  /** The request's `MCP-Protocol-Version` header: a 2025-era call's revision (lib/mcp/elicitation.ts). */
  protocolVersion?: string | null;
  /**
   * A failure the HTTP request must answer itself instead of a tool error (the agent server: a
   * missing scope the domain found is an HTTP 403); true when taken.
   */
  escalate?: (error: AppError) => boolean;
}

/** One MCP server of the app: who it says it is, what it tells agents, and its tools. */
export interface McpSurface {
  name: string;
  title: string;
  /** One line (at most 100 characters: the server card's limit). */
  description: string;
  /** The streamable HTTP endpoint's path. */
  path: string;
  /** The OAuth protected resource guarding the endpoint; none for an open server. */
  resource?: ResourceName;
  instructions: () => string;
  tools: readonly ToolDefinition[];
  cacheScope: "public" | "private";
  /** What the products view's offers do on this server (lib/mcp/views). */
  viewActions: ViewActions;
}

/** The public catalog server (/api/mcp/mcp). */
export const PUBLIC_SURFACE: McpSurface = {
  name: "marketplace",
  title: "Marketplace catalog",
  description: "Search the public catalog, read products and categories, and make cart links.",
  path: "/api/mcp/mcp",
  instructions: serverInstructions,
  tools: withDeprecatedAliases(PUBLIC_TOOLS),
  cacheScope: "public",
  viewActions: "cart-link",
};

/** The API's success body for a tool's result: `{ data, meta }`, or `{ data, next_cursor, meta }` for a list. */
export function resultBody(result: ToolResult, requestId: string): Record<string, unknown> {
  const meta = { ...result.meta, request_id: requestId };
  return "next_cursor" in result ? { data: result.data, next_cursor: result.next_cursor ?? null, meta } : { data: result.data, meta };
}

/**
 * A fresh server for one HTTP request, with the surface's tools. Each result's structured content
 * is the API's response body for the same input: `{ data, meta }` (lists `{ data, next_cursor,
 * meta }`), or `{ error }` with isError set, never a JSON-RPC error for bad arguments.
 */
export function createMcpServer(context: McpRequestContext, surface: McpSurface = PUBLIC_SURFACE): McpServer {
  const hint = { ...CACHE_HINT, cacheScope: surface.cacheScope };
  const server = new McpServer(
    { name: surface.name, title: surface.title, description: surface.description, version: MCP_SERVER_VERSION, websiteUrl: absoluteUrl("/") },
    {
      // Tools and views never change while a server runs, so there is nothing to subscribe to.
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
      instructions: surface.instructions(),
      // 2026-07-28 clients may keep the tool list and server description, as long as the API's
      // category tree (they change only with a release).
      cacheHints: { "tools/list": hint, "server/discover": hint },
    },
  );
  const caller = context.caller ?? {};
  for (const tool of surface.tools) {
    const config = {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations,
    };
    const ui = { ...(tool.view ? { resourceUri: viewUri(tool.view) } : {}), ...(tool.visibility ? { visibility: [...tool.visibility] } : {}) };
    const handler: ToolCallback<ToolDefinition["inputSchema"]> = async (args, ctx) => {
      const called: ToolCaller = { ...caller, elicitation: elicitationModeOf(ctx, context.protocolVersion ?? null) };
      try {
        const result = await tool.run(args, called);
        const body = resultBody(result, context.requestId);
        const text = [...(result.notes ?? []), tool.text(body as unknown as ToolResult)].join("\n");
        return { content: [{ type: "text", text }], structuredContent: body };
      } catch (err) {
        if (err instanceof HolderApprovalRequired && called.elicitation) {
          context.noteError(err.code);
          return askForApproval(err, called.elicitation);
        }
        if (err instanceof AppError && context.escalate?.(err)) throw err;
        const { body } = errorOf(err, context.requestId);
        context.noteError(body.error.code);
        return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { ...body }, isError: true };
      }
    };
    if (tool.view || tool.visibility) registerAppTool(server, tool.name, { ...config, _meta: { ui } }, handler);
    else server.registerTool(tool.name, config, handler);
  }
  for (const view of viewsOf(surface)) {
    const uri = viewUri(view);
    const { title, description } = VIEWS[view];
    registerAppResource(server, `${view}-view`, uri, { title, description, _meta: viewMeta() }, async () => ({
      contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: viewHtml(view, surface.viewActions), _meta: viewMeta() }],
    }));
  }
  return server;
}

/** The views the surface's tools link, each once. */
function viewsOf(surface: McpSurface): ViewName[] {
  return [...new Set(surface.tools.flatMap((tool) => (tool.view ? [tool.view] : [])))];
}
