import { McpServer } from "@modelcontextprotocol/server";
import { absoluteUrl } from "@/lib/config";
import { errorOf } from "@/lib/http/errors";
import { serverInstructions } from "./instructions";
import { TOOLS } from "./tools";

const CACHE_HINT = { ttlMs: 300_000, cacheScope: "public" } as const;

/** What a server instance knows of the HTTP request it serves. */
export interface McpRequestContext {
  /** The request's id: `meta.request_id` / `error.request_id` of every result, as in the API. */
  requestId: string;
  /** Names the error of a failed tool call in the request's log line. */
  noteError: (code: string) => void;
}

/**
 * A fresh server for one HTTP request, with the seven tools. Each result's structured content is
 * the API's response body for the same input: `{ data, meta }`, or `{ error }` with isError set,
 * never a JSON-RPC error for bad arguments.
 */
export function createMcpServer(context: McpRequestContext): McpServer {
  const server = new McpServer(
    { name: "marketplace", title: "Marketplace catalog", version: "1.0.0", websiteUrl: absoluteUrl("/") },
    {
      // Tools never change while a server runs, so there is nothing to subscribe to.
      capabilities: { tools: { listChanged: false } },
      instructions: serverInstructions(),
      // 2026-07-28 clients may keep the tool list and server description, as long as the API's
      // category tree (they change only with a release).
      cacheHints: { "tools/list": CACHE_HINT, "server/discover": CACHE_HINT },
    },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: tool.annotations,
      },
      async (args) => {
        try {
          const result = await tool.run(args);
          const body = { data: result.data, meta: { ...result.meta, request_id: context.requestId } };
          return { content: [{ type: "text", text: tool.text(body) }], structuredContent: body };
        } catch (err) {
          const { body } = errorOf(err, context.requestId);
          context.noteError(body.error.code);
          return { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: { ...body }, isError: true };
        }
      },
    );
  }
  return server;
}
