import { AppError } from "@/lib/errors";
import { validateJson } from "@/lib/http/body";
import { parseQuery } from "@/lib/http/query";
import { type JsonSchema, jsonSchemaOf } from "@/lib/openapi/json-schema";
import { SearchQuery, type SearchParams } from "@/lib/schemas/catalog";
import type { z } from "zod";

/*
 * Tool arguments are validated exactly as the public API validates the same input, by the same
 * zod schemas, and fail with the same AppError (code, message, param). Two rules of their own:
 * - A top-level `null` is the same as leaving the argument out (agents often send null for an
 *   optional argument).
 * - Unknown arguments are refused by name, as unknown fields of a JSON body are.
 */

function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}

/** Arguments shaped like a JSON body (get_product, create_cart_link, the help tools). */
export function bodyArguments<S extends z.ZodType>(schema: S, args: Record<string, unknown>): z.output<S> {
  return validateJson(schema, withoutNulls(args));
}

let searchSchema: JsonSchema | undefined;

/**
 * The advertised input schema of search_products: SearchQuery as openapi.json describes it
 * (integers, arrays). SearchQuery lets unknown query parameters pass (a query string often
 * carries others); tool arguments are a JSON object, so unknown ones are refused, as unknown body
 * fields are.
 */
export function searchInputSchema(): JsonSchema {
  return (searchSchema ??= { ...jsonSchemaOf(SearchQuery), additionalProperties: false });
}

/**
 * search_products arguments. GET /search takes a query string, where every value is text; an
 * agent sends JSON. So the natural JSON types are accepted (integers as numbers, brand and
 * condition as arrays, as the advertised schema says; the query-string forms, digit strings and
 * comma-separated lists, work too), written into a query string, and validated by SearchQuery
 * exactly as the API validates it: the same clamping, limits and messages.
 */
export function searchArguments(args: Record<string, unknown>): SearchParams {
  const properties = searchInputSchema().properties as Record<string, { type?: string }>;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(withoutNulls(args))) {
    const kind = properties[name]?.type;
    if (kind === undefined) throw new AppError("parameter_invalid", `Unknown field '${name}'.`, name);
    if (kind === "array") {
      const items = typeof value === "string" ? [value] : Array.isArray(value) ? value : undefined;
      if (!items?.every((item) => typeof item === "string")) throw invalid(name, "must be an array of strings");
      for (const item of items) params.append(name, item);
    } else if (kind === "integer") {
      if (typeof value === "number" && Number.isFinite(value)) {
        params.append(name, Number.isInteger(value) ? BigInt(value).toString() : String(value));
      } else if (typeof value === "string") {
        params.append(name, value);
      } else {
        throw invalid(name, "must be an integer");
      }
    } else {
      if (typeof value !== "string") throw invalid(name, "must be a string");
      params.append(name, value);
    }
  }
  return parseQuery(SearchQuery, params);
}

function invalid(param: string, problem: string): AppError {
  return new AppError("parameter_invalid", `Invalid '${param}': ${problem}.`, param);
}

/**
 * Arguments of a tool whose API operation takes a query string (the buyer API's lists): JSON
 * numbers and strings are written into a query string and validated by the operation's own query
 * schema, so the limits and messages are the API's. Unknown arguments are refused by name.
 */
export function queryArguments<S extends z.ZodObject>(schema: S, args: Record<string, unknown>): z.output<S> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(withoutNulls(args))) {
    if (!(name in schema.shape)) throw new AppError("parameter_invalid", `Unknown field '${name}'.`, name);
    if (typeof value === "number" && Number.isFinite(value)) params.append(name, Number.isInteger(value) ? BigInt(value).toString() : String(value));
    else if (typeof value === "string") params.append(name, value);
    else throw invalid(name, "must be a string or a number");
  }
  return parseQuery(schema, params);
}
