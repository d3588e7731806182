/**
 * Global setup for the vitest integration run: the run's template databases (migrated, and
 * migrated and seeded once; every test database is a copy of one), then a copy of its own for
 * the built app (`next start`) serving it on a free port (tests/setup/app.ts, shared with the
 * Playwright suite). Nothing is shared with an earlier run: the database names are unique per run
 * and are dropped on teardown, the server is killed with its process group.
 *
 * Tests read BASE_URL and DATABASE_URL with `inject()` from vitest.
 */
import type { TestProject } from "vitest/node";
import { prepareTemplates, startApp } from "./app";

declare module "vitest" {
  export interface ProvidedContext {
    BASE_URL: string;
    DATABASE_URL: string;
    /** File receiving the server's stdout (its one-JSON-line-per-request log). */
    SERVER_LOG: string;
    /** REDIS_URL the app runs with ("" when it uses the in-process rate-limit store). */
    REDIS_URL: string;
  }
}

export default async function setup(project: TestProject) {
  const dropTemplates = await prepareTemplates({ logPrefix: "[test setup]" });
  let app;
  try {
    app = await startApp({ logPrefix: "[test setup]" });
  } catch (err) {
    await dropTemplates();
    throw err;
  }
  project.provide("BASE_URL", app.baseUrl);
  project.provide("DATABASE_URL", app.databaseUrl);
  project.provide("SERVER_LOG", app.serverLog);
  project.provide("REDIS_URL", process.env.REDIS_URL ?? "");
  return async () => {
    await app.teardown();
    await dropTemplates();
  };
}
