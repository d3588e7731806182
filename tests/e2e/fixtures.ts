/**
 * The e2e tests' `test`: Playwright's, with one automatic fixture. Every page of the test's
 * browser context (the `page` fixture and any page it opens) is watched for Content-Security-
 * Policy violations, which Chromium reports on the console ("Refused to load/execute/apply/frame
 * … because it violates the following Content Security Policy directive"); one fails the test.
 * A test that means to provoke one (a framed page) reads `cspViolations` and clears it.
 */
import path from "node:path";
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

/**
 * Screenshots of the page at 1280 and 390 px wide (full page) in
 * test-results/screenshots/<prefix>-<name>-<width>.png; at 390 px the page must not scroll
 * sideways. It leaves the page at 1280 × 900, scrolled to the top: the resizes leave the page
 * scrolled to wherever the last layout put it, and a click that then scrolls its target in by a
 * pixel or two can land beside it (seen as a "Request return" click that hit its form instead of
 * the button and submitted nothing, 1 run in 4; none in 18 since).
 */
export async function shots(page: Page, prefix: string, name: string) {
  const file = (width: number) => path.join("test-results", "screenshots", `${prefix}-${name}-${width}.png`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: file(1280), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390 px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: file(390), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  // (No wait for animation frames here: a page without JavaScript runs none.)
  await page.evaluate(() => window.scrollTo(0, 0));
}

export { expect };
export type { APIRequestContext, Locator, Page, TestInfo } from "@playwright/test";
