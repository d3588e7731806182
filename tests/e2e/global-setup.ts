/**
 * Playwright global setup: starts the app on a fresh, seeded database (tests/setup/app.ts) and
 * publishes its address in process.env.E2E_BASE_URL, which the workers inherit (the config's
 * `use.baseURL` reads it). The handle is kept for tests/e2e/global-teardown.ts.
 */
import { migrateInChild, startApp, type StartedApp } from "../setup/app";

export const APP_HANDLE = "__marketplaceE2eApp";

export default async function globalSetup() {
  if (process.env.E2E_BASE_URL) {
    process.stderr.write(`[e2e setup] using the app already running at ${process.env.E2E_BASE_URL}\n`);
    return;
  }
  // The generated Prisma client is ESM (import.meta); Playwright's loader compiles this file to
  // CommonJS, so the migration runs as `scripts/migrate.ts` in a child process instead.
  const app = await startApp({ logPrefix: "[e2e setup]", migrateDatabase: migrateInChild });
  (globalThis as Record<string, unknown>)[APP_HANDLE] = app satisfies StartedApp;
  process.env.E2E_BASE_URL = app.baseUrl;
  process.env.E2E_DATABASE_URL = app.databaseUrl;
  process.env.E2E_SERVER_LOG = app.serverLog;
}
