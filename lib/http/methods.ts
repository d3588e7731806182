import { AppError } from "@/lib/errors";
import { type Access, publicAccess } from "./access";
import { preflightResponse } from "./cors";
import { pipeline } from "./pipeline";
import { observe } from "./policies/observe";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Handlers for the methods an endpoint does not serve (405 envelope with `Allow`) and OPTIONS.
 * Public endpoints (the default) answer the CORS preflight, allowing `requestHeaders`; an
 * authenticated surface passes its own fallback access and answers OPTIONS with `Allow` only.
 */
export function otherMethods(allowed: Method[], options: { requestHeaders?: string[]; access?: Access; name?: string } = {}) {
  const access = options.access ?? publicAccess("catalog");
  const isPublic = options.access === undefined;
  const allow = [...allowed, "OPTIONS"].join(", ");
  const refuse = pipeline(options.name ?? "public.method_not_allowed", [observe, ...access.policies], async (ctx) => {
    throw new AppError("method_not_allowed", `${ctx.request.method} is not allowed here; use ${allowed.join(" or ")}.`, undefined, {
      headers: { Allow: allow },
    });
  });
  return {
    OPTIONS: async () =>
      isPublic ? preflightResponse(allowed, options.requestHeaders) : new Response(null, { status: 204, headers: { Allow: allow, "Cache-Control": "no-store" } }),
    GET: refuse,
    POST: refuse,
    PUT: refuse,
    PATCH: refuse,
    DELETE: refuse,
  };
}
