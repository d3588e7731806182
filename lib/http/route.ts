import type { NextRequest } from "next/server";
import type { z } from "zod";
import type { Principal } from "@/lib/auth/principal";
import type { DbClient } from "@/lib/db";
import type { RateLimitPolicy } from "@/lib/ratelimit";
import { API_KEY_SCHEME, publicAccess } from "./access";
import type { CachePolicy } from "./cache-policies";
import { withDb } from "./database";
import type { Endpoint } from "./describe";
import { pipeline, type Policy, type RequestCtx } from "./pipeline";
import { auditChanges, auditRefusals } from "./policies/audit";
import { cacheFor } from "./policies/cache";
import { claimedIdempotency, idempotency } from "./policies/idempotency";
import { observe } from "./policies/observe";
import { parseRequest } from "./policies/parse";
import { readYourWrites } from "./policies/read-your-writes";
import { inTransaction } from "./policies/transaction";
import { type HandlerResult, respond } from "./respond";

export { CACHE_POLICIES, type CachePolicy } from "./cache-policies";
export type { HandlerResult } from "./respond";

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<Q, B> {
  request: NextRequest;
  query: Q;
  body: B;
  params: Record<string, string>;
  requestId: string;
  /** The authenticated caller (set on every endpoint whose access names one). */
  principal: Principal;
  /** The request's Idempotency-Key, on an endpoint that accepts one (absent when none was sent). */
  idempotencyKey?: string;
  /** Where the handler reads and writes: the request's transaction when the endpoint has one. */
  db: DbClient;
}

/**
 * A route from its endpoint description, in the order of style.md: request id and log ->
 * (a store key's write: its refusals in the audit log) -> access (CORS and IP limit where public;
 * caller, caller's limit and scope otherwise) -> parse -> read-your-writes (an authenticated
 * write) -> transaction -> idempotency -> (its change in the audit log) -> cache -> handler ->
 * envelope. Handlers only call the domain.
 */
export function route<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  endpoint: Endpoint<P, Q, B>,
  handler: (ctx: HandlerContext<Parsed<Q>, Parsed<B>>) => Promise<HandlerResult>,
) {
  // A store key's writes go in the store's audit log, refused ones too.
  const audit = endpoint.method !== "GET" && endpoint.access.security.some((s) => API_KEY_SCHEME in s);
  const policies: Policy[] = [observe, ...(audit ? [auditRefusals] : []), ...endpoint.access.policies, parseRequest({ query: endpoint.query, body: endpoint.body })];
  // The public API writes no catalog data (its one POST mints a cart link): only an authenticated
  // caller's write waits to hear its changes.
  if (endpoint.method !== "GET" && endpoint.access.security.length > 0) policies.push(readYourWrites);
  if (endpoint.idempotent === "claim") policies.push(claimedIdempotency);
  else {
    if (endpoint.transactional || endpoint.idempotent) policies.push(inTransaction);
    if (endpoint.idempotent) policies.push(idempotency);
  }
  if (audit) policies.push(auditChanges);
  if (endpoint.cache) policies.push(cacheFor(endpoint.cache));
  return pipeline(endpoint.name, policies, callHandler(handler));
}

/** The innermost step: the handler with what the policies prepared, its result as the envelope. */
function callHandler<Q, B>(handler: (ctx: HandlerContext<Q, B>) => Promise<HandlerResult>) {
  return async (ctx: RequestCtx) => {
    const run = (client: DbClient) =>
      handler({
        request: ctx.request,
        query: ctx.query as Q,
        body: ctx.body as B,
        params: ctx.params,
        requestId: ctx.requestId,
        principal: ctx.principal!,
        idempotencyKey: ctx.idempotencyKey,
        db: client,
      });
    return respond(ctx, await (ctx.tx ? run(ctx.tx) : withDb(run)));
  };
}

interface PublicRouteOptions<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  /** Endpoint name for the log line; also the rate-limit bucket, so endpoints never share one. */
  name: string;
  /** Rate-limit policy of the bucket (values in lib/ratelimit/config.ts). */
  limit: RateLimitPolicy;
  query?: Q;
  /** JSON request body schema (lib/http/body.ts). */
  body?: B;
  cache?: CachePolicy;
}

/**
 * A public route that is not an operation of an API document (robots.txt, the sitemap, the 404
 * and 405 answers, the documents themselves): the same policies as a public endpoint.
 */
export function publicRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  options: PublicRouteOptions<Q, B>,
  handler: (ctx: HandlerContext<Parsed<Q>, Parsed<B>>) => Promise<HandlerResult>,
) {
  const policies: Policy[] = [observe, ...publicAccess(options.limit).policies, parseRequest({ query: options.query, body: options.body })];
  if (options.cache) policies.push(cacheFor(options.cache));
  return pipeline(options.name, policies, callHandler(handler));
}
