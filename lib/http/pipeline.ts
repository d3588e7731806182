import type { NextRequest } from "next/server";
import type { Principal } from "@/lib/auth/principal";
import type { SessionUser } from "@/lib/http/session";
import type { Prisma } from "@/lib/db";
import type { RateLimitDecision } from "@/lib/ratelimit";
import { withRequestOrigin } from "@/lib/config";
import type { CachePolicy } from "./cache-policies";
import { requestOriginOf } from "./request-origin";

export type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * What the policies of one request share. Each policy reads what earlier ones wrote and adds its
 * own part; nothing else carries state between them.
 */
export interface RequestCtx {
  request: NextRequest;
  routeContext: RouteContext;
  /** Endpoint name: the log line's `route`, and the bucket of a per-endpoint rate limit. */
  routeName: string;
  requestId: string;
  ip: string;
  /** The bucket whose X-RateLimit-* headers go on the answer, whatever it is. */
  rateLimit?: RateLimitDecision;
  /** CORS headers of a public surface (none on authenticated ones). */
  cors?: Record<string, string>;
  principal?: Principal;
  /** Set by the session policy: the signed-in person (their principal is `principal`). */
  sessionUser?: SessionUser;
  params: Record<string, string>;
  query?: unknown;
  body?: unknown;
  /** Set by the form policy: every value of each posted field, in order (repeated checkboxes). */
  formLists?: Record<string, string[]>;
  /** Set by the form policy of a route taking files: each posted file by field name (the last one). */
  formFiles?: Record<string, File>;
  /** Set by an idempotency policy: the request's Idempotency-Key (absent when none was sent). */
  idempotencyKey?: string;
  /** Set by the transaction policy: the database transaction the handler must write in. */
  tx?: Prisma.TransactionClient;
  /** Set by the cache policy: the response is shared-cacheable and revalidates by ETag. */
  cache?: CachePolicy;
  /**
   * Set by a commerce protocol's caller policy: the platform calling (its profile URL and version
   * as its header says) and the key its idempotency records and rate-limit bucket are kept under.
   */
  platform?: { key: string; profile: string | null; version: string | null };
  /** The error code of an answer that is still a success on the wire (an MCP tool error). */
  failure?: string;
}

export type Next = () => Promise<Response>;
/** One rule of a route: does its part, then calls `next` (or answers / throws instead). */
export type Policy = (ctx: RequestCtx, next: Next) => Promise<Response>;

/** Runs `policies` in order around `terminal`, as a route handler (links shown at the request's origin). */
export function pipeline(routeName: string, policies: Policy[], terminal: (ctx: RequestCtx) => Promise<Response>) {
  return async (request: NextRequest, routeContext: RouteContext): Promise<Response> => {
    const ctx: RequestCtx = { request, routeContext, routeName, requestId: "", ip: "", params: {} };
    const run = (i: number): Promise<Response> => (i < policies.length ? policies[i]!(ctx, () => run(i + 1)) : terminal(ctx));
    return withRequestOrigin(requestOriginOf(request.headers), () => run(0));
  };
}
