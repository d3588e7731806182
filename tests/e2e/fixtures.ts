/**
 * The e2e tests' `test`: Playwright's, with one automatic fixture. Every page of the test's
 * browser context (the `page` fixture and any page it opens) is watched for Content-Security-
 * Policy violations, which Chromium reports on the console ("Refused to load/execute/apply/frame
 * … because it violates the following Content Security Policy directive"); one fails the test.
 * A test that means to provoke one (a framed page) reads `cspViolations` and clears it.
 */
import { test as base, expect, type ConsoleMessage, type Page } from "@playwright/test";

export const test = base.extend<{ cspViolations: string[] }>({
  cspViolations: [
    async ({ page, context }, use) => {
      const violations: string[] = [];
      const watch = (p: Page) =>
        p.on("console", (message: ConsoleMessage) => {
          if (/Content Security Policy/i.test(message.text())) violations.push(`${p.url()}: ${message.text()}`);
        });
      watch(page);
      context.on("page", watch);
      await use(violations);
      expect(violations, "Content-Security-Policy violations in the browser console").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
export type { APIRequestContext, Locator, Page, TestInfo } from "@playwright/test";
