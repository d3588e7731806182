import { NextResponse, type NextRequest } from "next/server";
import { CART_COOKIE, cartCookieOptions } from "@/lib/cart/cookie";
import { isToken, newToken } from "@/lib/cart/token";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/http/request-id";
import { publicBaseUrl } from "@/lib/config";
import { contentSecurityPolicy, newNonce, NONCE_HEADER, pageSecurityHeaders } from "@/lib/http/security-headers";
import { answersUndecodablePath, undecodablePathResponse } from "@/lib/http/undecodable-path";
import { storefrontPageExists, storefrontPageOf } from "@/lib/storefront/page-exists";
import { PAGE_PATH_HEADER } from "@/lib/storefront/private-pages";

/** Unmatched by any route: a rewrite here renders app/not-found.tsx as HTML, with status 404. */
const NOT_FOUND_PATH = "/_not-found-page";

/**
 * Every request gets an X-Request-Id (a well-formed incoming one is kept) on both sides.
 * Opening a cart link (/cart/l/{token}) needs the visitor's cart cookie before the page renders,
 * and a page cannot set cookies: a visitor without one gets it here, on the request and the
 * response alike.
 * A product, category, store or help article page whose subject does not exist is sent to the
 * not-found page here, before rendering (lib/storefront/page-exists.ts): a page that calls
 * notFound() itself gets Next's error shell, empty without JavaScript.
 * Every answer gets the pages' security headers (lib/http/security-headers.ts) with a fresh
 * script nonce, which Next reads from the request's Content-Security-Policy header.
 */
export async function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers);
  const { pathname } = request.nextUrl;
  // Nothing is named with a NUL, and PostgreSQL text cannot hold one: a page or form path with an
  // encoded NUL (`/seller/%00/keys/create`) is not found, as one that cannot be decoded. (The API
  // and image routes check their path parameters themselves and answer their own not-found codes.)
  const decodable = isDecodable(pathname) && (answersUndecodablePath(pathname) || !/%00/i.test(pathname));
  // Next cannot decode a path with a malformed percent-escape (`/p/%ZZ`) and answers a bare 500.
  const malformed = decodable ? null : undecodablePathResponse(pathname, requestId);
  if (malformed) return malformed;
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  // Always overwritten, so a client cannot pose as another page (lib/storefront/private-pages.ts).
  headers.set(PAGE_PATH_HEADER, pathname);
  const nonce = newNonce();
  const development = process.env.NODE_ENV === "development";
  headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, { development }));
  headers.set(NONCE_HEADER, nonce);

  let newCartToken: string | undefined;
  const cartCookie = request.cookies.get(CART_COOKIE)?.value;
  if (request.nextUrl.pathname.startsWith("/cart/l/") && !(cartCookie && isToken(cartCookie))) {
    newCartToken = newToken();
    request.cookies.set(CART_COOKIE, newCartToken);
    headers.set("cookie", request.cookies.toString());
  }

  // A page path that cannot be decoded gets the not-found page; a cart link mangled in transit
  // gets the link page's "not found".
  let response: NextResponse;
  if (!decodable) {
    const url = request.nextUrl.clone();
    url.pathname = pathname.startsWith("/cart/l/") ? "/cart/l/-" : NOT_FOUND_PATH;
    response = NextResponse.rewrite(url, { request: { headers } });
  } else if (await isMissingPage(request.method, pathname)) {
    const url = request.nextUrl.clone();
    url.pathname = NOT_FOUND_PATH;
    response = NextResponse.rewrite(url, { request: { headers } });
    // next.config.ts gives the page's path `public, s-maxage=60`; a 404 is not to be shared.
    response.headers.set("Cache-Control", NOT_FOUND_CACHE_CONTROL);
  } else {
    response = NextResponse.next({ request: { headers } });
  }
  response.headers.set(REQUEST_ID_HEADER, requestId);
  const https = publicBaseUrl().startsWith("https:");
  for (const [name, value] of Object.entries(pageSecurityHeaders(nonce, { https, development }))) response.headers.set(name, value);
  // A cart link's token stays out of Referer headers altogether (next.config.ts says no-referrer).
  if (pathname.startsWith("/cart/l/")) response.headers.set("Referrer-Policy", "no-referrer");
  if (newCartToken) response.cookies.set(CART_COOKIE, newCartToken, cartCookieOptions());
  return response;
}

const NOT_FOUND_CACHE_CONTROL = "private, no-cache, no-store, max-age=0, must-revalidate";

async function isMissingPage(method: string, pathname: string): Promise<boolean> {
  if (method !== "GET" && method !== "HEAD") return false;
  const page = storefrontPageOf(pathname);
  return page !== null && !(await storefrontPageExists(page));
}

function isDecodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

// API and image routes get their request id from their route wrapper (lib/http/route.ts); running
// the proxy in front of them as well halved API throughput in `npm run bench`. It sees only their
// paths holding a percent sign, to answer the undecodable ones.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|images/|media/).*)", "/api/:path(.*%.*)", "/images/:path(.*%.*)", "/media/:path(.*%.*)"],
};
