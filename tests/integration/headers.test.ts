/**
 * Spec 8 "Caching", decisions.md "Wire conventions": Cache-Control, ETag / If-None-Match,
 * Content-Type, CORS for any origin without credentials.
 */
import { describe, expect, it } from "vitest";
import { api, expectErrorEnvelope } from "../helpers/http";

const CATALOG_60 = ["/search", "/search?q=Quokkaphone&condition=new", "/products/fixture-mixed-offers"];
const ERRORS: [string, number][] = [
  ["/search?page=0", 400],
  ["/products/fixture-unlisted", 404],
  ["/no-such-endpoint", 404],
];

describe("Cache-Control: catalog reads s-maxage=60, categories s-maxage=300, errors no-store", () => {
  it.each(CATALOG_60)("GET %s -> public, s-maxage=60", async (path) => {
    const res = await api(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=60");
  });

  it("GET /categories -> public, s-maxage=300", async () => {
    const res = await api("/categories");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=300");
  });

  it.each(ERRORS)("GET %s (%i) -> no-store", async (path, status) => {
    const res = await api(path);
    expect(res.status).toBe(status);
    const cc = res.headers.get("cache-control") ?? "";
    expect(cc).toContain("no-store");
    expect(cc).not.toContain("public");
    expect(cc).not.toContain("s-maxage");
  });

  it("405 -> no-store", async () => {
    const res = await api("/search", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("cache-control") ?? "").toContain("no-store");
  });
});

describe("Content-Type is application/json", () => {
  it.each([...CATALOG_60, "/categories", "/openapi.json", ...ERRORS.map(([p]) => p)])("GET %s", async (path) => {
    const res = await api(path);
    expect(res.headers.get("content-type") ?? "").toMatch(/^application\/json/);
  });
});

describe("Cacheable reads carry an ETag; a matching If-None-Match answers 304", () => {
  it.each([...CATALOG_60, "/categories"])("GET %s", async (path) => {
    const first = await api(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag");
    expect(etag, "ETag header").toBeTruthy();

    const second = await api(path, { headers: { "If-None-Match": etag! } });
    expect(second.status).toBe(304);
    expect(second.text).toBe("");
    expect(second.headers.get("etag")).toBe(etag);
    expect(second.headers.get("x-request-id")).toBeTruthy();
  });

  it("the ETag does not depend on the request id", async () => {
    const a = await api("/categories", { headers: { "X-Request-Id": "first-request-0001" } });
    const b = await api("/categories", { headers: { "X-Request-Id": "second-request-0002" } });
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
  });

  it("a different resource has a different ETag, and a stale If-None-Match gets the full 200", async () => {
    const a = await api("/search?page=1");
    const b = await api("/search?page=2");
    expect(a.headers.get("etag")).not.toBe(b.headers.get("etag"));
    const res = await api("/search?page=2", { headers: { "If-None-Match": a.headers.get("etag")! } });
    expect(res.status).toBe(200);
    expect(res.json.data.length).toBeGreaterThan(0);
  });

  it("If-None-Match: * also matches", async () => {
    const res = await api("/categories", { headers: { "If-None-Match": "*" } });
    expect(res.status).toBe(304);
  });

  it("errors carry no ETag", async () => {
    const res = await api("/products/fixture-unlisted");
    expect(res.status).toBe(404);
    expect(res.headers.get("etag")).toBeNull();
  });
});

describe("CORS: any origin, no credentials, preflight included", () => {
  const origin = "https://agent.example";

  it.each([...CATALOG_60, "/categories", "/openapi.json"])("GET %s -> Access-Control-Allow-Origin: *", async (path) => {
    const res = await api(path, { headers: { Origin: origin } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).not.toBe("true");
  });

  it.each(ERRORS)("error GET %s (%i) is readable cross-origin too", async (path, status) => {
    const res = await api(path, { headers: { Origin: origin } });
    expect(res.status).toBe(status);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("Access-Control-Allow-Origin: * even without an Origin header", async () => {
    const res = await api("/categories");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("exposes X-Request-Id to browsers", async () => {
    const res = await api("/categories", { headers: { Origin: origin } });
    const exposed = (res.headers.get("access-control-expose-headers") ?? "").toLowerCase();
    expect(exposed === "*" || exposed.split(/\s*,\s*/).includes("x-request-id")).toBe(true);
  });

  it.each(["/search", "/products/fixture-mixed-offers", "/categories", "/openapi.json"])(
    "OPTIONS %s preflight -> 204 with GET allowed",
    async (path) => {
      const res = await api(path, {
        method: "OPTIONS",
        headers: {
          Origin: origin,
          "Access-Control-Request-Method": "GET",
          "Access-Control-Request-Headers": "x-request-id",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      const methods = (res.headers.get("access-control-allow-methods") ?? "").toUpperCase();
      expect(methods.split(/\s*,\s*/)).toContain("GET");
      const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
      expect(allowed === "*" || allowed.split(/\s*,\s*/).includes("x-request-id")).toBe(true);
    },
  );
});

describe("Error responses keep the envelope whatever the Accept header", () => {
  it("Accept: text/html on an unknown product still gets JSON", async () => {
    const res = await api("/products/fixture-unlisted", { headers: { Accept: "text/html" } });
    expectErrorEnvelope(res, { status: 404, type: "not_found_error", code: "product_not_found" });
  });
});
