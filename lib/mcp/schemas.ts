import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { errorEnvelope } from "@/lib/openapi/document";
import { type JsonSchema, jsonSchemaOf } from "@/lib/openapi/json-schema";
import { z as zod } from "@/lib/schemas/zod";

/**
 * A tool's input schema as the SDK takes it: advertised in tools/list as `json`, and letting any
 * arguments object through to the handler. The handler validates with the API's own schema, so
 * that bad arguments become a tool error carrying the API's error envelope; the SDK's own check
 * would answer with a bare message instead.
 */
export function advertisedInput(json: () => JsonSchema): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "marketplace",
      validate: (value) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: json, output: json },
    },
  };
}

/** A value made on first use and kept: tools are the same for every request. */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** Whether a JSON Schema requires a field anywhere (so an argument can be missing). */
function requiresAField(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(requiresAField);
  if (node === null || typeof node !== "object") return false;
  const required = (node as { required?: unknown }).required;
  return (Array.isArray(required) && required.length > 0) || Object.values(node).some(requiresAField);
}

/** The argument a keyed write takes its idempotency key in (as a REST write takes Idempotency-Key). */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

/**
 * The codes a tool's error can carry, in error-table order: its operation's own, its arguments'
 * (`parameter_invalid`, as any tool refuses an unknown argument; `parameter_missing` when a field
 * is required; the idempotency key's refusals when it takes one), and the 500 and 503 any call may
 * answer. What the HTTP request answers itself (a token, a scope, the rate limit, a body that is
 * not JSON-RPC) is never a tool's error.
 */
export function toolErrorCodes(own: readonly ErrorCode[], input: JsonSchema): ErrorCode[] {
  const codes = new Set<ErrorCode>([...own, "parameter_invalid", "internal_error", "service_unavailable"]);
  if (requiresAField(input)) codes.add("parameter_missing");
  if (IDEMPOTENCY_ARGUMENT in ((input.properties as object | undefined) ?? {})) codes.add("idempotency_key_reused").add("idempotency_key_in_use");
  return ERROR_CODES.filter((code) => codes.has(code));
}

/**
 * A tool's output schema: the API's response body, success (`{ data, meta }`) or error
 * (`{ error }`) with exactly the codes the tool can answer (`toolErrorCodes`), advertised as
 * openapi.json describes such bodies and checked by the same zod schemas. Both shapes are
 * declared because a tool error carries the error envelope as its structured content, and
 * clients of the 1.x SDK check it against the schema even on errors (a code the schema left out
 * would reach them as -32602 instead of the refusal). Built on first use, once per tool.
 */
export function responseBody(success: z.ZodType, own: readonly ErrorCode[], input: () => JsonSchema): StandardSchemaWithJSON {
  const schema = once(() => zod.union([success, errorEnvelope(toolErrorCodes(own, input()))]));
  const advertised = once(() => ({ type: "object", ...jsonSchemaOf(schema()) }));
  return {
    "~standard": {
      version: 1,
      vendor: "marketplace",
      validate: (value) => {
        const result = schema().safeParse(value);
        return result.success
          ? { value: result.data }
          : { issues: result.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
      jsonSchema: { input: advertised, output: advertised },
    },
  };
}
