/**
 * The ACP harness: requests with the headers ACP requires, and the check every answer gets: it
 * validates against the vendored ACP 2026-04-17 JSON Schema (vendor/acp), `$defs` by name.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { api, type ApiResponse } from "./http";
import type { IsolatedApp } from "./seller";

const bundle = JSON.parse(readFileSync("vendor/acp/2026-04-17/schema.agentic_checkout.json", "utf8"));
const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true });
addFormats(ajv);
// The bundle uses the non-standard `example` keyword.
ajv.addKeyword("example");
ajv.addSchema(bundle);

export const ACP_VERSION = "2026-04-17";
export const PLATFORM_KEY = "acp-platform-key-0123456789";

/** `value` validates against the vendored schema's `$defs/<def>`. */
export function expectAcp(def: string, value: unknown): void {
  const validate = ajv.getSchema(`${bundle.$id}#/$defs/${def}`);
  if (!validate) throw new Error(`no $defs/${def} in the ACP schema`);
  if (!validate(value)) throw new Error(`not a valid ACP ${def}: ${ajv.errorsText(validate.errors, { separator: "; " }).slice(0, 1500)}\n${JSON.stringify(value).slice(0, 1500)}`);
}

export type AcpAnswer = ApiResponse;

export function acpClient(app: IsolatedApp, key = PLATFORM_KEY) {
  const headers = (extra: Record<string, string> = {}) => ({
    Authorization: `Bearer ${key}`,
    "API-Version": ACP_VERSION,
    "Content-Type": "application/json",
    "Idempotency-Key": randomUUID(),
    "Request-Id": `req_${randomUUID()}`,
    ...extra,
  });
  function request(method: string, path: string, body?: unknown, hdrs: Record<string, string> = headers()): Promise<AcpAnswer> {
    const url = path.startsWith("/.well-known") ? `${app.baseUrl}${path}` : `${app.baseUrl}/api/acp${path}`;
    return api(url, { method, headers: hdrs, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  }
  return { headers, request };
}

/** An ACP error answer: its status and `$defs/Error`. */
export function expectAcpError(res: AcpAnswer, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expectAcp("Error", res.json);
  if (code) expect(res.json.code).toBe(code);
}
