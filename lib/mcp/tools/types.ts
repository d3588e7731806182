import type { StandardSchemaWithJSON, ToolAnnotations } from "@modelcontextprotocol/server";
import type { OAuthPrincipal } from "@/lib/auth/principal";
import type { BuyerScope } from "@/lib/auth/scopes";
import type { ElicitationMode } from "../elicitation";
import type { ViewName } from "../views";

/**
 * A success body without its request id: the wrapper adds `meta.request_id`, as the API does. A
 * list carries `next_cursor` (`{ data, next_cursor, meta }`, as the buyer API's lists).
 */
export interface ToolResult {
  data: unknown;
  next_cursor?: string | null;
  meta?: Record<string, unknown>;
  /** Lines said before the text rendering only (never part of the structured content). */
  notes?: string[];
}

/** Who calls a tool: nobody on the public server; the agent's token on the agent server. */
export interface ToolCaller {
  principal?: OAuthPrincipal;
  /** How this call can send the agent's person to a page of ours, if it can (lib/mcp/elicitation.ts). */
  elicitation?: ElicitationMode;
}

export interface ToolDefinition {
  name: string;
  title: string;
  /** Written for an agent: when to use the tool, its inputs, paging, what the result means. */
  description: string;
  /** Advertised input schema, generated from the API's zod schema (checked by `run`, not the SDK). */
  inputSchema: StandardSchemaWithJSON<Record<string, unknown>>;
  /** The API's response body: success `{ data, meta }` or error `{ error }`. */
  outputSchema: StandardSchemaWithJSON;
  annotations: ToolAnnotations;
  /**
   * Scopes a token must hold before the call is handed to the tool (the agent server refuses the
   * HTTP request with 403 otherwise): the same as the buyer API operation's access policy.
   */
  scopes?: readonly BuyerScope[];
  /** Validates the arguments as the API validates the same input, then calls the domain. */
  run: (args: Record<string, unknown>, caller: ToolCaller) => Promise<ToolResult>;
  /** Short text rendering of the result (the full JSON is the structured content). */
  text: (result: ToolResult) => string;
  /** The MCP Apps view a host may render the result in (`_meta.ui.resourceUri`, lib/mcp/views). */
  view?: ViewName;
  /**
   * `["app"]`: an app-only tool, called by a view (a button in it) and hidden from the model by
   * MCP Apps hosts (`_meta.ui.visibility`). Omitted: the model's and the views' (the default).
   */
  visibility?: readonly ["app"];
}
