/**
 * decisions.md "Seller API": `GET /api/v1/openapi.json` describes the seller API as OpenAPI 3.1,
 * version 1.0.0, server `/api/v1`, an http bearer security scheme, each operation's security
 * listing its scope; generated from the same descriptions the routes use, so every route of
 * SELLER_ENDPOINTS is in it with every error code it can answer. It validates and lints clean.
 * Seller responses carry no CORS headers.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { SELLER_ENDPOINTS } from "@/lib/endpoints/seller";
import { sellerOpenApiEndpoint } from "@/lib/endpoints/seller/openapi";
import { ERROR_TABLE } from "@/lib/errors";
import { errorCodesOf } from "@/lib/openapi/document";
import { api, type ApiResponse } from "../helpers/http";

const DOC_PATH = "/api/v1/openapi.json";

describe("GET /api/v1/openapi.json", () => {
  let res: ApiResponse;
  let doc: any;
  beforeAll(async () => {
    res = await api(DOC_PATH);
    doc = res.json;
  });

  it("answers 200 JSON, the document itself, cacheable, without CORS", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
    expect(doc.data).toBeUndefined();
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=300");
    expect(res.headers.get("etag")).toBeTruthy();
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBeTruthy();
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight without CORS, and other methods with 405", async () => {
    const preflight = await api(DOC_PATH, { method: "OPTIONS", headers: { Origin: "https://example.org", "Access-Control-Request-Method": "GET" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const post = await api(DOC_PATH, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.json.error.code).toBe("method_not_allowed");
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is OpenAPI 3.1, info.version 1.0.0, servers [{ url: /api/v1 }]", () => {
    expect(String(doc.openapi)).toMatch(/^3\.1\./);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).toBeTypeOf("string");
    expect(doc.servers).toEqual([{ url: "/api/v1" }]);
  });

  it("describes keys, scopes, rate limits, idempotency, cursors and the error envelope in info.description", () => {
    const text: string = doc.info.description;
    for (const needle of [
      "Authorization: Bearer mk_live_<key_id>.<secret>",
      "listings:read",
      "listings:write",
      "shipping:write",
      "scope_missing",
      "60 requests at once, refilled at 10 per second",
      "30 at once, 5 per second",
      "Retry-After",
      "Idempotency-Key",
      "Idempotent-Replayed: true",
      "idempotency_key_reused",
      "next_cursor",
      "`limit` is 1 to 100 (default 25",
      "{ error: { type, code, message, param?, request_id } }",
    ]) {
      expect(text, needle).toContain(needle);
    }
  });

  it("has an http bearer security scheme storeApiKey", () => {
    expect(doc.components.securitySchemes.storeApiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("its error envelope enumerates exactly the codes its operations answer", () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(["error"]);
    const inner = error.properties.error;
    const answered = new Set([...SELLER_ENDPOINTS, sellerOpenApiEndpoint].flatMap(errorCodesOf));
    expect([...inner.properties.code.enum].sort()).toEqual([...answered].sort());
    expect(inner.properties.code.enum).not.toContain("payment_declined");
    expect([...inner.required].sort()).toEqual(["code", "message", "request_id", "type"]);
    expect(Object.keys(inner.properties).sort()).toEqual(["code", "message", "param", "request_id", "type"]);
  });

  it("documents itself without security", () => {
    expect(doc.paths["/openapi.json"].get.security).toEqual([]);
  });

  it("documents every seller route with its method, operationId and scope", () => {
    expect(SELLER_ENDPOINTS.length).toBeGreaterThan(0);
    for (const endpoint of SELLER_ENDPOINTS) {
      const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(op, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(op.operationId).toBe(endpoint.operationId);
      expect(op.security).toEqual(endpoint.access.security);
      expect(op.security.length, `${endpoint.operationId} has a scope`).toBeGreaterThan(0);
      for (const requirement of op.security) {
        expect(Object.keys(requirement)).toEqual(["storeApiKey"]);
        expect(requirement.storeApiKey.length).toBeGreaterThan(0);
      }
      expect(op.responses[String(endpoint.success.status)]).toBeDefined();
    }
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual([...SELLER_ENDPOINTS.map((e) => `${e.method} ${e.path}`), "GET /openapi.json"].sort());
  });

  it("the shipping-template operations carry the scopes of spec 4.8", () => {
    expect(doc.paths["/shipping-templates"].get.security).toEqual([{ storeApiKey: ["listings:read"] }]);
    expect(doc.paths["/shipping-templates"].post.security).toEqual([{ storeApiKey: ["shipping:write"] }]);
    expect(doc.paths["/shipping-templates/{id}"].patch.security).toEqual([{ storeApiKey: ["shipping:write"] }]);
  });

  it("lists, under the right status, every error code each operation can answer", () => {
    for (const endpoint of SELLER_ENDPOINTS) {
      const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      for (const code of errorCodesOf(endpoint)) {
        const response = op.responses[String(ERROR_TABLE[code].status)];
        expect(response, `${endpoint.operationId}: ${code}`).toBeDefined();
        expect(response.description, `${endpoint.operationId}: ${code}`).toContain(`\`${code}\``);
        expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("names the codes every seller operation shares: key, scope, rate limit, 500", () => {
    for (const endpoint of SELLER_ENDPOINTS) {
      const codes = errorCodesOf(endpoint);
      for (const code of ["api_key_missing", "api_key_invalid", "api_key_revoked", "api_key_expired", "scope_missing", "store_inactive", "rate_limited", "internal_error"] as const) {
        expect(codes, endpoint.operationId).toContain(code);
      }
      if (endpoint.body) for (const code of ["parameter_invalid", "parameter_missing", "body_invalid_json", "body_too_large", "content_type_invalid"] as const) expect(codes).toContain(code);
      if (endpoint.query) expect(codes).toContain("parameter_invalid");
    }
    const patch = errorCodesOf(SELLER_ENDPOINTS.find((e) => e.operationId === "updateShippingTemplate")!);
    expect(patch).toEqual(expect.arrayContaining(["shipping_template_not_found", "idempotency_key_reused", "idempotency_key_in_use"]));
  });

  it("mutations take an Idempotency-Key header and may answer Idempotent-Replayed; lists take limit and cursor", () => {
    for (const endpoint of SELLER_ENDPOINTS) {
      const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      const headerParams = (op.parameters ?? []).filter((p: any) => p.in === "header").map((p: any) => p.name);
      const success = op.responses[String(endpoint.success.status)];
      if (endpoint.method !== "GET") {
        expect(endpoint.idempotent, endpoint.operationId).toBe(true);
        expect(headerParams, endpoint.operationId).toContain("Idempotency-Key");
        expect(Object.keys(success.headers)).toContain("Idempotent-Replayed");
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const header of ["X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) {
          expect(Object.keys(response.headers ?? {}), `${endpoint.operationId} ${status} ${header}`).toContain(header);
        }
        if (status === "429") expect(Object.keys(response.headers)).toContain("Retry-After");
      }
    }
    const listParams = doc.paths["/shipping-templates"].get.parameters.filter((p: any) => p.in === "query").map((p: any) => p.name);
    expect(listParams.sort()).toEqual(["cursor", "limit"]);
    expect(doc.paths["/shipping-templates/{id}"].patch.parameters.find((p: any) => p.in === "path")?.name).toBe("id");
  });

  it("validates against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes `redocly lint --extends=minimal` with no warnings", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "seller-openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    try {
      await writeFile(file, JSON.stringify(doc, null, 2));
      const result = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          "npx",
          ["redocly", "lint", "--extends=minimal", file],
          { cwd: process.cwd(), timeout: 60_000, env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" }, maxBuffer: 10 * 1024 * 1024 },
          (err, stdout, stderr) => {
            const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
            resolve({ code, out: `${stdout}\n${stderr}` });
          },
        );
      });
      expect(result.code, result.out).toBe(0);
      expect(result.out, "redocly warnings").not.toMatch(/You have \d+ warnings?/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
