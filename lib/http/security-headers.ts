/**
 * The security headers of every page (set in proxy.ts, which runs before each page and form
 * route; the JSON APIs set their own). A Content-Security-Policy whose scripts are our own
 * origin's and carry this request's nonce (Next reads the nonce from the request's CSP header and
 * puts it on the scripts it writes; 'strict-dynamic' lets those load its chunks): no page can be
 * framed (`frame-ancestors 'none'`, and `X-Frame-Options: DENY` for older browsers), no plugin
 * objects, no `<base>` pointing elsewhere. Styles may be inline (React's `style` attributes);
 * images may come from any https host (listing images sellers link to). Plus `nosniff`, a
 * Referrer-Policy that sends only the origin to other sites, and HSTS when the public address is
 * https. (Pages holding a person's own state are rendered per request, which Next answers
 * `private, no-cache, no-store`; tests/integration/security-headers.test.ts holds them to it.)
 */

/** The request header carrying the nonce to a page that writes its own `<script>` (JSON-LD). */
export const NONCE_HEADER = "x-nonce";

/** A fresh nonce for one response: 128 random bits, base64. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

export function contentSecurityPolicy(nonce: string, { development = false } = {}): string {
  return [
    "default-src 'self'",
    // Next's development server evaluates code (React's debugging): never in production.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
  ].join("; ");
}

export function pageSecurityHeaders(nonce: string, { https, development }: { https: boolean; development: boolean }): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(nonce, { development }),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}
