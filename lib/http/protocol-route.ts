import type { NextRequest } from "next/server";
import type { z } from "zod";
import type { RateLimitPolicy } from "@/lib/ratelimit";
import { pipeline, type Policy, type RequestCtx } from "./pipeline";
import { observeWith } from "./policies/observe";
import { parseRequest } from "./policies/parse";
import { ipRateLimit } from "./policies/rate-limit";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ProtocolHandlerContext<B> {
  request: NextRequest;
  body: B;
  params: Record<string, string>;
  requestId: string;
  platform: NonNullable<RequestCtx["platform"]>;
  /** The authenticated caller, when the protocol's policies found one (UCP identity linking). */
  principal?: RequestCtx["principal"];
}

/** A protocol's answer: its own JSON document, with the status it says. */
export interface ProtocolResult {
  status: 200 | 201;
  body: unknown;
}

export interface ProtocolRouteOptions<B extends z.ZodType | undefined> {
  /** The log line's route, and the rate-limit bucket (shared by the protocol's routes). */
  name: string;
  limit: RateLimitPolicy;
  /** The bucket's name: one per protocol, so its routes share it. */
  bucket: string;
  body?: B;
  /** The body may be left out (ACP's cancel): an empty one parses as `undefined`. */
  optionalBody?: boolean;
  /** The protocol's answer to anything thrown (its error shape, its statuses). */
  errorResponse: (err: unknown, requestId: string) => Response;
  /** The protocol's caller policy (it sets `platform`), and idempotency for a write. */
  policies: Policy[];
}

/**
 * A route of a commerce protocol (UCP, ACP): the same pipeline as every route (request id and log
 * line, a token from the protocol's bucket per client IP, the body parsed by its schema), then the
 * protocol's own policies, its answers and errors in its own shape (never our API envelope).
 */
export function protocolRoute<B extends z.ZodType | undefined>(options: ProtocolRouteOptions<B>, handler: (ctx: ProtocolHandlerContext<Parsed<B>>) => Promise<ProtocolResult>) {
  const policies: Policy[] = [observeWith(options.errorResponse), ipRateLimit(options.limit, options.bucket), parseRequest({ body: options.body, optionalBody: options.optionalBody }), ...options.policies];
  return pipeline(options.name, policies, async (ctx) => {
    if (!ctx.platform) throw new Error("a protocol route needs its caller policy");
    const result = await handler({ request: ctx.request, body: ctx.body as Parsed<B>, params: ctx.params, requestId: ctx.requestId, platform: ctx.platform, principal: ctx.principal });
    return new Response(JSON.stringify(result.body), { status: result.status, headers: { "Content-Type": "application/json; charset=utf-8" } });
  });
}
