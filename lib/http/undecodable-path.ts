import { AppError } from "@/lib/errors";
import { acpError } from "@/lib/protocols/acp/errors";
import { ucpError } from "@/lib/protocols/ucp/errors";
import { PUBLIC_CORS_HEADERS } from "./cors";
import { errorBody } from "./errors";
import { REQUEST_ID_HEADER } from "./request-id";

/**
 * The answer to a path that cannot be percent-decoded (`/api/v1/listings/%ZZ`) under a route
 * handler that answers errors in JSON: Next cannot decode such a path and would answer a bare 500,
 * so the proxy answers it first, as each surface answers a path that names nothing (404
 * route_not_found in the surface's own error shape). Null for any other path: a page's is the
 * not-found page.
 */
export function undecodablePathResponse(pathname: string, requestId: string): Response | null {
  const error = new AppError("route_not_found", "The path has a malformed percent-escape.");
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", [REQUEST_ID_HEADER]: requestId };
  if (pathname.startsWith("/api/ucp/")) {
    const { status, body } = ucpError(error);
    return new Response(JSON.stringify(body), { status, headers });
  }
  if (pathname.startsWith("/api/acp/")) {
    const { status, body } = acpError(error);
    return new Response(JSON.stringify(body), { status, headers });
  }
  if (pathname.startsWith("/api/") || pathname.startsWith("/images/")) {
    return new Response(JSON.stringify(errorBody(error.code, error.message, requestId)), { status: 404, headers: { ...PUBLIC_CORS_HEADERS, ...headers } });
  }
  return null;
}

/** Whether a route handler under `pathname` checks its own path parameters (see above). */
export function answersUndecodablePath(pathname: string): boolean {
  return pathname.startsWith("/api/") || pathname.startsWith("/images/");
}
