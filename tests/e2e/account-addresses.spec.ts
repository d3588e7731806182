/**
 * Saved addresses and the test card on /account in a real browser with JavaScript off, at a
 * 390 px phone width: register, add an address (a refused one first: the message shows and what
 * was typed stays), edit it, save the test card. No page may be wider than the screen.
 * Screenshots go to test-results/screenshots/account-*.png.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";

const SCREENSHOTS = path.join("test-results", "screenshots");

async function phoneShot(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390 px screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, `account-${name}-390.png`), fullPage: true });
}

test.describe("addresses and payment method without JavaScript on a phone", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });

  test("a new account adds an address (after a refusal), edits it and saves the test card", async ({ page }) => {
    await page.goto("/register");
    const register = page.getByRole("form", { name: "Create account" });
    await register.getByLabel("Name").fill("Phone Holder");
    await register.getByLabel("Email").fill(`phone-${randomBytes(4).toString("hex")}@example.com`);
    await register.getByLabel("Password").fill("phone-pass-1");
    await register.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/account$/);
    await phoneShot(page, "empty");

    const add = page.getByRole("form", { name: "Add an address" });
    await expect(add.getByLabel("Full name")).toHaveValue("Phone Holder");
    await add.getByLabel("Address line 1").fill("9 Narrow Lane With A Rather Long Street Name That Has To Wrap");
    await add.getByLabel("City").fill("Springfield");
    await add.getByLabel("State").fill("Illinois");
    await add.getByLabel("ZIP code").fill("62701");
    await add.getByRole("button", { name: "Save address" }).click();
    await expect(page.getByRole("alert")).toHaveText("Enter the 2-letter code of the US state, such as CA.");
    await expect(add.getByLabel("Address line 1")).toHaveValue("9 Narrow Lane With A Rather Long Street Name That Has To Wrap");
    await expect(add.getByLabel("State")).toHaveValue("Illinois");
    await phoneShot(page, "refused");

    await add.getByLabel("State").fill("IL");
    await add.getByRole("button", { name: "Save address" }).click();
    await expect(page.getByRole("status")).toHaveText("Address saved.");
    await expect(page.locator("#addresses li")).toContainText("Default");

    await page.getByRole("link", { name: /^Edit Phone Holder, 9 Narrow Lane/ }).click();
    const edit = page.getByRole("form", { name: "Edit address" });
    await edit.getByLabel("Address line 2").fill("Apt 2");
    await edit.getByRole("button", { name: "Save address" }).click();
    await expect(page.getByRole("status")).toHaveText("Address updated.");
    await expect(page.locator("#addresses address")).toContainText("Apt 2");

    await page.getByRole("form", { name: "Save the test card" }).getByRole("button", { name: "Save the test card" }).click();
    await expect(page.getByRole("status")).toHaveText("The test card is saved.");
    await expect(page.locator("#payment-methods")).toContainText("Test card ending in 4242");
    await phoneShot(page, "ready");
  });
});
