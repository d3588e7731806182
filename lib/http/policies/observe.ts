import { rateLimitHeaders } from "@/lib/ratelimit";
import { clientIp } from "../client-ip";
import { errorResponse, failureCode } from "../errors";
import { logRequest } from "../log";
import type { Policy } from "../pipeline";
import { requestIdFrom } from "../request-id";

/**
 * The outermost policy of every route: request id and client IP; anything thrown inside becomes
 * the error envelope; X-Request-Id, the X-RateLimit-* of whichever bucket was consulted, CORS
 * where public and `Cache-Control: no-store` unless a policy chose otherwise go on every answer;
 * one log line per request (written when a streamed body ends).
 */
export const observe: Policy = observeWith(errorResponse);

/** `observe`, answering anything thrown with `toResponse` (a commerce protocol's own error shape). */
export function observeWith(toResponse: (err: unknown, requestId: string) => Response): Policy {
  return async (ctx, next) => {
    const started = performance.now();
    ctx.requestId = requestIdFrom(ctx.request.headers);
    ctx.ip = clientIp(ctx.request.headers);
    let response: Response;
    try {
      response = await next();
    } catch (err) {
      ctx.failure = failureCode(err);
      response = toResponse(err, ctx.requestId);
    }

    const headers = new Headers(response.headers);
    const added: Record<string, string> = {
      ...ctx.cors,
      "X-Request-Id": ctx.requestId,
      ...(ctx.rateLimit ? rateLimitHeaders(ctx.rateLimit) : {}),
    };
    for (const [name, value] of Object.entries(added)) headers.set(name, value);
    if (!headers.has("cache-control")) headers.set("Cache-Control", "no-store");

    const log = () =>
      logRequest({
        request_id: ctx.requestId,
        method: ctx.request.method,
        route: ctx.routeName,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
        ip: ctx.ip,
        user_agent: ctx.request.headers.get("user-agent"),
        error: ctx.failure,
      });
    const streamed = response.body !== null && /^text\/event-stream/i.test(headers.get("content-type") ?? "");
    const body = streamed ? onceDone(response.body!, log) : response.body;
    if (!streamed) log();
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
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
