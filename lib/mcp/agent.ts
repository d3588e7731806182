import { oauthPrincipalOf } from "@/lib/auth/principal";
import { type BuyerScope, missingScopes } from "@/lib/auth/scopes";
import { AppError } from "@/lib/errors";
import { oauthAccess } from "@/lib/http/access";
import { readBodyBytes } from "@/lib/http/body";
import { pipeline, type RequestCtx } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { readYourWrites } from "@/lib/http/policies/read-your-writes";
import { RESOURCES } from "@/lib/oauth/resources";
import { withDeprecatedAliases } from "./deprecations";
import { serveMcp } from "./handler";
import { agentInstructions } from "./instructions";
import type { McpSurface } from "./server";
import { AGENT_TOOLS } from "./tools/agent";

/** The authenticated server for agents acting for an account holder (/api/agent/mcp). */
export const AGENT_SURFACE: McpSurface = {
  name: "marketplace-agent",
  title: "Marketplace for agents",
  description: "The catalog tools plus an account holder's cart, checkout, orders and returns (OAuth 2.1).",
  path: RESOURCES.agent_mcp.path,
  resource: "agent_mcp",
  instructions: agentInstructions,
  tools: withDeprecatedAliases(AGENT_TOOLS),
  cacheScope: "private",
  viewActions: "cart",
};

const TOOL_SCOPES = new Map(AGENT_SURFACE.tools.map((tool) => [tool.name, tool.scopes ?? []]));

/**
 * The tools a JSON-RPC body calls (one message, or a batch of them). A body that is not JSON, or
 * too large, calls none as far as this check goes: the SDK refuses it.
 */
async function toolCallsOf(request: Request): Promise<string[]> {
  let parsed: unknown;
  try {
    const bytes = await readBodyBytes(request.clone(), () => new Error("too large"));
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    return [];
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages.flatMap((m) => {
    const message = m as { method?: unknown; params?: { name?: unknown } } | null;
    return message?.method === "tools/call" && typeof message.params?.name === "string" ? [message.params.name] : [];
  });
}

/**
 * One POST to the agent MCP server, after its caller policies. Scopes are checked before the SDK
 * sees the request (decisions.md: a call whose scope the token lacks is an HTTP 403 with the
 * `insufficient_scope` challenge, not a tool error), and a `scope_missing` the domain raises in a
 * tool (checkout's last rule) becomes the same 403: a tool call's answer is read whole before it
 * goes out, so it can still be replaced.
 */
async function serveAgent(ctx: RequestCtx): Promise<Response> {
  const principal = oauthPrincipalOf(ctx.principal!);
  const calls = await toolCallsOf(ctx.request);
  const required = [...new Set(calls.flatMap((name) => TOOL_SCOPES.get(name) ?? []))] as BuyerScope[];
  const missing = missingScopes(principal.scopes, required);
  if (missing.length > 0) {
    throw new AppError("scope_missing", `This tool call needs the scope ${missing.map((s) => `'${s}'`).join(" and ")}, which this token was not granted.`, undefined, {
      requiredScopes: required,
    });
  }

  let escalated: AppError | undefined;
  const response = await serveMcp(
    ctx.request,
    {
      requestId: ctx.requestId,
      noteError: (code) => (ctx.failure = code),
      caller: { principal },
      protocolVersion: ctx.request.headers.get("mcp-protocol-version"),
      escalate: (error) => {
        if (error.code !== "scope_missing" || !error.requiredScopes) return false;
        escalated = error;
        return true;
      },
    },
    AGENT_SURFACE,
  );
  if (calls.length === 0) return response;
  const body = await response.text();
  if (escalated) throw escalated;
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * POST /api/agent/mcp: request id and log line; an access token for `agent_mcp` (401 with
 * `WWW-Authenticate` pointing at its resource metadata otherwise), the grant's bucket (shared with
 * the buyer API); no CORS, no cookie; a tool that wrote (checkout) answers once this instance
 * heard its catalog changes (readYourWrites).
 */
export const agentMcpPost = pipeline("agent.mcp", [observe, ...oauthAccess("agent_mcp", []).policies, readYourWrites], serveAgent);
