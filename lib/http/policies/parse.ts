import type { z } from "zod";
import { parseJsonBody } from "../body";
import type { Policy } from "../pipeline";
import { parseQuery } from "../query";

/**
 * Path parameters, query string and JSON body, each validated by the endpoint's own schema (the
 * same schema its OpenAPI document shows); the first problem is a 400 naming the input.
 */
export function parseRequest(schemas: { query?: z.ZodType; body?: z.ZodType; optionalBody?: boolean }): Policy {
  return async (ctx, next) => {
    const raw = (await ctx.routeContext?.params) ?? {};
    ctx.params = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]));
    if (schemas.query) ctx.query = parseQuery(schemas.query, ctx.request.nextUrl.searchParams);
    if (schemas.body) ctx.body = await parseJsonBody(schemas.body, ctx.request, { optional: schemas.optionalBody });
    return next();
  };
}
