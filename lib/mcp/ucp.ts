import { INTERNAL_ERROR, INVALID_PARAMS, ProtocolError, Server, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { absoluteUrl } from "@/lib/config";
import { AppError } from "@/lib/errors";
import { validateJson } from "@/lib/http/body";
import { pipeline, type RequestCtx } from "@/lib/http/pipeline";
import { onceByKey } from "@/lib/http/policies/idempotency";
import { observeWith } from "@/lib/http/policies/observe";
import { ipRateLimit } from "@/lib/http/policies/rate-limit";
import { ucpCallerOf, ucpErrorOf, ucpErrorResponse, ucpIdentity, ucpPlatformKey } from "@/lib/http/protocols/ucp";
import { negotiate, refusal, UCP_VERSION, type UcpCheckout, type UcpErrorBody } from "@/lib/protocols/ucp";
import { serveMcpWith } from "./handler";
import { UCP_TOOLS, UcpMeta, type ArgumentPath, type UcpMetaData, type UcpTool } from "./tools/ucp";

/**
 * UCP's MCP binding (checkout-mcp.md, 2026-01-11) at /api/ucp/mcp: streamable HTTP, stateless,
 * the checkout tools of lib/mcp/tools/ucp.ts. The platform names its profile in `_meta.ucp`
 * (the tool call's `_meta`, or its arguments'), negotiated as the REST binding's `UCP-Agent`
 * header. A result is the checkout object as structured content (and as JSON text). An error is
 * a JSON-RPC error whose `data` is the UCP error object the REST binding answers with, as the
 * binding's "Error Handling" says; the low-level Server is used because McpServer turns anything
 * a tool throws into a tool result.
 */

/** What the request's HTTP policies found: its id, and a linked holder's token (identity linking). */
interface UcpMcpContext {
  requestId: string;
  principal?: Principal;
  noteError: (code: string) => void;
}

const TOOLS = new Map(UCP_TOOLS.map((tool) => [tool.name as string, tool]));

let listed: Array<Record<string, unknown>> | undefined;
function toolList() {
  return (listed ??= UCP_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.arguments, { io: "input" }),
    annotations: tool.annotations,
  })));
}

/**
 * Anything thrown, as the binding's JSON-RPC error: what the arguments got wrong (a UCP 400) or
 * named that does not exist (404) is -32602 Invalid params, as MCP answers an unknown tool or
 * resource; every other refusal is -32603 with its UCP code, as the binding's example shows.
 */
function rpcError(err: unknown, requestId: string, place: ArgumentPath = (path) => path): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const { status, body } = ucpErrorOf(err, requestId);
  const data: UcpErrorBody = { ...body, messages: body.messages.map((m) => (m.path ? { ...m, path: place(m.path) } : m)) };
  return new ProtocolError(status === 400 || status === 404 ? INVALID_PARAMS : INTERNAL_ERROR, body.detail, data);
}

/** A schema's first problem as UCP's refusal, its path into what was validated (`at`). */
function validated<S extends z.ZodType>(schema: S, value: unknown, at: string): z.output<S> {
  try {
    return validateJson(schema, value);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const path = err.param ? `${at}.${err.param}` : at;
    throw refusal(400, [{ type: "error", code: err.code === "parameter_missing" ? "missing" : "invalid", path, content: err.message, severity: "recoverable" }]);
  }
}

/** The platform's `_meta.ucp` (arguments first, then the call's), its version negotiated. */
function platformOf(callMeta: unknown, argsMeta: UcpMetaData | undefined) {
  const fromCall = callMeta && typeof callMeta === "object" && "ucp" in callMeta ? validated(UcpMeta, { ucp: callMeta.ucp }, "$._meta").ucp : undefined;
  const ucp = argsMeta?.ucp ?? fromCall;
  const agent = { profile: ucp?.profile ?? null, version: ucp?.version ?? null };
  negotiate(agent);
  return agent;
}

