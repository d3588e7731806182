import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { negotiate, parseUcpAgent, ucpError, type UcpCaller, type UcpErrorBody } from "@/lib/protocols/ucp";
import { errorOf } from "../errors";
import { pipeline, type Policy, type RequestCtx } from "../pipeline";
import { principalKey, type Principal } from "@/lib/auth/principal";
import { claimedIdempotencyFor } from "../policies/idempotency";
import { oauthCaller } from "../policies/oauth-token";
import { observeWith } from "../policies/observe";
import { ipRateLimit } from "../policies/rate-limit";
import { protocolRoute, type ProtocolHandlerContext, type ProtocolResult } from "../protocol-route";

/**
 * The UCP REST binding's policies: who calls (the `UCP-Agent` header, read and its version
 * negotiated before anything else is done), Idempotency-Key on every write (records kept per
 * platform; a replay is the first answer byte for byte), and errors in UCP's shape.
 */

/**
 * Whose idempotency records a UCP request's are: its platform's (the profile it names), and within
 * it the linked holder's when a token came. The REST and MCP bindings share them.
 */
export function ucpPlatformKey(profile: string | null, principal?: Principal): string {
  const platform = `ucp:${profile ?? "-"}`;
  return principal?.kind === "oauth" ? `${platform}\n${principalKey(principal)}` : platform;
}

export const ucpAgent: Policy = async (ctx, next) => {
  const agent = parseUcpAgent(ctx.request.headers.get("ucp-agent"));
  ctx.platform = { key: ucpPlatformKey(agent.profile), ...agent };
  negotiate(agent);
  return next();
};

// The first answer's text is kept as sent, so that a replay is the same bytes.
/**
 * UCP identity linking: a platform acting for a linked account holder sends the access token this
 * app's OAuth server issued for the UCP endpoint (`Authorization: Bearer`); the holder's
 * checkouts are then theirs, held to their agent settings and limits. Without the header the
 * buyer is a guest. A token that does not authenticate is 401, with the challenge naming the
 * resource's metadata.
 */
export const ucpIdentity: Policy = async (ctx, next) => {
  if (ctx.request.headers.get("authorization") === null) return next();
  return oauthCaller("ucp")(ctx, () => {
    // The REST binding keeps the platform's key here; the MCP binding reads its platform per call.
    if (ctx.platform) ctx.platform = { ...ctx.platform, key: ucpPlatformKey(ctx.platform.profile, ctx.principal) };
    return next();
  });
};

export const ucpIdempotency: Policy = claimedIdempotencyFor({
  owner: (ctx) => ctx.platform!.key,
  record: (text) => ({ text }),
  replay: (stored) => (stored as { text: string }).text,
});

/** Anything thrown, in UCP's terms (a 500 or 503 says nothing of its cause). */
export function ucpErrorOf(err: unknown, requestId: string): { status: number; body: UcpErrorBody; headers: Record<string, string> } {
  if (err instanceof AppError) return { ...ucpError(err), headers: err.headers ?? {} };
  const plain = errorOf(err, requestId);
  return { ...ucpError(new AppError(plain.body.error.code, plain.body.error.message)), status: plain.status, headers: plain.headers };
}

/** Anything thrown, as UCP's error answer. */
export function ucpErrorResponse(err: unknown, requestId: string): Response {
  const { status, body, headers } = ucpErrorOf(err, requestId);
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Request-Id": requestId, ...headers },
  });
}

/** A route of the UCP REST binding: the caller's header first, Idempotency-Key on a write. */
export function ucpRoute<B extends z.ZodType | undefined = undefined>(
  name: string,
  options: { body?: B; write?: boolean },
  handler: (ctx: ProtocolHandlerContext<B extends z.ZodType ? z.output<B> : undefined>) => Promise<ProtocolResult>,
) {
  return protocolRoute(
    { name: `ucp.${name}`, limit: "protocol", bucket: "ucp", body: options.body, errorResponse: ucpErrorResponse, policies: [ucpAgent, ucpIdentity, ...(options.write ? [ucpIdempotency] : [])] },
    handler,
  );
}

/** The UCP caller of a request: a platform, and the holder it acts for when linked. */
export function ucpCaller(ctx: ProtocolHandlerContext<unknown>): UcpCaller {
  return ucpCallerOf(ctx.platform.profile, ctx.principal);
}

/** The UCP caller of a platform's profile and the principal a token named, whichever binding carried them. */
export function ucpCallerOf(profile: string | null, principal?: Principal): UcpCaller {
  if (principal?.kind !== "oauth") return { platform: profile };
  return { platform: profile, holder: { userId: principal.userId, agent: { grantId: principal.grantId, scopes: principal.scopes } } };
}

const answer = (name: string, err: (ctx: RequestCtx) => AppError) =>
  pipeline(`ucp.${name}`, [observeWith(ucpErrorResponse), ipRateLimit("protocol", "ucp")], async (ctx) => {
    throw err(ctx);
  });

/** The methods a UCP path does not serve: 405 in UCP's error shape, with `Allow`. */
export function ucpOtherMethods(allowed: Array<"GET" | "POST" | "PUT">) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse = answer(
    "method_not_allowed",
    (ctx) => new AppError("method_not_allowed", `${ctx.request.method} is not allowed here; use ${allowed.join(" or ")}.`, undefined, { headers: { Allow: allow } }),
  );
  return {
    OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
    GET: refuse,
    POST: refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
  };
}

/** Every method of a path under the UCP endpoint that names nothing: 404 in UCP's shape. */
export function ucpNotFound() {
  const notFound = answer(
    "not_found",
    (ctx) => new AppError("route_not_found", `No UCP operation at ${ctx.request.nextUrl.pathname}: the business profile at /.well-known/ucp lists them.`),
  );
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}
