import type { NextRequest } from "next/server";
import { AppError } from "@/lib/errors";
import { consume, RATE_LIMITS, rateLimitHeaders, type RateLimitPolicy } from "@/lib/ratelimit";
import { clientIp } from "./client-ip";
import { PUBLIC_CORS_HEADERS } from "./cors";
import { errorOf } from "./errors";
import { logRequest } from "./log";
import { requestIdFrom } from "./request-id";

export interface EndpointOptions {
  /** Endpoint name for the log line; also the rate-limit bucket, so endpoints never share one. */
  name: string;
  /** Rate-limit policy of the bucket (values in lib/ratelimit/config.ts). */
  limit: RateLimitPolicy;
}

export type RouteContext = { params: Promise<Record<string, string | string[]>> };

export interface EndpointContext {
  request: NextRequest;
  routeContext: RouteContext;
  requestId: string;
  ip: string;
  /**
   * Names the error of a request that still answers 200 (an MCP tool error), for the log line.
   */
  noteError: (code: string) => void;
}

/**
 * What every public endpoint shares, whatever its body looks like: a token from its own bucket
 * per client IP, taken before any work; the request id; the error envelope for anything thrown;
 * CORS, X-Request-Id and X-RateLimit-* on every response; one log line per request (written when
 * the body is complete, for a streamed body).
 */
export function publicEndpoint(options: EndpointOptions, serve: (ctx: EndpointContext) => Promise<Response>) {
  return async (request: NextRequest, routeContext: RouteContext): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    const ip = clientIp(request.headers);
    let failure: string | undefined;
    let response: Response;
    const decision = await consume(options.limit, options.name, ip);
    try {
      if (!decision.allowed) throw rateLimited(options.limit, decision.retryAfter);
      response = await serve({ request, routeContext, requestId, ip, noteError: (code) => (failure = code) });
    } catch (err) {
      failure = err instanceof AppError ? err.code : "internal_error";
      const { status, body } = errorOf(err, requestId);
      const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" };
      // The rest of an oversized body was never read (lib/http/body.ts stops at the limit). Left on
      // a kept-alive connection, those bytes stall the next request on it until the server's
      // keep-alive timeout resets it; closing the connection after this answer spares the client.
      if (body.error.code === "body_too_large") headers.Connection = "close";
      response = new Response(JSON.stringify(body), { status, headers });
    }

    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries({ ...PUBLIC_CORS_HEADERS, "X-Request-Id": requestId, ...rateLimitHeaders(decision) })) {
      headers.set(name, value);
    }
    if (!headers.has("cache-control")) headers.set("Cache-Control", "no-store");

    const log = () =>
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
    const streamed = response.body !== null && /^text\/event-stream/i.test(headers.get("content-type") ?? "");
    const body = streamed ? onceDone(response.body!, log) : response.body;
    if (!streamed) log();
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

function rateLimited(policy: RateLimitPolicy, retryAfter: number): AppError {
  const { capacity, refillPerSecond } = RATE_LIMITS[policy];
  return new AppError(
    "rate_limited",
    `Too many requests to this endpoint from your address (a burst of ${capacity}, then ${refillPerSecond} per second). Retry after ${retryAfter} s.`,
  );
}

/** The same stream, calling `done` once when it ends, fails or is cancelled. */
function onceDone(source: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let called = false;
  const finish = () => {
    if (!called) {
      called = true;
      done();
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          finish();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
}
