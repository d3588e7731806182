/**
 * Where to send a person after a form or a sign-in: `next` when it is a path on this site (and,
 * with `within`, one of the paths it accepts), else `fallback`. Only a relative path that starts
 * with one `/` is kept: `//evil.com`, `/\evil.com`, `https://evil.com`, `javascript:`, control
 * characters and anything that resolves to another origin are refused. The path is answered as
 * resolved (`/a/../b` is `/b`), so `within` sees where the browser would go. The one check of a
 * redirect target that a request names (`next`, `return_to`).
 */
export function safeNextPath(next: unknown, fallback = "/account", within?: (path: string) => boolean): string {
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
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `/.//evil.com` resolves to the path `//evil.com`, which a browser reads as another host.
  if (url.origin !== base || path.startsWith("//")) return fallback;
  return within && !within(path) ? fallback : path;
}
