import { createHash } from "node:crypto";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { acpError, checkApiVersion, type AcpCaller } from "@/lib/protocols/acp";
import { errorOf } from "../errors";
import { pipeline, type Policy, type RequestCtx } from "../pipeline";
import { claimedIdempotencyFor, IDEMPOTENCY_HEADER } from "../policies/idempotency";
import { observeWith } from "../policies/observe";
import { ipRateLimit } from "../policies/rate-limit";
import { protocolRoute, type ProtocolHandlerContext, type ProtocolResult } from "../protocol-route";

/**
 * The ACP REST binding's policies: the platform's bearer key (required; only its SHA-256 is kept,
 * as the owner of its sessions and idempotency keys), `API-Version` (2026-04-17, else 400 with
 * `supported_versions`), `Idempotency-Key` on every POST (missing: 400; reused with another body:
 * 422; in flight: 409 with Retry-After; a replay is the first answer byte for byte, with
 * `Idempotent-Replayed: true`), keys scoped to the platform and the path, and ACP's flat error.
 */

const BEARER = /^Bearer +([\x21-\x7e]{1,512}) *$/i;

export const acpCaller: Policy = async (ctx, next) => {
  const match = BEARER.exec(ctx.request.headers.get("authorization") ?? "");
  if (!match) throw new AppError("token_missing", "Send your platform's key as `Authorization: Bearer <key>`.");
  checkApiVersion(ctx.request.headers.get("api-version"));
  const platform = createHash("sha256").update(match[1]!).digest("hex");
  ctx.platform = { key: `acp:${platform}`, profile: platform, version: ctx.request.headers.get("api-version") };
  return next();
};

const claimed = claimedIdempotencyFor({
  // Keys are scoped to the platform and the endpoint (ACP RFC 6): the same key on another path is another key.
  owner: (ctx) => `${ctx.platform!.key}\n${ctx.request.nextUrl.pathname}`,
  record: (text) => ({ text }),
  replay: (stored) => (stored as { text: string }).text,
});

export const acpIdempotency: Policy = async (ctx, next) => {
  if (ctx.request.headers.get(IDEMPOTENCY_HEADER) === null) {
    throw new AppError("acp_idempotency_key_missing", "Idempotency-Key header is required on all POST requests.", IDEMPOTENCY_HEADER);
  }
  const response = await claimed(ctx, next);
  const headers = new Headers(response.headers);
  headers.set(IDEMPOTENCY_HEADER, ctx.request.headers.get(IDEMPOTENCY_HEADER)!);
  return new Response(response.body, { status: response.status, headers });
};

/** Echoes the caller's Request-Id (ACP RFC 3.1). */
const echoRequestId: Policy = async (ctx, next) => {
  const response = await next();
  const id = ctx.request.headers.get("request-id");
  if (!id || !/^[\x20-\x7e]{1,200}$/.test(id)) return response;
  const headers = new Headers(response.headers);
  headers.set("Request-Id", id);
  return new Response(response.body, { status: response.status, headers });
};

/** Anything thrown, as ACP's error (a 500 or 503 says nothing of its cause). */
export function acpErrorResponse(err: unknown, requestId: string): Response {
  const appError = err instanceof AppError ? err : (() => {
    const plain = errorOf(err, requestId);
    return new AppError(plain.body.error.code, plain.body.error.message, undefined, { headers: plain.headers });
  })();
  const { status, body } = acpError(appError);
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...(appError.headers ?? {}) },
  });
}

/** A route of the ACP REST binding. */
export function acpRoute<B extends z.ZodType | undefined = undefined>(
  name: string,
  options: { body?: B; optionalBody?: boolean; write?: boolean },
  handler: (ctx: ProtocolHandlerContext<B extends z.ZodType ? z.output<B> : undefined>) => Promise<ProtocolResult>,
) {
  return protocolRoute(
    {
      name: `acp.${name}`,
      limit: "protocol",
      bucket: "acp",
      body: options.body,
      optionalBody: options.optionalBody,
      errorResponse: acpErrorResponse,
      policies: [echoRequestId, acpCaller, ...(options.write ? [acpIdempotency] : [])],
    },
    handler,
  );
}

export function acpCallerOf(ctx: ProtocolHandlerContext<unknown>): AcpCaller {
  return { platform: ctx.platform.profile! };
}

const answer = (name: string, err: (ctx: RequestCtx) => AppError) =>
  pipeline(`acp.${name}`, [observeWith(acpErrorResponse), ipRateLimit("protocol", "acp")], async (ctx) => {
    throw err(ctx);
  });

export function acpOtherMethods(allowed: Array<"GET" | "POST">) {
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse = answer("method_not_allowed", (ctx) => new AppError("method_not_allowed", `${ctx.request.method} is not allowed here; use ${allowed.join(" or ")}.`, undefined, { headers: { Allow: allow } }));
  return { OPTIONS: async () => new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }), GET: refuse, POST: refuse, PUT: refuse, PATCH: refuse, DELETE: refuse };
}

export function acpNotFound() {
  const notFound = answer("not_found", (ctx) => new AppError("route_not_found", `No ACP operation at ${ctx.request.nextUrl.pathname}: /.well-known/acp.json says where they are.`));
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}
