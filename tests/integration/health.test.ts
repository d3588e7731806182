/**
 * GET /api/health (lib/maintenance/health.ts): what a load balancer and an operator read of one
 * process. The database being away (503) is checked with the fault tests, where a database
 * server is stopped; here: a healthy app, and one whose Redis is gone (still serving: degraded).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, expectErrorEnvelope, expectExactKeys, type ApiResponse } from "../helpers/http";
import { freePort, startServer, type StartedServer } from "../setup/app";

const KEYS = ["status", "database", "redis", "catalog_changes"];

function expectHealth(res: ApiResponse) {
  expectExactKeys(res.json, KEYS, "health");
  expect(res.headers.get("x-request-id")).toMatch(/\S/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
}

/** Health, asked again until `done` holds (a cache subscribes to catalog changes as it is first used). */
async function healthUntil(baseUrl: string, done: (body: Record<string, string>) => boolean): Promise<ApiResponse> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await api(`${baseUrl}/api/health`);
    if (done(res.json) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("GET /api/health", () => {
  it("answers 200 ok: the database answers, Redis answers (or is not configured), catalog changes are heard", async () => {
    const base = inject("BASE_URL");
    expect((await api("/search?q=lamp")).status).toBe(200); // the search caches listen from here on
    const res = await healthUntil(base, (b) => b.catalog_changes === "listening");
    expect(res.status).toBe(200);
    expectHealth(res);
    expect(res.json).toEqual({
      status: "ok",
      database: "ok",
      redis: inject("REDIS_URL") ? "ok" : "not_configured",
      catalog_changes: "listening",
    });
  });

  it("serves GET only", async () => {
    const res = await api("/api/health", { method: "POST" });
    expectErrorEnvelope(res, { status: 405, type: "method_not_allowed_error", code: "method_not_allowed" });
  });

  describe("with Redis configured but gone", () => {
    let server: StartedServer;
    beforeAll(async () => {
      server = await startServer({
        databaseUrl: inject("DATABASE_URL"),
        env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
        logPrefix: "[health without redis]",
      });
    });
    afterAll(() => server?.stop());

    it("still answers 200, degraded, naming Redis", async () => {
      const res = await api(`${server.baseUrl}/api/health`);
      expect(res.status).toBe(200);
      expectHealth(res);
      expect(res.json).toMatchObject({ status: "degraded", database: "ok", redis: "unreachable" });
    });
  });
});
