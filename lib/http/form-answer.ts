import { NextResponse } from "next/server";
import { encodeFlash, type FormFlash } from "./flash";

/**
 * How an HTML form post answers (storefront, account pages, seller dashboard, checkout, sign-in):
 * 303 See Other to the page to show next, never cached, so a reload does not post again. A page
 * shows one message at a time: `notice` (from the page's fixed list) when the change was made, or
 * a signed `flash` (lib/http/flash.ts: the message, the field, what was typed) when it was refused.
 * A post about something that is not the poster's answers a plain 404 and changes nothing.
 */

/** 303 to `location` (a path on this site), `Cache-Control: no-store`; a caller may set cookies on it. */
export function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** `path` with `params` set in its query, and no `notice` or `flash` of an earlier post left in it. */
export function withParams(path: string, params: Record<string, string | undefined>): string {
  const url = new URL(path, "http://x");
  // One message at a time: a notice or a flash of an earlier post does not stay in the URL.
  url.searchParams.delete("notice");
  url.searchParams.delete("flash");
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.pathname + url.search;
}

/** 303 back to `page` (at `#hash`, when given) with `flash` shown on its form. */
export function backWithFlash(page: string, flash: FormFlash, hash?: string): NextResponse {
  return seeOther(`${withParams(page, { flash: encodeFlash(flash) })}${hash === undefined ? "" : `#${hash}`}`);
}

/** 404 as plain text, never cached: the post is about something that is not the poster's. */
export function plainNotFound(message: string): Response {
  return new Response(message, {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
