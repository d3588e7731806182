import { NextResponse, type NextRequest } from "next/server";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/http/request-id";

/** Every request gets an X-Request-Id (a well-formed incoming one is kept) on both sides. */
export function proxy(request: NextRequest) {
  const requestId = requestIdFrom(request.headers);
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  return response;
}

// API routes get their request id from their route wrapper (lib/http/route.ts); running the
// proxy in front of them as well halved API throughput in `npm run bench`.
export const config = {
  matcher: ["/((?!api/|_next/static|_next/image|favicon.ico|images/).*)"],
};
