/**
 * The configuration is checked when the server starts (lib/config.ts): in production a missing
 * AUTH_SECRET, or a malformed setting, stops the app with a message naming it, instead of failing
 * at the first request that needs it.
 */
import { describe, expect, inject, it } from "vitest";
import { startServer } from "../setup/app";

async function startFailure(env: Record<string, string | undefined>): Promise<string> {
  try {
    const server = await startServer({ databaseUrl: inject("DATABASE_URL"), env, logPrefix: "[config]" });
    await server.stop();
  } catch (err) {
    return String(err);
  }
  throw new Error("the server started");
}

describe("configuration checked at boot", () => {
  it("production without AUTH_SECRET refuses to start, naming it", async () => {
    const message = await startFailure({ AUTH_SECRET: undefined });
    expect(message).toMatch(/exited early/);
    expect(message).toMatch(/AUTH_SECRET is required in production/);
  }, 60_000);

  it("a short AUTH_SECRET refuses to start, naming it", async () => {
    const message = await startFailure({ AUTH_SECRET: "short" });
    expect(message).toMatch(/AUTH_SECRET must be at least 32 characters/);
  }, 60_000);

  it("a malformed PUBLIC_BASE_URL refuses to start, naming it", async () => {
    const message = await startFailure({ PUBLIC_BASE_URL: "not a url" });
    expect(message).toMatch(/PUBLIC_BASE_URL/);
  }, 60_000);

  it("EMAIL_DELIVERY=smtp without SMTP_URL refuses to start, naming it", async () => {
    const message = await startFailure({ EMAIL_DELIVERY: "smtp", SMTP_URL: undefined });
    expect(message).toMatch(/SMTP_URL is required with EMAIL_DELIVERY=smtp/);
  }, 60_000);

  it("a malformed DATABASE_REPLICA_URLS refuses to start, naming it", async () => {
    const message = await startFailure({ DATABASE_REPLICA_URLS: "postgresql://127.0.0.1:1/x, not a url" });
    expect(message).toMatch(/DATABASE_REPLICA_URLS must be comma-separated postgresql:\/\/ URLs/);
  }, 60_000);

  it("a STOCK_PROBE_BUDGET that is not a positive whole number refuses to start, naming it", async () => {
    const message = await startFailure({ STOCK_PROBE_BUDGET: "0" });
    expect(message).toMatch(/STOCK_PROBE_BUDGET/);
  }, 60_000);
});