async function callTool(tool: UcpTool, params: { arguments?: unknown; _meta?: unknown }, context: UcpMcpContext): Promise<UcpCheckout> {
  // The SDK has checked that arguments, when given, are an object (MCP's own rule).
  const raw = (params.arguments ?? {}) as Record<string, unknown>;
  if ("checkout" in tool.arguments.shape && !("checkout" in raw) && "line_items" in raw) {
    // checkout-mcp.md's examples spread the checkout's fields; mcp.openrpc.json names the argument.
    const content = "Missing required field 'checkout': the checkout's fields (line_items, currency, buyer, fulfillment) go in the checkout argument.";
    throw refusal(400, [{ type: "error", code: "missing", path: "$.checkout", content, severity: "recoverable" }]);
  }
  const args = validated(tool.arguments, raw, "$") as { _meta?: UcpMetaData; idempotency_key?: string };
  const agent = platformOf(params._meta, args._meta);
  const caller = ucpCallerOf(agent.profile, context.principal);
  const run = async () => {
    try {
      return await tool.run(args as never, caller);
    } catch (err) {
      throw rpcError(err, context.requestId, tool.paths(args as never));
    }
  };
  if (args.idempotency_key === undefined) return run();
  // Kept with the REST binding's keys, per platform (and linked holder): a retry with the same
  // arguments answers the first checkout; other arguments under the same key are refused.
  const { idempotency_key: key, ...asked } = args;
  const outcome = await onceByKey(
    { owner: ucpPlatformKey(agent.profile, context.principal), key, method: "tools/call", path: tool.name, body: { ...asked, _meta: undefined }, param: "idempotency_key" },
    async () => {
      const checkout = await run();
      return { answer: checkout, keep: { status: 200, response: checkout } };
    },
  );
  return "replayed" in outcome ? (outcome.replayed.response as UcpCheckout) : outcome.answer;
}

function createUcpMcpServer(context: UcpMcpContext): Server {
  const server = new Server(
    { name: "marketplace-ucp", title: "Marketplace UCP checkout", version: UCP_VERSION, websiteUrl: absoluteUrl("/") },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: `UCP ${UCP_VERSION} shopping service over MCP: create_checkout, get_checkout, update_checkout, complete_checkout, cancel_checkout. Send your platform profile in _meta.ucp.profile. The business profile is ${absoluteUrl("/.well-known/ucp")}.`,
    },
  );
  server.setRequestHandler("tools/list", async () => ({ tools: toolList() as never }));
  server.setRequestHandler("tools/call", async (request) => {
    try {
      const tool = TOOLS.get(request.params.name);
      if (!tool) throw new AppError("route_not_found", `No tool '${request.params.name.slice(0, 100)}': the tools are ${UCP_TOOLS.map((t) => t.name).join(", ")}.`);
      const checkout = await callTool(tool, request.params, context);
      const result: CallToolResult = { content: [{ type: "text", text: JSON.stringify(checkout) }], structuredContent: checkout };
      return server.projectCallToolResult(result, undefined);
    } catch (err) {
      const error = rpcError(err, context.requestId);
      context.noteError((error.data as UcpErrorBody | undefined)?.code ?? "internal_error");
      throw error;
    }
  });
  return server;
}

function serve(ctx: RequestCtx): Promise<Response> {
  return serveMcpWith(ctx.request, ctx.requestId, () => createUcpMcpServer({ requestId: ctx.requestId, principal: ctx.principal, noteError: (code) => (ctx.failure = code) }));
}

/**
 * POST /api/ucp/mcp: request id and log line, the UCP bucket per client IP (shared with the REST
 * binding), identity linking as over REST (a token issued for the UCP endpoint; none is a guest),
 * then the MCP server. What fails before MCP (rate limit, a bad token) is UCP's HTTP error answer.
 */
export const ucpMcpPost = pipeline("ucp.mcp", [observeWith(ucpErrorResponse), ipRateLimit("protocol", "ucp"), ucpIdentity], serve);
