/**
 * Accounts in a real browser, driven by accessible names as a person would: register, sign out,
 * sign in (and a wrong password), the account page, and the admin settings page for an admin.
 * Every page visited is saved as a full-page screenshot in test-results/screenshots/accounts-*.png.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "./fixtures";
import pg from "pg";

const SCREENSHOTS = path.join("test-results", "screenshots");
const DATABASE_URL = process.env.E2E_DATABASE_URL;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `accounts-${name}.png`), fullPage: true });
}

const header = (page: Page) => page.locator("header");

test.describe("accounts", () => {
  test.use({ navigationTimeout: 15_000 });

  test("register, sign out, sign in; a wrong password says so", async ({ page }) => {
    const email = `e2e-${randomUUID().slice(0, 8)}@example.com`;
    const password = "a long enough password";

    await page.goto("/");
    await Promise.all([page.waitForURL("**/signin"), header(page).getByRole("link", { name: "Sign in", exact: true }).click()]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
    await shot(page, "signin");

    await Promise.all([page.waitForURL("**/register"), page.getByRole("link", { name: "Create an account" }).click()]);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create an account");
    await page.getByLabel("Name").fill("Grace Hopper");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await shot(page, "register");
    await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);

    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
    await expect(page.locator('[data-field="name"]')).toHaveText("Grace Hopper");
    await expect(page.locator('[data-field="email"]')).toHaveText(email);
    await expect(page.locator('[data-field="role"]')).toHaveText("Shopper");
    await expect(header(page).getByRole("link", { name: "Your account" })).toBeVisible();
    await expect(header(page).getByRole("link", { name: "Sign in", exact: true })).toHaveCount(0);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === "next-auth.session-token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    await shot(page, "account");

    await Promise.all([page.waitForURL((url) => url.pathname === "/"), page.getByRole("button", { name: "Sign out" }).click()]);
    await expect(header(page).getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
    expect((await page.context().cookies()).some((c) => c.name === "next-auth.session-token")).toBe(false);
    await shot(page, "signed-out");

    // A wrong password: the same message an unknown e-mail gets.
    await page.goto("/signin");
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill(email);
    await signIn.getByLabel("Password").fill("not the password");
    await Promise.all([page.waitForURL("**/signin?error=credentials"), signIn.getByRole("button", { name: "Sign in" }).click()]);
    await expect(page.locator("main").getByRole("alert")).toHaveText("Wrong e-mail or password.");
    await shot(page, "signin-wrong-password");

    const again = page.getByRole("form", { name: "Sign in" });
    await again.getByLabel("Email").fill(email);
    await again.getByLabel("Password").fill(password);
    await Promise.all([page.waitForURL("**/account"), again.getByRole("button", { name: "Sign in" }).click()]);
    await expect(page.locator('[data-field="email"]')).toHaveText(email);
    await shot(page, "signed-in");
  });

  test("the sign-in link form answers with a notice", async ({ page }) => {
    await page.goto("/signin");
    const form = page.getByRole("form", { name: "Email me a sign-in link" });
    await form.getByLabel("Email").fill(`e2e-link-${randomUUID().slice(0, 8)}@example.com`);
    await Promise.all([page.waitForURL("**/signin?notice=link_sent"), form.getByRole("button", { name: "Email me a sign-in link" }).click()]);
    await expect(page.locator("main").getByRole("status")).toContainText("Check your e-mail");
    await shot(page, "link-sent");
  });

  test("an admin turns Agentic checkout on and off", async ({ page }) => {
    test.skip(!DATABASE_URL, "E2E_DATABASE_URL is not set (the global setup sets it when it starts the app)");
    const email = `e2e-admin-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto("/register");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("an admin's password");
    await Promise.all([page.waitForURL("**/account"), page.getByRole("button", { name: "Create account" }).click()]);
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query("UPDATE users SET role = 'admin' WHERE email = $1", [email]);
      await page.reload();
      await Promise.all([page.waitForURL("**/admin"), page.getByRole("link", { name: "Marketplace settings" }).click()]);
      const box = page.getByRole("checkbox", { name: "Agentic checkout" });
      const before = await box.isChecked();
      await box.setChecked(!before);
      await shot(page, "admin");
      await Promise.all([page.waitForURL("**/admin?notice=saved"), page.getByRole("button", { name: "Save" }).click()]);
      await expect(page.locator("main").getByRole("status")).toHaveText("Settings saved.");
      await expect(page.getByRole("checkbox", { name: "Agentic checkout" })).toBeChecked({ checked: !before });
      const { rows } = await client.query("SELECT value FROM settings WHERE key = 'agentic_checkout'");
      expect(rows[0].value).toBe(!before);
      // Put it back: other tests read the shared app.
      await page.getByRole("checkbox", { name: "Agentic checkout" }).setChecked(before);
      await Promise.all([page.waitForURL("**/admin?notice=saved"), page.getByRole("button", { name: "Save" }).click()]);
    } finally {
      await client.end();
    }
  });
});
