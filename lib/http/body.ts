import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { paramName } from "./query";

/** Largest request body read; anything longer is refused before it is parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON request body (at most MAX_BODY_BYTES, `Content-Type: application/json`) and
 * validates it. Unknown fields are refused by the schemas' `.strict()`, naming the field.
 */
export async function parseJsonBody<S extends z.ZodType>(schema: S, request: Request, options: { optional?: boolean } = {}): Promise<z.output<S>> {
  const type = request.headers.get("content-type") ?? "";
  const jsonType = JSON_TYPE.test(type);
  if (!jsonType && !options.optional) {
    throw new AppError("content_type_invalid", "Send the body as JSON with `Content-Type: application/json`.");
  }
  const text = await readText(request);
  // A body that may be left out (a protocol's cancel): an empty one is none, whatever its type.
  if (options.optional && text === "") return validateJson(schema, undefined);
  if (!jsonType) throw new AppError("content_type_invalid", "Send the body as JSON with `Content-Type: application/json`.");
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("body_invalid_json", "The request body is not valid JSON.");
  }
  return validateJson(schema, raw);
}

/**
 * Validates a parsed JSON object (a request body, or MCP tool arguments) as a body is validated:
 * the first problem becomes a 400 naming the field as the client wrote it (`items[2].quantity`),
 * `parameter_missing` when it is absent, and unknown fields are refused by name.
 */
export function validateJson<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const param = paramName([...issue.path, issue.keys[0]!]);
    throw new AppError("parameter_invalid", `Unknown field '${param}'.`, param);
  }
  if (issue.path.length === 0) {
    throw new AppError("parameter_invalid", "The request body must be a JSON object.");
  }
  const param = paramName(issue.path);
  // Absent, whatever the field's type: a string, a number, one of an enum's values.
  const missing = (issue.code === "invalid_type" || issue.code === "invalid_value" || issue.code === "invalid_union") && readAt(raw, issue.path) === undefined;
  // None of several alternatives (lib/schemas/one-of.ts): the message names them all.
  if (issue.code === "custom" && issue.params?.missing === true) throw new AppError("parameter_missing", `Missing required field: ${issue.message}.`, param);
  throw new AppError(
    missing ? "parameter_missing" : "parameter_invalid",
    missing ? `Missing required field '${param}'.` : `Invalid '${param}': ${issue.message}.`,
    param,
  );
}

async function readText(request: Request): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBodyBytes(request, tooLarge));
}

/**
 * The request body, read up to MAX_BODY_BYTES: a longer one (declared or as it streams in) stops
 * reading and throws `tooLarge()`.
 */
export async function readBodyBytes(request: Request, tooLarge: () => Error, max = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length"));
  if (declared > max) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge() {
  return new AppError("body_too_large", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
}

function readAt(value: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let node = value;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
