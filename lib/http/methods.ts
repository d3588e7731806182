import { AppError } from "@/lib/errors";
import { preflightResponse } from "./cors";
import { publicRoute } from "./route";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Handlers for the methods a public endpoint does not serve (405 envelope) and CORS preflight,
 * which allows `requestHeaders` (default: those of the JSON API).
 */
export function otherMethods(allowed: Method[], options: { requestHeaders?: string[] } = {}) {
  const refuse = publicRoute({ name: "public.method_not_allowed", limit: "catalog" }, async ({ request }) => {
    throw new AppError("method_not_allowed", `${request.method} is not allowed here; use ${allowed.join(" or ")}.`);
  });
  const notAllowed: typeof refuse = async (request, context) => {
    const response = await refuse(request, context);
    response.headers.set("Allow", [...allowed, "OPTIONS"].join(", "));
    return response;
  };
  return {
    OPTIONS: async () => preflightResponse(allowed, options.requestHeaders),
    GET: notAllowed,
    POST: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
  };
}
