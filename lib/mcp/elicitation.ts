import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  PROTOCOL_VERSION_META_KEY,
  UrlElicitationRequiredError,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";

/**
 * Consent by URL elicitation: how a tool call sends the agent's person to a page of ours (the
 * holder's approval of an order their agent settings refuse, lib/agents/approvals.ts) and how
 * the agent's retry comes back.
 *
 * - 2026-07-28: an `input_required` result with one URL elicitation (key `holder_approval`),
 *   when the request's client capabilities declare `elicitation.url`; the client opens the page
 *   and retries the call with the person's answer in `inputResponses`. Nothing rides in
 *   `requestState`: the approval is found again by the priced order it covers.
 * - 2025-11-25 (URL elicitation's first revision): the error `-32042` (URLElicitationRequired)
 *   with the elicitation in `data.elicitations`; the client retries once the person is done. A
 *   stateless server cannot know what that client declared at `initialize`, so every 2025-11-25
 *   client gets it; its message says the refusal and the page in words for one that cannot open
 *   it.
 * - Earlier revisions, and 2026-07-28 clients without `elicitation.url`: the refusal as a tool
 *   error, as before.
 */

/** The key of the one input request in an input-required result. */
export const APPROVAL_INPUT = "holder_approval";

/** How a tool call can ask for the holder's approval: in-band (`input_required`), as the -32042 error, or not at all. */
export type ElicitationMode = "input_required" | "error";

/** The first protocol revision with URL elicitation. */
const URL_ELICITATION_SINCE = "2025-11-25";

/**
 * How this call can send the person to a URL. `httpProtocolVersion` is the request's
 * `MCP-Protocol-Version` header (a 2025-era request carries no envelope). A 2026-07-28 retry in
 * which the person declined or cancelled opening the page asks no more.
 */
export function elicitationModeOf(ctx: ServerContext, httpProtocolVersion: string | null): ElicitationMode | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] !== undefined) {
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
    if (!capabilities?.elicitation?.url) return undefined;
    const answer = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
    if (answer.kind === "elicit" && answer.action !== "accept") return undefined;
    return "input_required";
  }
  return httpProtocolVersion !== null && httpProtocolVersion >= URL_ELICITATION_SINCE ? "error" : undefined;
}

/** A tool's request for the holder's approval at `url` (the page of approval `id`); `refusal` says why, in the refusal's words. */
export class HolderApprovalRequired extends Error {
  constructor(
    readonly id: string,
    readonly url: string,
    readonly code: string,
    readonly refusal: string,
  ) {
    super(`${code}: ${refusal} The account holder can approve this order: they open ${url} (signed in), then you retry the same call.`);
    this.name = "HolderApprovalRequired";
  }

  /** The elicitation's message: shown to the person by their client, next to the URL (which it must not contain). */
  get prompt(): string {
    return `Your agent wants to place an order that your agent settings do not allow: ${this.refusal} Open the page to see the order, then approve or decline it.`;
  }
}

/** The answer that asks: the input-required result, or the -32042 error thrown. */
export function askForApproval(request: HolderApprovalRequired, mode: ElicitationMode): InputRequiredResult {
  if (mode === "input_required") {
    return inputRequired({ inputRequests: { [APPROVAL_INPUT]: inputRequired.elicitUrl({ message: request.prompt, url: request.url }) } });
  }
  throw new UrlElicitationRequiredError([{ mode: "url", elicitationId: request.id, url: request.url, message: request.prompt }], request.message);
}
