import type { NextRequest } from "next/server";
import type { RateLimitPolicy } from "@/lib/ratelimit";
import { publicAccess } from "./access";
import { pipeline, type RouteContext } from "./pipeline";
import { observe } from "./policies/observe";

export type { RouteContext } from "./pipeline";

export interface EndpointContext {
  request: NextRequest;
  routeContext: RouteContext;
  requestId: string;
  ip: string;
  /** Names the error of a request that still answers 200 (an MCP tool error), for the log line. */
  noteError: (code: string) => void;
}

/**
 * A public endpoint that writes its own response (the MCP server): the public policies (request
 * id, CORS, this endpoint's bucket per client IP, envelope for anything thrown, log line) around
 * `serve`.
 */
export function publicEndpoint(options: { name: string; limit: RateLimitPolicy }, serve: (ctx: EndpointContext) => Promise<Response>) {
  return pipeline(options.name, [observe, ...publicAccess(options.limit).policies], (ctx) =>
    serve({
      request: ctx.request,
      routeContext: ctx.routeContext,
      requestId: ctx.requestId,
      ip: ctx.ip,
      noteError: (code) => (ctx.failure = code),
    }),
  );
}
