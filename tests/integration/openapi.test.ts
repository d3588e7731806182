/**
 * Spec 4.5 and 9: GET /openapi.json describes the public API as OpenAPI 3.1, version 1.0.0,
 * server base path /api/public/v1; it validates and lints clean.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_ENDPOINTS } from "@/lib/endpoints/public";
import { ERROR_TABLE, PUBLIC_ERROR_CODES } from "@/lib/errors";
import { errorCodesOf } from "@/lib/openapi/document";
import { api, type ApiResponse } from "../helpers/http";

describe("GET /openapi.json", () => {
  let res: ApiResponse;
  let doc: any;
  beforeAll(async () => {
    res = await api("/openapi.json");
    doc = res.json;
  });

  it("answers 200 JSON with the document itself (no envelope)", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type") ?? "").toMatch(/^application\/(vnd\.oai\.openapi\+)?json/);
    expect(doc).toBeTypeOf("object");
    expect(doc.data).toBeUndefined();
  });

  it("is OpenAPI 3.1, info.version 1.0.0", () => {
    expect(String(doc.openapi)).toMatch(/^3\.1(\.|$)/);
    expect(doc.info.version).toBe("1.0.0");
    expect(doc.info.title).toBeTypeOf("string");
  });

  it("servers[0].url is the /api/public/v1 base path (relative or absolute)", () => {
    expect(Array.isArray(doc.servers)).toBe(true);
    expect(doc.servers[0].url).toMatch(/(^|^https?:\/\/[^/]+)\/api\/public\/v1$/);
  });

  it("documents /search, /products/{slug}, /categories and /openapi.json", () => {
    const paths = Object.keys(doc.paths ?? {});
    for (const p of ["/search", "/products/{slug}", "/categories", "/openapi.json"]) expect(paths).toContain(p);
    expect(doc.paths["/search"].get).toBeDefined();
    expect(doc.paths["/products/{slug}"].get).toBeDefined();
    expect(doc.paths["/categories"].get).toBeDefined();
  });

  it("documents X-Corrected-Query and X-Query-Relaxed on the search answers (200 and 304), as optional", () => {
    for (const status of ["200", "304"]) {
      const headers = doc.paths["/search"].get.responses[status].headers;
      for (const [name, component] of [["X-Corrected-Query", "CorrectedQuery"], ["X-Query-Relaxed", "QueryRelaxed"]] as const) {
        expect(headers[name], `${status} ${name}`).toEqual({ $ref: `#/components/headers/${component}` });
        expect(doc.components.headers[component].required).toBe(false);
        expect(doc.components.headers[component].description).toMatch(name === "X-Corrected-Query" ? /percent-encoded UTF-8/ : /`true`/);
      }
    }
    // Only search says how a query was read.
    expect(doc.paths["/products/{slug}"].get.responses["200"].headers["X-Corrected-Query"]).toBeUndefined();
  });

  it("documents every search parameter of spec 4.1", () => {
    const params = (doc.paths["/search"].get.parameters ?? []).map((p: any) =>
      p.$ref ? p.$ref.split("/").pop() : p.name,
    );
    const resolved = (doc.paths["/search"].get.parameters ?? []).map((p: any) => {
      if (!p.$ref) return p.name;
      const name = p.$ref.split("/").pop();
      return doc.components?.parameters?.[name]?.name ?? name;
    });
    for (const name of [
      "q",
      "category",
      "brand",
      "condition",
      "price_min_cents",
      "price_max_cents",
      "sort",
      "page",
      "page_size",
    ]) {
      expect(resolved, `parameter ${name} (have ${params.join(", ")})`).toContain(name);
    }
  });

  it("documents every public route, each error code it can answer under its status and in the envelope", () => {
    const documented = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual(PUBLIC_ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
    const envelopeCodes = doc.components.schemas.Error.properties.error.properties.code.enum;
    expect([...envelopeCodes].sort()).toEqual([...PUBLIC_ERROR_CODES].sort());
    for (const endpoint of PUBLIC_ENDPOINTS) {
      const op = doc.paths[endpoint.path][endpoint.method.toLowerCase()];
      expect(op.security).toEqual([]);
      for (const code of errorCodesOf(endpoint)) {
        expect(envelopeCodes, `${endpoint.operationId}: ${code}`).toContain(code);
        expect(op.responses[String(ERROR_TABLE[code].status)]?.description, `${endpoint.operationId}: ${code}`).toContain(`\`${code}\``);
      }
    }
  });

  it("validates against the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("passes `redocly lint --extends=minimal` with no warnings", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
    const file = path.join(dir, "openapi.json");
    try {
      await writeFile(file, JSON.stringify(doc, null, 2));
      const result = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile(
          "npx",
          ["redocly", "lint", "--extends=minimal", file],
          {
            cwd: process.cwd(),
            timeout: 60_000,
            env: { ...process.env, REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
            maxBuffer: 10 * 1024 * 1024,
          },
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
