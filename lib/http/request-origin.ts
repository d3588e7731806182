/**
 * The origin a request came in on, from its Host header and the scheme Next (or a proxy before
 * it) put in X-Forwarded-Proto; null when the Host is not a plain host[:port]. Used only to show
 * links (`shownUrl` in lib/config.ts) while PUBLIC_BASE_URL is unset.
 */
export function requestOriginOf(headers: Headers): string | null {
  const host = headers.get("host");
  if (!host || !/^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/.test(host)) return null;
  const scheme = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}
