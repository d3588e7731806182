import { AppError } from "@/lib/errors";
import { preflightResponse } from "./cors";
import { errorResponse } from "./route";
import { requestIdFrom } from "./request-id";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Handlers for the methods a public endpoint does not serve (405 envelope) and CORS preflight. */
export function otherMethods(allowed: Method[]) {
  const notAllowed = async (request: Request) =>
    errorResponse(
      new AppError("method_not_allowed", `${request.method} is not allowed here; use ${allowed.join(" or ")}.`),
      requestIdFrom(request.headers),
      { Allow: [...allowed, "OPTIONS"].join(", ") },
    );
  return {
    OPTIONS: async () => preflightResponse(allowed),
    GET: notAllowed,
    POST: notAllowed,
    PUT: notAllowed,
    PATCH: notAllowed,
    DELETE: notAllowed,
  };
}
