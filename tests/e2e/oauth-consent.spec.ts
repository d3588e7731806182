/**
 * The acceptance point, literally, in a real browser with JavaScript off: an agent (oauth4webapi
 * in this process) registers and starts an authorization; the browser signs in as the seed's
 * shopper, sees the consent screen (screenshots at 1280 and 390 px), unticks one scope and
 * allows; the agent exchanges the code and calls `GET /api/v1/buyer/me` (200, the holder);
 * /account/agents lists it with exactly the granted scopes (screenshots at both widths);
 * "Revoke" ends it, and the agent's next call to `GET /api/v1/buyer/me` is 401. Neither page is
 * wider than a 390 px screen. Screenshots go to test-results/screenshots/oauth-*.png.
 */
import { expect, shots, test } from "./fixtures";
import { authorizationUrl, BUYER_SCOPES, exchangeCode, randomIp, refresh, registerAgent } from "../helpers/oauth-agent";

const SHOPPER = "demo-shopper@example.com";

/** The agent's call: `GET /api/v1/buyer/me` with its access token, over plain HTTP. */
async function buyerMe(baseURL: string, token: string) {
  const res = await fetch(`${baseURL}/api/v1/buyer/me`, { headers: { Authorization: `Bearer ${token}`, "X-Forwarded-For": randomIp() } });
  return { status: res.status, challenge: res.headers.get("www-authenticate"), json: await res.json() };
}

test.describe("connecting an agent", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });

  test("sign in, consent with one scope unticked, see exactly the granted scopes on /account/agents, revoke: the next call is 401", async ({ page, baseURL }) => {
    const clientName = `Browser Test Agent ${Math.random().toString(36).slice(2, 8)}`;
    const agent = await registerAgent(baseURL!, { client_name: clientName });
    const start = await authorizationUrl(agent);
    const clientHost = new URL(agent.redirectUri).host;
    await page.route(`https://${clientHost}/**`, (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "back at the agent" }));

    await page.goto(start.url.toString());
    await expect(page).toHaveURL(/\/signin\?next=%2Foauth%2Fconsent%2F/);
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill(SHOPPER);
    await signIn.getByLabel("Password").fill("demo-password");
    await signIn.getByRole("button", { name: "Sign in" }).click();

    await expect(page).toHaveURL(/\/oauth\/consent\/[\w-]+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Connect ${clientName}?`);
    await expect(page.locator("[data-field=redirect-host]")).toHaveText(clientHost);
    await expect(page.locator("input[name=scope]")).toHaveCount(BUYER_SCOPES.length);
    for (const box of await page.locator("input[name=scope]").all()) await expect(box).toBeChecked();

    const orders = page.getByLabel("See your orders", { exact: true });
    await orders.uncheck();
    await expect(orders).not.toBeChecked();
    await shots(page, "oauth", "consent");
    await expect(orders).not.toBeChecked();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page).toHaveURL(new RegExp(`^https://${clientHost.replace(/\./g, "\\.")}/callback\\?code=`));

    const granted = BUYER_SCOPES.filter((scope) => scope !== "orders:read");
    const tokens = await exchangeCode(agent, new URL(page.url()), start);
    expect(tokens.scope!.split(" ")).toEqual(granted);
    const me = await buyerMe(baseURL!, tokens.access_token);
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ object: "user", email: SHOPPER });

    await page.goto("/account/agents");
    const item = page.locator("#connected-agents li[data-grant-id]").filter({ hasText: clientName });
    await expect(item).toHaveCount(1);
    expect(await item.locator("[data-scope]").evaluateAll((els) => els.map((el) => el.getAttribute("data-scope")))).toEqual(granted);
    await expect(item).toContainText(`(${clientHost})`);
    await expect(item.locator("[data-field=spent]")).toHaveText("$0.00");
    await shots(page, "oauth", "agents");

    await item.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByRole("status")).toHaveText("Agent disconnected: its access ended at once.");
    await expect(page.locator("#connected-agents li[data-grant-id]").filter({ hasText: clientName })).toHaveCount(0);

    const after = await buyerMe(baseURL!, tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.json.error.code).toBe("invalid_token");
    expect(after.challenge).toBe(
      `Bearer error="invalid_token", error_description="The access token is unknown, expired or revoked.", resource_metadata="${baseURL}/.well-known/oauth-protected-resource/api/v1/buyer"`,
    );
    // The refresh token went with the connection: the agent cannot come back without the holder.
    await expect(refresh(agent, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });
});

test.describe("the consent page cannot be framed", () => {
  test("framed by a page of the same site, the browser refuses to render it: no Allow button to click", async ({ page, baseURL, cspViolations }) => {
    const agent = await registerAgent(baseURL!, { client_name: `Framed Agent ${Math.random().toString(36).slice(2, 8)}` });
    const start = await authorizationUrl(agent);
    await page.goto(start.url.toString());
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill(SHOPPER);
    await signIn.getByLabel("Password").fill("demo-password");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/oauth\/consent\/[\w-]+$/);
    const consentUrl = page.url();
    await expect(page.getByRole("button", { name: "Allow" })).toBeVisible();

    // A page of the same origin (the strongest case: the session cookie goes along) frames it.
    const framing = `${baseURL}/__framing-test`;
    await page.route(framing, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: `<!doctype html><title>Framing</title><iframe src="${consentUrl}" width="800" height="600"></iframe>` }),
    );
    await page.goto(framing);
    const frame = page.frameLocator("iframe");
    await expect.poll(() => cspViolations.some((v) => /frame-ancestors/.test(v)), { message: "Chromium reports the refused frame" }).toBe(true);
    await expect(frame.getByRole("button", { name: "Allow" })).toHaveCount(0);
    // That violation is the point of this test: the others still fail it.
    cspViolations.splice(0, cspViolations.length, ...cspViolations.filter((v) => !/frame-ancestors/.test(v)));
  });
});
