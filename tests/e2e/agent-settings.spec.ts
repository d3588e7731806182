/**
 * The agent settings on /account/agents in a real browser with JavaScript off: the seed's shopper
 * (docs/fixtures.md) signs in, reaches the page from /account, is refused a per-order limit above
 * the monthly one (the message shows, what was typed stays), then saves limits and sees them kept,
 * at a 390 px phone width and at 1280 px. No page may be wider than the screen.
 * Screenshots go to test-results/screenshots/agent-settings-*.png.
 */
import path from "node:path";
import { expect, test, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");

async function shot(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a ${width} px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, `agent-settings-${name}-${width}.png`), fullPage: true });
}

test.describe("agent settings without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  // One test for both widths: both change the same account's settings.
  test("the seed's shopper sets agent limits at 390 px and at 1280 px", async ({ page }) => {
    await page.goto("/signin");
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill("demo-shopper@example.com");
    await signIn.getByLabel("Password").fill("demo-password");
    await Promise.all([page.waitForURL("**/account"), signIn.getByRole("button", { name: "Sign in" }).click()]);
    await Promise.all([page.waitForURL("**/account/agents"), page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Agents" }).click()]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agents");

    for (const [width, perOrder, monthly, perOrderShown, monthlyShown] of [
      [390, "49.99", "200", "49.99", "$200.00"],
      [1280, "75", "1000.5", "75", "$1,000.50"],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/account/agents");
      const form = page.getByRole("form", { name: "Agent settings" });
      await form.getByRole("checkbox", { name: "Let agents place orders" }).check();
      await form.getByLabel("Per-order limit (USD)").fill("5000");
      await form.getByLabel("Monthly limit (USD)").fill(monthly);
      await form.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("alert")).toContainText("cannot be more than the monthly limit");
      await expect(form.getByLabel("Per-order limit (USD)")).toHaveValue("5000");
      await expect(form.getByLabel("Per-order limit (USD)")).toHaveAttribute("aria-invalid", "true");
      await shot(page, "refused");

      await form.getByLabel("Per-order limit (USD)").fill(perOrder);
      await form.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("status")).toHaveText("Agent settings saved.");
      await expect(form.getByRole("checkbox", { name: "Let agents place orders" })).toBeChecked();
      await expect(form.getByLabel("Per-order limit (USD)")).toHaveValue(perOrderShown);
      await expect(page.locator("[data-agent-spend-cents]")).toHaveText(new RegExp(`^Spent by agents this month: \\$[0-9,.]+ of ${monthlyShown.replace(/[$.]/g, "\\$&")}$`));
      await shot(page, "saved");
    }
  });
});
