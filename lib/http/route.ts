import type { NextRequest } from "next/server";
import type { z } from "zod";
import { parseJsonBody } from "./body";
import { type EndpointOptions, publicEndpoint } from "./endpoint";
import { etagOf, matchesIfNoneMatch } from "./etag";
import { parseQuery } from "./query";

/** Shared-cache lifetimes (spec section 8). */
export const CACHE_POLICIES = {
  catalog: "public, s-maxage=60",
  categories: "public, s-maxage=300",
  document: "public, s-maxage=300",
  crawler: "public, s-maxage=3600",
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;

interface RouteOptions<Q extends z.ZodType | undefined, B extends z.ZodType | undefined> extends EndpointOptions {
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

/**
 * Wraps a public route: rate limit per client IP and endpoint, request id, query and body
 * validation, success and error envelopes, cache headers with ETag revalidation, CORS, one log
 * line (the shared parts are publicEndpoint's). Handlers only call the domain.
 */
export function publicRoute<Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  options: RouteOptions<Q, B>,
  handler: (ctx: HandlerContext<Parsed<Q>, Parsed<B>>) => Promise<HandlerResult>,
) {
  return publicEndpoint(options, async ({ request, routeContext, requestId }) => {
    const query = (options.query ? parseQuery(options.query, request.nextUrl.searchParams) : undefined) as Parsed<Q>;
    const body = (options.body ? await parseJsonBody(options.body, request) : undefined) as Parsed<B>;
    const params = Object.fromEntries(
      Object.entries((await routeContext?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
    );
    const result = await handler({ request, query, body, params, requestId });
    return success(request, result, requestId, options.cache);
  });
}

function success(request: NextRequest, result: HandlerResult, requestId: string, cache?: CachePolicy): Response {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
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
