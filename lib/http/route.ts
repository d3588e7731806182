import type { NextRequest } from "next/server";
import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/errors";
import { consume, RATE_LIMITS, rateLimitHeaders, type RateLimitPolicy } from "@/lib/ratelimit";
import { clientIp } from "./client-ip";
import { PUBLIC_CORS_HEADERS } from "./cors";
import { ERROR_TABLE, errorBody } from "./errors";
import { parseJsonBody } from "./body";
import { etagOf, matchesIfNoneMatch } from "./etag";
import { logError, logRequest } from "./log";
import { parseQuery } from "./query";
import { requestIdFrom } from "./request-id";

/** Shared-cache lifetimes (spec section 8). */
export const CACHE_POLICIES = {
  catalog: "public, s-maxage=60",
  categories: "public, s-maxage=300",
  document: "public, s-maxage=300",
  crawler: "public, s-maxage=3600",
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;

interface RouteOptions<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  /** Route name for the log line; also the rate-limit bucket, so endpoints never share one. */
  name: string;
  /** Rate-limit policy of the bucket (values in lib/ratelimit/config.ts). */
  limit: RateLimitPolicy;
  query?: Q;
  /** JSON request body schema (lib/http/body.ts). */
  body?: B;
  cache?: CachePolicy;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

interface HandlerContext<Q, B> {
  request: NextRequest;
  query: Q;
  body: B;
  params: Record<string, string>;
  requestId: string;
}

/**
 * What a handler returns: the success envelope without request_id, a raw JSON document, or a
 * text document (sitemap, robots.txt, llms.txt) with its content type.
 */
export type HandlerResult =
  | { data: unknown; meta?: Record<string, unknown> }
  | { document: unknown }
  | { text: string; contentType: string };

type RouteContext = { params: Promise<Record<string, string | string[]>> };

/**
 * Wraps a public route: rate limit per client IP and endpoint, request id, query and body
 * validation, success and error envelopes, cache headers with ETag revalidation, CORS, one log
 * line. Handlers only call the domain.
 */
export function publicRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  options: RouteOptions<Q, B>,
  handler: (ctx: HandlerContext<Parsed<Q>, Parsed<B>>) => Promise<HandlerResult>,
) {
  return async (request: NextRequest, context: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    const ip = clientIp(request.headers);
    let response: Response;
    let failure: string | undefined;
    const decision = await consume(options.limit, options.name, ip);
    try {
      if (!decision.allowed) throw rateLimited(options.limit, decision.retryAfter);
      const query = (options.query ? parseQuery(options.query, request.nextUrl.searchParams) : undefined) as Parsed<Q>;
      const body = (options.body ? await parseJsonBody(options.body, request) : undefined) as Parsed<B>;
      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const result = await handler({ request, query, body, params, requestId });
      response = success(request, result, requestId, options.cache);
    } catch (err) {
      failure = err instanceof AppError ? err.code : "internal_error";
      response = errorResponse(err, requestId);
    }
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) response.headers.set(name, value);
    logRequest({
      request_id: requestId,
      method: request.method,
      route: options.name,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ip,
      user_agent: request.headers.get("user-agent"),
      error: failure,
    });
    return response;
  };
}

function rateLimited(policy: RateLimitPolicy, retryAfter: number): AppError {
  const { capacity, refillPerSecond } = RATE_LIMITS[policy];
  return new AppError(
    "rate_limited",
    `Too many requests to this endpoint from your address (a burst of ${capacity}, then ${refillPerSecond} per second). Retry after ${retryAfter} s.`,
  );
}

function success(request: NextRequest, result: HandlerResult, requestId: string, cache?: CachePolicy): Response {
  const headers: Record<string, string> = {
    ...PUBLIC_CORS_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "X-Request-Id": requestId,
    "Cache-Control": cache ? CACHE_POLICIES[cache] : "no-store",
  };
  let representation: string;
  let body: string;
  if ("text" in result) {
    body = representation = result.text;
    headers["Content-Type"] = result.contentType;
  } else if ("document" in result) {
    body = representation = JSON.stringify(result.document);
  } else {
    representation = JSON.stringify({ data: result.data, meta: result.meta ?? {} });
    body = JSON.stringify({ data: result.data, meta: { ...result.meta, request_id: requestId } });
  }
  if (cache) {
    headers.ETag = etagOf(representation);
    if (matchesIfNoneMatch(request.headers.get("if-none-match"), headers.ETag)) {
      delete headers["Content-Type"];
      return new Response(null, { status: 304, headers });
    }
  }
  return new Response(body, { status: 200, headers });
}

function errorResponse(err: unknown, requestId: string): Response {
  let code: ErrorCode = "internal_error";
  let message = "Something went wrong on our side. Retry later; quote the request id if it persists.";
  let param: string | undefined;
  let rejected: AppError["rejected"];
  if (err instanceof AppError) {
    ({ code, message, param, rejected } = err);
  } else {
    logError(requestId, err);
  }
  const headers: Record<string, string> = {
    ...PUBLIC_CORS_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "X-Request-Id": requestId,
    "Cache-Control": "no-store",
  };
  // The rest of an oversized body was never read (lib/http/body.ts stops at the limit). Left on a
  // kept-alive connection, those bytes stall the next request on it until the server's keep-alive
  // timeout resets it; closing the connection after this answer spares the client that.
  if (code === "body_too_large") headers.Connection = "close";
  return new Response(JSON.stringify(errorBody(code, message, requestId, param, rejected)), {
    status: ERROR_TABLE[code].status,
    headers,
  });
}
