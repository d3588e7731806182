/**
 * Consent by URL elicitation on the agent MCP server (lib/mcp/elicitation.ts,
 * lib/agents/approvals.ts): an agent's checkout that the holder's settings refuse (agent orders
 * off, over the per-order or the month's limit) asks the holder instead, by a URL elicitation
 * pointing at /account/agents/approvals/<id> on our origin: the 2026-07-28 `input_required`
 * result to a client that declares `elicitation.url`, the 2025-11-25 error -32042 to a 2025-era
 * client. Once the signed-in holder approves there, the agent's retried call places exactly one
 * order; declining, or approving a quote that has changed since, places none; without approval a
 * retry is asked again. Older revisions, and clients that cannot open a URL, keep the refusal.
 * The page's own rules (signed in, same origin, one answer, the holder's own) are here too, and
 * one approval is given in headless Chromium (Debian's, as the Playwright suite uses) at a phone's
 * width, with screenshots in test-results/screenshots/agent-approval-*.png. It writes, so it runs
 * on an app and database of its own.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { ALL_SCOPES, allowAgentOrders, buyer, createHolder, createListing, setMarketplaceAgentCheckout, token, type Holder } from "../helpers/buyer";
import { randomClientIp } from "../helpers/http";
import { rpc, toolCall } from "../helpers/mcp";
import { Browser } from "../helpers/oauth-agent";
import { startIsolatedApp, storeIdOf, type IsolatedApp } from "../helpers/seller";

const AGENT_MCP = "/api/agent/mcp";
const PASSWORD = "approval-test-password";
const APPROVAL_PATH = /^\/account\/agents\/approvals\/([0-9a-f-]{36})$/;

let app: IsolatedApp;
let listingA = "";
let listingB = "";

interface Person {
  holder: Holder;
  token: string;
  grantId: string;
}

/** A holder ready to check out whose per-order limit ($10) the test orders pass, with an agent token. */
async function person(label: string, settings: "per_order" | "off" = "per_order"): Promise<Person> {
  const holder = await createHolder(app.pool, label);
  await app.pool.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [holder.id, await hashPassword(PASSWORD)]);
  if (settings === "per_order") await allowAgentOrders(app.pool, holder.id, 1000, 100_000);
  const minted = await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" });
  return { holder, token: minted.token, grantId: minted.grantId };
}

const checkoutArgs = () => ({ lines: [{ listing_id: listingA, quantity: 1 }, { listing_id: listingB, quantity: 2 }] });

