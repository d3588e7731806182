import { headers } from "next/headers";
import { shownUrl, withRequestOrigin } from "@/lib/config";
import { requestOriginOf } from "@/lib/http/request-origin";

/**
 * Runs a page's load so the product and picture links it returns point at the address the page
 * was asked for (while PUBLIC_BASE_URL is unset; see `shownUrl`), as API routes' answers do.
 */
export async function atRequestOrigin<T>(load: () => Promise<T>): Promise<T> {
  const origin = requestOriginOf(await headers());
  return withRequestOrigin(origin, load);
}

/** A page's canonical URL, absolute as `shownUrl` makes it. */
export function canonicalUrl(path: string): Promise<string> {
  return atRequestOrigin(async () => shownUrl(path));
}
