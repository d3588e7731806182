/**
 * Spec 1 (envelopes), 2.8 (request_id in every meta), 7 (error envelope), and decisions.md
 * "Wire conventions" (request ids, error types and codes).
 */
import { describe, expect, it } from "vitest";
import { api, baseUrl, expectErrorEnvelope, expectSuccessEnvelope } from "../helpers/http";

describe("Success envelope is exactly { data, meta } with meta.request_id = X-Request-Id", () => {
  it.each([
    ["/search"],
    ["/search?q=Quokkaphone"],
    ["/products/fixture-mixed-offers"],
    ["/categories"],
  ])("GET %s", async (path) => {
    const res = await api(path);
    expectSuccessEnvelope(res);
  });

  it("product retrieval meta is exactly { request_id }", async () => {
    const res = await api("/products/fixture-mixed-offers");
    expectSuccessEnvelope(res);
    expect(Object.keys(res.json.meta)).toEqual(["request_id"]);
  });
});

describe("Request ids: a well-formed incoming X-Request-Id is reused, anything else is replaced", () => {
  it("echoes a well-formed X-Request-Id on success", async () => {
    const res = await api("/categories", { headers: { "X-Request-Id": "abcdefgh-1234" } });
    expectSuccessEnvelope(res);
    expect(res.json.meta.request_id).toBe("abcdefgh-1234");
  });

  it("echoes a well-formed X-Request-Id on an error", async () => {
    const res = await api("/products/fixture-unlisted", { headers: { "X-Request-Id": "abcdefgh-1234" } });
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
    expect(res.json.error.request_id).toBe("abcdefgh-1234");
  });

  it.each([
    ["with a space and '!'", "bad id!"],
    ["too short", "abc"],
    ["300 characters", "a".repeat(300)],
  ])("replaces a malformed X-Request-Id (%s) by a generated one", async (_label, incoming) => {
    const res = await api("/categories", { headers: { "X-Request-Id": incoming } });
    expectSuccessEnvelope(res);
    expect(res.json.meta.request_id).not.toBe(incoming);
    expect(res.json.meta.request_id).toMatch(/^[A-Za-z0-9._-]{8,128}$/);
  });

  it("generates a fresh id per request when none is sent", async () => {
    const a = await api("/categories");
    const b = await api("/categories");
    expectSuccessEnvelope(a);
    expectSuccessEnvelope(b);
    expect(a.json.meta.request_id).not.toBe(b.json.meta.request_id);
  });
});

describe("Error envelope is exactly { error: { type, code, message, request_id, param? } }", () => {
  it("400 invalid_request_error / parameter_invalid names the parameter", async () => {
    const res = await api("/search?page=0");
    expectErrorEnvelope(res, { status: 400, type: "invalid_request_error", code: "parameter_invalid", param: "page" });
  });

  it("404 not_found_error / product_not_found for an unknown product", async () => {
    const res = await api("/products/no-such-product-slug-zzz");
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
  });

  it("404 not_found_error / route_not_found for an unknown path under /api/public/v1", async () => {
    const res = await api("/no-such-endpoint");
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "route_not_found" });
  });

  it("404 route_not_found for the API root itself, pointing to openapi.json", async () => {
    for (const path of ["/api/public/v1"]) {
      const res = await api(path);
      expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "route_not_found" });
      expect(res.json.error.message).toContain("openapi.json");
    }
  });

  it("404 route_not_found for a nested unknown path", async () => {
    const res = await api("/products/fixture-mixed-offers/reviews");
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "route_not_found" });
  });

  it("405 method_not_allowed_error / method_not_allowed for POST /search, with an Allow header", async () => {
    const res = await api("/search", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expectErrorEnvelope(res, { status: 405, type: "method_not_allowed_error", code: "method_not_allowed" });
    const allow = res.headers.get("allow") ?? "";
    expect(allow.split(",").map((m) => m.trim().toUpperCase())).toContain("GET");
    expect(allow.toUpperCase()).not.toContain("POST");
  });

  it.each([["DELETE", "/products/fixture-mixed-offers"], ["PUT", "/categories"]])(
    "405 for %s %s",
    async (method, path) => {
      const res = await api(path, { method });
      expectErrorEnvelope(res, { status: 405, type: "method_not_allowed_error", code: "method_not_allowed" });
      expect(res.headers.get("allow")?.toUpperCase()).toContain("GET");
    },
  );
});

describe("A path with a malformed percent-escape is not found, never a 500", () => {
  it.each(["/api/public/v1/products/%ZZ", "/api/public/v1/%E0%A4%A", "/api/public/v1/search/%"])(
    "%s answers the 404 envelope",
    async (path) => {
      const res = await api(path);
      expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "route_not_found" });
      expect(res.headers.get("cache-control")).toBe("no-store");
    },
  );

  it.each(["/p/%ZZ", "/c/%ZZ", "/help/%ZZ", "/%ZZ"])("page %s answers 404 with the not-found page", async (path) => {
    const res = await api(baseUrl() + path);
    expect(res.status).toBe(404);
    expect(res.text).toContain('data-page="not-found"');
  });
});

describe("Unknown paths under /api/mcp answer the 404 envelope", () => {
  it.each(["/api/mcp", "/api/mcp/sse", "/api/mcp/mcp/extra"])("%s", async (path) => {
    for (const method of ["GET", "POST"]) {
      const res = await api(path, { method });
      expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "route_not_found" });
      expect(res.json.error.message).toContain("/api/mcp/mcp");
    }
  });
});
