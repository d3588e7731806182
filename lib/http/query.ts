import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Query string as an object: one string per parameter, an array when it was repeated. */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/** zod issue path to the form a client wrote it: `items[2].quantity`. */
export function paramName(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

/** Validates a query string against a schema; the first problem becomes a 400 naming the parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const raw = queryObject(params);
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = paramName(issue.path.length > 0 ? [issue.path[0]!] : []);
  if (param && Array.isArray(raw[param]) && issue.code === "invalid_type") {
    throw new AppError("parameter_invalid", `Parameter '${param}' must be given only once.`, param);
  }
  throw new AppError("parameter_invalid", param ? `Invalid '${param}': ${issue.message}.` : issue.message, param || undefined);
}
