/** Public surfaces answer any origin, without credentials (decisions.md). */
export const PUBLIC_CORS_HEADERS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-Request-Id, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Corrected-Query, X-Query-Relaxed",
};

/** Request headers a browser may send to the JSON API. */
export const API_REQUEST_HEADERS = ["Content-Type", "If-None-Match", "X-Request-Id"];

export function preflightResponse(methods: string[], requestHeaders: string[] = API_REQUEST_HEADERS): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...PUBLIC_CORS_HEADERS,
      "Access-Control-Allow-Methods": [...methods, "OPTIONS"].join(", "),
      "Access-Control-Allow-Headers": requestHeaders.join(", "),
      "Access-Control-Max-Age": "86400",
      "Cache-Control": "public, max-age=86400",
    },
  });
}
