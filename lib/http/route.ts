import type { NextRequest } from "next/server";
import type { z } from "zod";
import { AppError, type ErrorCode } from "@/lib/errors";
import { clientIp } from "./client-ip";
import { PUBLIC_CORS_HEADERS } from "./cors";
import { ERROR_TABLE, errorBody } from "./errors";
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

interface RouteOptions<Q extends z.ZodType | undefined> {
  /** Route name for the log line. */
  name: string;
  query?: Q;
  cache?: CachePolicy;
}

interface HandlerContext<Q> {
  request: NextRequest;
  query: Q;
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
 * Wraps a public route: request id, query validation, success and error envelopes, cache
 * headers with ETag revalidation, CORS, one log line. Handlers only call the domain.
 */
export function publicRoute<Q extends z.ZodType | undefined = undefined>(
  options: RouteOptions<Q>,
  handler: (ctx: HandlerContext<Q extends z.ZodType ? z.output<Q> : undefined>) => Promise<HandlerResult>,
) {
  return async (request: NextRequest, context: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    let response: Response;
    let failure: string | undefined;
    try {
      const query = (options.query ? parseQuery(options.query, request.nextUrl.searchParams) : undefined) as
        Q extends z.ZodType ? z.output<Q> : undefined;
      const params = Object.fromEntries(
        Object.entries((await context?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const result = await handler({ request, query, params, requestId });
      response = success(request, result, requestId, options.cache);
    } catch (err) {
      failure = err instanceof AppError ? err.code : "internal_error";
      response = errorResponse(err, requestId);
    }
    logRequest({
      request_id: requestId,
      method: request.method,
      route: options.name,
      status: response.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      ip: clientIp(request.headers),
      user_agent: request.headers.get("user-agent"),
      error: failure,
    });
    return response;
  };
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
  if (err instanceof AppError) {
    ({ code, message, param } = err);
  } else {
    logError(requestId, err);
  }
  return new Response(JSON.stringify(errorBody(code, message, requestId, param)), {
    status: ERROR_TABLE[code].status,
    headers: {
      ...PUBLIC_CORS_HEADERS,
      "Content-Type": "application/json; charset=utf-8",
      "X-Request-Id": requestId,
      "Cache-Control": "no-store",
    },
  });
}
