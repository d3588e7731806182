/**
 * What a start does before its first answer. `next start` prints Ready before it runs
 * instrumentation.ts, and by default it then loads every route's code (169 routes, most of the
 * build) on the one JavaScript thread that also opens the embedded database and answers the first
 * request: seconds of CPU that request waited for. Each route's code now loads on its own first
 * request. The embedded side (no migration work on a folder already migrated and seeded) is
 * checked in tests/integration/embedded-restart.test.ts; the timings are in the README.
 */
import { describe, expect, it } from "vitest";
import nextConfig from "../../next.config";

describe("start-up", () => {
  it("does not load every route's code when the server starts", () => {
    expect(nextConfig.experimental?.preloadEntriesOnStart).toBe(false);
  });
});
