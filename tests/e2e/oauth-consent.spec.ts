/**
 * An agent connects in a real browser with JavaScript off: the agent (oauth4webapi in this
 * process) registers and starts an authorization; the browser signs in as the seed's shopper,
 * sees the consent screen (screenshots at 1280 and 390 px), unticks one scope and allows; the
 * agent exchanges the code; /account/agents lists it with the granted scopes; "Revoke" ends its
 * token at once (checked by the resource side's own check, lib/oauth/verify.ts, in a child
 * process). Screenshots go to test-results/screenshots/oauth-*.png.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { authorizationUrl, exchangeCode, registerAgent } from "../helpers/oauth-agent";

const SCREENSHOTS = path.join("test-results", "screenshots");

async function shot(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than the screen`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, `oauth-${name}.png`), fullPage: true });
}

function resourceSays(token: string): string {
  return execFileSync("npx", ["tsx", "tests/helpers/verify-token-cli.ts", token, "buyer_api"], {
    env: { ...process.env, DATABASE_URL: process.env.E2E_DATABASE_URL, PUBLIC_BASE_URL: process.env.E2E_BASE_URL },
    encoding: "utf8",
  }).trim();
}

test.describe("connecting an agent", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });

  test("sign in, consent with one scope unticked, see it on /account/agents, revoke it", async ({ page, baseURL }) => {
    const agent = await registerAgent(baseURL!, { client_name: "Browser Test Agent" });
    const start = await authorizationUrl(agent);
    const clientHost = new URL(agent.redirectUri).host;
    await page.route(`https://${clientHost}/**`, (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "back at the agent" }));

    await page.goto(start.url.toString());
    await expect(page).toHaveURL(/\/signin\?next=%2Foauth%2Fconsent%2F/);
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill("demo-shopper@example.com");
    await signIn.getByLabel("Password").fill("demo-password");
    await signIn.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL(/\/oauth\/consent\/[\w-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connect Browser Test Agent?");
    await expect(page.locator("[data-field=redirect-host]")).toHaveText(clientHost);
    const orders = page.getByLabel("See your orders", { exact: true });
    await expect(orders).toBeChecked();
    await expect(page.locator("input[name=scope]")).toHaveCount(7);
    await shot(page, "consent-1280");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "consent-390");
    await page.setViewportSize({ width: 1280, height: 900 });

    await orders.uncheck();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL(new RegExp(`^https://${clientHost.replace(/\./g, "\\.")}/callback\\?code=`));
    const tokens = await exchangeCode(agent, new URL(page.url()), start);
    expect(tokens.scope!.split(" ")).not.toContain("orders:read");
    expect(resourceSays(tokens.access_token)).toBe("ok");

    await page.goto("/account/agents");
    const item = page.locator("#connected-agents li[data-grant-id]").filter({ hasText: "Browser Test Agent" });
    await expect(item).toHaveCount(1);
    await expect(item.locator("[data-scope]")).toHaveCount(6);
    await expect(item.locator("[data-scope='orders:read']")).toHaveCount(0);
    await expect(item.locator("[data-field=spent]")).toHaveText("$0.00");
    await shot(page, "agents-1280");

    await item.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByRole("status")).toHaveText("Agent disconnected: its access ended at once.");
    await expect(page.locator("#connected-agents li[data-grant-id]").filter({ hasText: "Browser Test Agent" })).toHaveCount(0);
    expect(resourceSays(tokens.access_token)).toBe("invalid_token");
  });
});
