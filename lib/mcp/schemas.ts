import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { type JsonSchema, jsonSchemaOf } from "@/lib/openapi/json-schema";
import { ErrorEnvelope } from "@/lib/schemas/errors";
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

/** A JSON Schema made on first use and kept: tools are the same for every request. */
export function once(make: () => JsonSchema): () => JsonSchema {
  let value: JsonSchema | undefined;
  return () => (value ??= make());
}

/**
 * A tool's output schema (made once per tool, not per request): the API's response body, success (`{ data, meta }`) or error
 * (`{ error }`), advertised as openapi.json describes it and checked by the same zod schemas.
 * Both shapes are declared because a tool error carries the error envelope as its structured
 * content, and 2025-era clients check structured content against the schema even on errors.
 */
export function responseBody(success: z.ZodType): StandardSchemaWithJSON {
  const schema = zod.union([success, ErrorEnvelope]);
  const advertised = once(() => ({ type: "object", ...jsonSchemaOf(schema) }));
  return {
    "~standard": {
      version: 1,
      vendor: "marketplace",
      validate: (value) => {
        const result = schema.safeParse(value);
        return result.success
          ? { value: result.data }
          : { issues: result.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
      jsonSchema: { input: advertised, output: advertised },
    },
  };
}
