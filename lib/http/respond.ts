import { CACHE_POLICIES } from "./cache-policies";
import { etagOf, matchesIfNoneMatch } from "./etag";
import type { RequestCtx } from "./pipeline";

/**
 * What a handler returns: the success envelope without request_id (`status` 200 unless given), a
 * list page (`{ data, next_cursor, meta }`), a raw JSON document, or a text document (sitemap,
 * robots.txt, llms.txt) with its content type, or bytes (a stored picture) with theirs.
 */
export type HandlerResult =
  | { status?: 200 | 201; data: unknown; meta?: Record<string, unknown>; headers?: Record<string, string> }
  | { status?: 200; list: unknown[]; next_cursor: string | null }
  | { document: unknown }
  | { text: string; contentType: string }
  | { bytes: Uint8Array; contentType: string };

/** The result as a response: request id in `meta`, cache headers and ETag revalidation when cacheable. */
export function respond(ctx: RequestCtx, result: HandlerResult): Response {
  const headers: Record<string, string> = {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": ctx.cache ? CACHE_POLICIES[ctx.cache] : "no-store",
  };
  let body: string | Uint8Array<ArrayBuffer>;
  let status = 200;
  // The representation (the body without request_id) is what the ETag covers; it is serialised
  // only for a cacheable answer, so an uncached one costs one serialisation, not two.
  let representation = (): string | Uint8Array => body;
  if ("bytes" in result) {
    body = new Uint8Array(result.bytes);
    headers["Content-Type"] = result.contentType;
  } else if ("text" in result) {
    body = result.text;
    headers["Content-Type"] = result.contentType;
  } else if ("document" in result) {
    body = JSON.stringify(result.document);
  } else if ("list" in result) {
    body = JSON.stringify({ data: result.list, next_cursor: result.next_cursor, meta: { request_id: ctx.requestId } });
    representation = () => JSON.stringify({ data: result.list, next_cursor: result.next_cursor, meta: {} });
  } else {
    status = result.status ?? 200;
    Object.assign(headers, result.headers);
    body = JSON.stringify({ data: result.data, meta: { ...result.meta, request_id: ctx.requestId } });
    representation = () => JSON.stringify({ data: result.data, meta: result.meta ?? {} });
  }
  if (ctx.cache) {
    headers.ETag = etagOf(representation());
    if (matchesIfNoneMatch(ctx.request.headers.get("if-none-match"), headers.ETag)) {
      delete headers["Content-Type"];
      return new Response(null, { status: 304, headers });
    }
  }
  return new Response(body, { status, headers });
}