async function ordersOf(p: Person): Promise<number> {
  return (await app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE user_id = $1`, [p.holder.id])).rows[0].n;
}

async function approvals(p: Person): Promise<Array<{ id: string; status: string; total_cents: number; reason: string }>> {
  return (await app.pool.query(`SELECT id::text, status, total_cents, reason FROM agent_approvals WHERE user_id = $1 ORDER BY created_at`, [p.holder.id])).rows;
}

/** The approval id of an elicitation URL on our origin; fails on any other origin or path. */
function approvalId(url: string): string {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(new URL(app.baseUrl).origin);
  const match = APPROVAL_PATH.exec(parsed.pathname);
  expect(match, url).not.toBeNull();
  return match![1]!;
}

/** The holder in a browser: signs in, opens the page, answers. Answers the page's HTML before the answer. */
async function answer(p: Person, url: string, decision: "approve" | "decline"): Promise<string> {
  const browser = new Browser(app.baseUrl);
  await browser.signIn(p.holder.email, PASSWORD);
  const page = await browser.fetch(url);
  expect(page.status).toBe(200);
  const html = await page.text();
  const posted = await browser.postForm(`${new URL(url).pathname}/decision`, [["decision", decision]], { Origin: app.baseUrl });
  expect(posted.status).toBe(303);
  expect(posted.headers.get("location")).toBe(new URL(url).pathname);
  return html;
}

/** fetch for a client transport: the agent's token, from one client address. */
function agentFetch(p: Person) {
  const ip = randomClientIp();
  return (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", `Bearer ${p.token}`);
    headers.set("X-Forwarded-For", ip);
    return fetch(input, { ...init, headers });
  };
}

/** A 2026-07-28 client that declares URL elicitation; `onElicit` plays its person. */
async function modernClient(p: Person, onElicit: (params: { mode?: string; url?: string; message: string }) => Promise<"accept" | "decline" | "cancel">, declareUrl = true) {
  const client = new ClientV2({ name: "approval-tests", version: "1.0.0" }, { versionNegotiation: { mode: "auto" }, capabilities: declareUrl ? { elicitation: { url: {} } } : {} });
  if (declareUrl) {
    client.setRequestHandler("elicitation/create", async (request) => ({ action: await onElicit(request.params as { mode?: string; url?: string; message: string }) }));
  }
  const transport = new TransportV2(new URL(app.baseUrl + AGENT_MCP), { fetch: agentFetch(p) });
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  await client.listTools();
  return client;
}

/** An SDK 1.x client (2025-11-25). */
async function legacyClient(p: Person) {
  const client = new ClientV1({ name: "approval-tests", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  const transport = new TransportV1(new URL(app.baseUrl + AGENT_MCP), { fetch: agentFetch(p) });
  await client.connect(transport);
  expect(transport.protocolVersion).toBe("2025-11-25");
  await client.listTools();
  return client;
}

/** A 2025-11-25 call that must be the -32042 error: its one elicitation. */
async function expectUrlElicitation(call: Promise<unknown>, code: string): Promise<{ url: string; elicitationId: string; message: string }> {
  const err = (await call.then(
    (result) => {
      throw new Error(`expected the -32042 error, got ${JSON.stringify(result)}`);
    },
    (e: unknown) => e,
  )) as { code: number; message: string; data?: { elicitations?: Array<{ mode: string; url: string; elicitationId: string; message: string }> } };
  expect(err.code, String(err.message)).toBe(-32042);
  expect(err.message).toContain(`${code}:`);
  const elicitations = err.data?.elicitations ?? [];
  expect(elicitations).toHaveLength(1);
  const [one] = elicitations;
  expect(one!.mode).toBe("url");
  expect(one!.elicitationId).toBe(approvalId(one!.url));
  expect(one!.message).not.toMatch(/https?:\/\//);
  return one!;
}

/** A raw 2025-11-25 tools/call (as the SDK 1.x client sends after initialize), retried after a 429 as a client would. */
async function rawCheckout(p: Person, args: Record<string, unknown>) {
  for (;;) {
    const res = await rpc(toolCall("checkout", args), {
      baseUrl: app.baseUrl,
      path: AGENT_MCP,
      headers: { Authorization: `Bearer ${p.token}`, "MCP-Protocol-Version": "2025-11-25" },
    });
    if (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers.get("retry-after") ?? "1") * 1000));
      continue;
    }
    expect(res.status, res.text).toBe(200);
    return res.message as { result?: { isError?: boolean; structuredContent: any }; error?: { code: number; message: string; data?: any } };
  }
}

beforeAll(async () => {
  // "100 parallel retries" queue 100 checkouts for the app's 10 connections: its requests wait as
  // long as it takes for one, so that a loaded machine's slow turn is not a 503 (the 5 s default).
  app = await startIsolatedApp("agent-approvals", { DATABASE_CONNECT_TIMEOUT_MS: "0" });
  await setMarketplaceAgentCheckout(app.pool, true);
  listingA = await createListing(app.pool, 1500, 1000);
  // A second seller: the order spans two stores.
  listingB = await createListing(app.pool, 700, 1000);
  await app.pool.query(`UPDATE listings SET store_id = $2 WHERE id = $1`, [listingB, await storeIdOf(app.pool, "fixture-store-b")]);
});

afterAll(async () => {
  await app?.stop();
});

describe("a 2026-07-28 client that declares URL elicitation", () => {
  it("is asked by an input_required URL elicitation at our origin; the holder approves in the browser; the retry places exactly one order", async () => {
    const p = await person("modern");
    const asked: Array<{ mode?: string; url?: string; message: string }> = [];
    let page = "";
    const client = await modernClient(p, async (params) => {
      asked.push(params);
      page = await answer(p, params.url!, "approve");
      return "accept";
    });
    try {
      const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(result.structuredContent.data.total_cents).toBe(2900);
      expect(asked).toHaveLength(1);
      expect(asked[0]!.mode).toBe("url");
      approvalId(asked[0]!.url!);
      expect(asked[0]!.message).toContain("per-order limit");
      expect(asked[0]!.message).not.toMatch(/https?:\/\//);
      // The page showed the order: both sellers, the total, why, and the month's limit.
      for (const text of ["Fixture Store A", "Fixture Store B", "$29.00", "above your per-order limit", "monthly limit is left", "Approve order", "Decline"]) {
        expect(page).toContain(text);
      }
      expect(await ordersOf(p)).toBe(1);
      expect((await approvals(p)).map((a) => [a.status, a.total_cents, a.reason])).toEqual([["used", 2900, "per_order_limit_exceeded"]]);
    } finally {
      await client.close();
    }
  });

  it("agent orders off: the holder is asked about the priced order; approving places one order and leaves the setting off", async () => {
    const p = await person("off", "off");
    const client = await modernClient(p, async (params) => {
      await answer(p, params.url!, "approve");
      return "accept";
    });
    try {
      const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
      expect(await ordersOf(p)).toBe(1);
      expect((await approvals(p)).map((a) => [a.status, a.reason])).toEqual([["used", "agentic_purchasing_off"]]);
      const settings = await app.pool.query(`SELECT orders_enabled FROM agent_settings WHERE user_id = $1`, [p.holder.id]);
      expect(settings.rows.map((r) => r.orders_enabled)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("declined on the page: the retry is refused (the refusal's code, saying so) and the agent is not sent to ask again", async () => {
    const p = await person("declines");
    let asked = 0;
    const client = await modernClient(p, async (params) => {
      asked++;
      await answer(p, params.url!, "decline");
      return "accept";
    });
    try {
      const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error.code).toBe("per_order_limit_exceeded");
      expect(result.structuredContent.error.message).toContain("declined this order");
      const again = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(again.structuredContent.error.code).toBe("per_order_limit_exceeded");
      expect(asked).toBe(1);
      expect(await ordersOf(p)).toBe(0);
      expect((await approvals(p)).map((a) => a.status)).toEqual(["declined"]);
    } finally {
      await client.close();
    }
  });

  it("the person declines to open the page: the refusal, and nothing placed", async () => {
    const p = await person("no-open");
    const client = await modernClient(p, async () => "decline");
    try {
      const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error.code).toBe("per_order_limit_exceeded");
      expect(await ordersOf(p)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it("without elicitation.url declared, the refusal is a tool error as before (nothing asked)", async () => {
    const p = await person("no-url");
    const client = await modernClient(p, async () => "accept", false);
    try {
      const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.error.code).toBe("per_order_limit_exceeded");
      expect(await approvals(p)).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("in a real browser", () => {
  it("the holder signs in from the elicitation's link, approves in headless Chromium at 390 px, and the client's retry places one order", async () => {
    const p = await person("chromium");
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"] });
    const screenshots = path.join("test-results", "screenshots");
    mkdirSync(screenshots, { recursive: true });
    const violations: string[] = [];
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      page.on("console", (m) => {
        if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
      });
      const client = await modernClient(p, async (params) => {
        await page.goto(params.url!);
        await page.waitForURL(/\/signin\?next=/);
        const signIn = page.getByRole("form", { name: "Sign in" });
        await signIn.getByLabel("Email").fill(p.holder.email);
        await signIn.getByLabel("Password").fill(PASSWORD);
        await Promise.all([page.waitForURL(params.url!), signIn.getByRole("button", { name: "Sign in" }).click()]);
        expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Approve an agent's order");
        expect(await page.locator("[data-field=total]").textContent()).toBe("$29.00");
        expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: path.join(screenshots, "agent-approval-asked-390.png"), fullPage: true });
        await Promise.all([page.waitForURL(params.url!), page.getByRole("button", { name: "Approve order" }).click()]);
        expect(await page.getByRole("status").textContent()).toContain("Approved.");
        await page.screenshot({ path: path.join(screenshots, "agent-approval-approved-390.png"), fullPage: true });
        return "accept";
      });
      try {
        const result = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
        expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
        expect(await ordersOf(p)).toBe(1);
      } finally {
        await client.close();
      }
    } finally {
      await browser.close();
    }
    expect(violations).toEqual([]);
  });
});

describe("a 2025-11-25 client (SDK 1.x)", () => {
  it("gets -32042 with the page; a retry before approval is asked again (the same page); after approval one order, then asked anew", async () => {
    const p = await person("legacy");
    const client = await legacyClient(p);
    try {
      const first = await expectUrlElicitation(client.callTool({ name: "checkout", arguments: checkoutArgs() }), "per_order_limit_exceeded");
      const again = await expectUrlElicitation(client.callTool({ name: "checkout", arguments: checkoutArgs() }), "per_order_limit_exceeded");
      expect(again.url).toBe(first.url);
      expect(await ordersOf(p)).toBe(0);

      await answer(p, first.url, "approve");
      const placed = (await client.callTool({ name: "checkout", arguments: checkoutArgs() })) as { isError?: boolean; structuredContent: any };
      expect(placed.isError ?? false, JSON.stringify(placed)).toBe(false);
      expect(await ordersOf(p)).toBe(1);

      // The approval was for one order: the next is asked about anew.
      const next = await expectUrlElicitation(client.callTool({ name: "checkout", arguments: checkoutArgs() }), "per_order_limit_exceeded");
      expect(next.url).not.toBe(first.url);
      expect(await ordersOf(p)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it("an approval of a quote that changed since places nothing: the retry asks about the new total", async () => {
    const p = await person("stale");
    const listing = await createListing(app.pool, 1500, 100);
    const args = { lines: [{ listing_id: listing, quantity: 1 }] };
    const client = await legacyClient(p);
    try {
      const first = await expectUrlElicitation(client.callTool({ name: "checkout", arguments: args }), "per_order_limit_exceeded");
      await app.pool.query(`UPDATE listings SET price_cents = 1600 WHERE id = $1`, [listing]);
      await answer(p, first.url, "approve");
      const retry = await expectUrlElicitation(client.callTool({ name: "checkout", arguments: args }), "per_order_limit_exceeded");
      expect(retry.url).not.toBe(first.url);
      expect(await ordersOf(p)).toBe(0);
      expect((await approvals(p)).map((a) => [a.status, a.total_cents])).toEqual([
        ["approved", 1500],
        ["pending", 1600],
      ]);
    } finally {
      await client.close();
    }
  });

  it("100 parallel retries after one approval place exactly one order", async () => {
    const p = await person("parallel");
    const first = await rawCheckout(p, checkoutArgs());
    expect(first.error?.code).toBe(-32042);
    await answer(p, first.error!.data.elicitations[0].url, "approve");
    const results = await Promise.all(Array.from({ length: 100 }, () => rawCheckout(p, checkoutArgs())));
    const placed = results.filter((r) => r.result && !r.result.isError);
    const asked = results.filter((r) => r.error?.code === -32042);
    const others = results.filter((r) => !placed.includes(r) && !asked.includes(r)).map((r) => JSON.stringify(r).slice(0, 300));
    expect(others, "neither placed nor asked").toEqual([]);
    expect(placed).toHaveLength(1);
    expect(asked).toHaveLength(99);
    expect(await ordersOf(p)).toBe(1);
    const statuses = (await approvals(p)).map((a) => a.status).sort();
    expect(statuses).toEqual(["pending", "used"]);
  });
});

describe("older protocol revisions and the buyer API", () => {
  it("a 2025-06-18 call gets the refusal as a tool error, and nothing is asked", async () => {
    const p = await person("old");
    const res = await rpc(toolCall("checkout", checkoutArgs()), {
      baseUrl: app.baseUrl,
      path: AGENT_MCP,
      headers: { Authorization: `Bearer ${p.token}`, "MCP-Protocol-Version": "2025-06-18" },
    });
    expect(res.message.result.isError).toBe(true);
    expect(res.message.result.structuredContent.error.code).toBe("per_order_limit_exceeded");
    expect(await approvals(p)).toEqual([]);
  });

  it("the buyer API's checkout keeps its 403 and asks nothing", async () => {
    const p = await person("rest", "off");
    const minted = await token(app, p.holder.id, ALL_SCOPES);
    const res = await buyer(app, "POST", "/checkout", minted.token, { body: checkoutArgs(), headers: { "Idempotency-Key": randomUUID() } });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe("agentic_purchasing_off");
    expect(await approvals(p)).toEqual([]);
  });
});

describe("the approval page", () => {
  it("is the holder's alone, needs a session and a same-origin post, and takes one answer while it stands", async () => {
    const p = await person("page");
    const other = await person("page-other");
    const first = await rawCheckout(p, checkoutArgs());
    const url = first.error!.data.elicitations[0].url as string;
    const path = new URL(url).pathname;

    const signedOut = new Browser(app.baseUrl);
    const redirect = await signedOut.fetch(path);
    expect(redirect.status).toBe(307);
    expect(redirect.headers.get("location")).toContain(`/signin?next=${encodeURIComponent(path)}`);

    const stranger = new Browser(app.baseUrl);
    await stranger.signIn(other.holder.email, PASSWORD);
    expect((await stranger.fetch(path)).status).toBe(404);
    expect((await stranger.postForm(`${path}/decision`, [["decision", "approve"]], { Origin: app.baseUrl })).status).toBe(404);
    expect((await stranger.fetch(`/account/agents/approvals/${randomUUID()}`)).status).toBe(404);
    expect((await stranger.fetch(`/account/agents/approvals/not-a-uuid`)).status).toBe(404);

    const browser = new Browser(app.baseUrl);
    await browser.signIn(p.holder.email, PASSWORD);
    // /account/agents lists the request while it waits.
    expect(await (await browser.fetch("/account/agents")).text()).toContain(`href="${path}"`);
    expect((await browser.postForm(`${path}/decision`, [["decision", "approve"]], { Origin: "https://evil.example" })).status).toBe(403);
    const bad = await browser.postForm(`${path}/decision`, [["decision", "maybe"]], { Origin: app.baseUrl });
    expect(bad.status).toBe(303);
    expect(bad.headers.get("location")).toContain("flash=");
    expect((await approvals(p)).map((a) => a.status)).toEqual(["pending"]);

    await browser.postForm(`${path}/decision`, [["decision", "approve"]], { Origin: app.baseUrl });
    const twice = await browser.postForm(`${path}/decision`, [["decision", "decline"]], { Origin: app.baseUrl });
    expect(twice.headers.get("location")).toContain("flash=");
    expect((await approvals(p)).map((a) => a.status)).toEqual(["approved"]);
    const shown = await (await browser.fetch(path)).text();
    expect(shown).toContain("Approved. Your agent can place this order now");
    expect(await (await browser.fetch("/account/agents")).text()).not.toContain(`href="${path}"`);
  });

  it("an expired request can no longer be approved, and a retry asks anew", async () => {
    const p = await person("expired");
    const first = await rawCheckout(p, checkoutArgs());
    const url = first.error!.data.elicitations[0].url as string;
    await app.pool.query(`UPDATE agent_approvals SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [p.holder.id]);
    const browser = new Browser(app.baseUrl);
    await browser.signIn(p.holder.email, PASSWORD);
    expect(await (await browser.fetch(new URL(url).pathname)).text()).toContain("This request has expired");
    const posted = await browser.postForm(`${new URL(url).pathname}/decision`, [["decision", "approve"]], { Origin: app.baseUrl });
    expect(posted.headers.get("location")).toContain("flash=");
    const retry = await rawCheckout(p, checkoutArgs());
    expect(retry.error?.code).toBe(-32042);
    expect(retry.error!.data.elicitations[0].url).not.toBe(url);
    expect(await ordersOf(p)).toBe(0);
  });
});
