/**
 * Client IP: first hop of X-Forwarded-For. `next start` fills that header from the socket
 * address when the request has none, so this is "else the socket address" too. The app must sit
 * behind a proxy that overwrites X-Forwarded-For, or clients can pick their own address.
 */
export function clientIp(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || "unknown";
}
