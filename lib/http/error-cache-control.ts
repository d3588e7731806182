import { ServerResponse } from "node:http";

const PRIVATE = "no-store";
let installed = false;

/**
 * A shared cache must never keep an error page. next.config.ts marks the logged-out pages
 * `public, s-maxage=60` by path, before the page decides it has nothing to show (notFound()
 * answers 404 on the same path), and a page cannot set its own headers; so the one place that
 * sees the status is the response itself: any status of 400 or more that carries a public
 * Cache-Control is sent `no-store` instead.
 */
export function keepErrorResponsesPrivate(): void {
  if (installed) return;
  installed = true;
  const writeHead = ServerResponse.prototype.writeHead;
  ServerResponse.prototype.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    if (statusCode >= 400 && isShared(this.getHeader("cache-control"))) this.setHeader("Cache-Control", PRIVATE);
    return (writeHead as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
  } as typeof writeHead;
}

/** Whether a Cache-Control value lets a shared cache store the response. */
export function isShared(value: number | string | string[] | undefined): boolean {
  const text = Array.isArray(value) ? value.join(",") : String(value ?? "");
  return /\b(public|s-maxage)\b/i.test(text);
}
