/** Playwright global teardown: stops the app started by global-setup.ts and drops its database. */
import type { StartedApp } from "../setup/app";
import { APP_HANDLE } from "./global-setup";

export default async function globalTeardown() {
  const holder = globalThis as Record<string, unknown>;
  const app = holder[APP_HANDLE] as StartedApp | undefined;
  if (!app) return; // an app we did not start (E2E_BASE_URL given), or set-up failed
  delete holder[APP_HANDLE];
  await app.teardown();
}
