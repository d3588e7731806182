import { OpenApiGeneratorV31, OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import type { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const ROOT = "__root";
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

/**
 * A zod schema as a self-contained JSON Schema (2020-12), generated exactly as openapi.json is,
 * so it carries the same JSON-natural types and descriptions (`page` is an integer there, a
 * string in a query string). Named components become `$defs`; OpenAPI's `example` becomes
 * JSON Schema's `examples`.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const registry = new OpenAPIRegistry();
  registry.register(ROOT, schema);
  const generated = new OpenApiGeneratorV31(registry.definitions).generateComponents();
  const components = { ...(generated.components?.schemas ?? {}) } as Record<string, JsonSchema>;
  let root = components[ROOT]!;
  delete components[ROOT];
  // A schema that is itself a named component is generated as a reference to it.
  const rootRef = typeof root.$ref === "string" ? COMPONENT_REF.exec(root.$ref)?.[1] : undefined;
  if (rootRef && Object.keys(root).length === 1) root = components[rootRef]!;

  const used = new Set<string>();
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== "object") return node;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && COMPONENT_REF.test(value)) {
        const name = COMPONENT_REF.exec(value)![1]!;
        used.add(name);
        out.$ref = `#/$defs/${name}`;
      } else if (key === "example") {
        out.examples = [value];
      } else {
        out[key] = rewrite(value);
      }
    }
    return out;
  };
  const body = rewrite(root) as JsonSchema;
  // Definitions reachable from the root, following references between definitions too.
  const defs: JsonSchema = {};
  for (let pending = [...used]; pending.length > 0; pending = [...used].filter((name) => !(name in defs))) {
    for (const name of pending) defs[name] = rewrite(components[name]);
  }
  return Object.keys(defs).length > 0 ? { ...body, $defs: defs } : body;
}
