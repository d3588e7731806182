/**
 * Browser tests of the storefront (tests/e2e). They expect a production build (`npm run build`;
 * CI builds it in `npm test` first): the global setup makes a fresh database, migrates and seeds
 * it and starts `next start` on a free port (tests/setup/app.ts, shared with vitest), and hands
 * its address to the workers in E2E_BASE_URL (and its database in E2E_DATABASE_URL). Set
 * E2E_BASE_URL yourself to run against an app that is already up (nothing is started or torn down
 * then), with E2E_DATABASE_URL for the cart tests that read or change the database.
 *
 * Chromium is Debian's (`apt-get install -y chromium`); Playwright's own browser download is never used.
 */
import { defineConfig, devices } from "@playwright/test";

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  globalSetup: "./tests/e2e/global-setup.ts",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  reporter: "list",
  workers: 2,
  retries: 0,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    // Set by the global setup before the workers start (each worker reads this config again).
    baseURL: process.env.E2E_BASE_URL,
    trace: "off",
    screenshot: "only-on-failure",
    extraHTTPHeaders: { "User-Agent": "marketplace-e2e-tests/1.0" },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--headless",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
});
