import { AppError } from "@/lib/errors";
import { publicRoute } from "./route";

/** Handlers for every method of a catch-all route: the 404 envelope, with a hint where to look. */
export function notFoundRoute(hint: string) {
  const notFound = publicRoute({ name: "public.not_found", limit: "catalog" }, async ({ request }) => {
    throw new AppError("route_not_found", `No endpoint at ${request.nextUrl.pathname}. ${hint}`);
  });
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}
