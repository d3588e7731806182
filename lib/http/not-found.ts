import { AppError } from "@/lib/errors";
import { type Access, publicAccess } from "./access";
import { pipeline } from "./pipeline";
import { observe } from "./policies/observe";

/** Handlers for every method of a catch-all route: the 404 envelope, with a hint where to look. */
export function notFoundRoute(hint: string, options: { access?: Access; name?: string } = {}) {
  const access = options.access ?? publicAccess("catalog");
  const notFound = pipeline(options.name ?? "public.not_found", [observe, ...access.policies], async (ctx) => {
    throw new AppError("route_not_found", `No endpoint at ${ctx.request.nextUrl.pathname}. ${hint}`);
  });
  return { GET: notFound, POST: notFound, PUT: notFound, PATCH: notFound, DELETE: notFound };
}
