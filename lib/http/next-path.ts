/**
 * Where to send a person after signing in: `next` when it is a path on this site, else
 * `fallback`. Only a relative path that starts with one `/` is kept: `//evil.com`, `/\evil.com`,
 * `https://evil.com`, `javascript:`, control characters and anything that resolves to another
 * origin are refused.
 */
export function safeNextPath(next: unknown, fallback = "/account"): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2000) return fallback;
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(next)) return fallback;
  const base = "http://same.invalid";
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
