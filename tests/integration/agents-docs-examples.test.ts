/**
 * docs/agents.md's examples before its UCP walk-through, and the one after it, read out of the page
 * so that it cannot drift: the clients' configurations, the discovery step (what POST and GET on the
 * MCP endpoints answer, the metadata documents it names), the agent MCP server's tool list, the
 * buyer API's `sh` example (run in bash against a fresh app, with a token of the buyer API), the
 * token endpoint's 429 body, and the UCP profile naming a webhook receiver. The UCP and ACP walk-throughs are run by
 * agents-docs.test.ts, the UCP `tools/call` body by ucp-mcp.test.ts.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderWebhookUrl } from "@/lib/protocols/webhooks";
import { ALL_SCOPES, allowAgentOrders, buyer, createHolder, createListing, setMarketplaceAgentCheckout, token } from "../helpers/buyer";
import { runShellBlocks, shellBlocks } from "../helpers/doc-examples";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const DOC = readFileSync("docs/agents.md", "utf8");
const HOST = "https://shop.example.com";
const section = (heading: string) => {
  const start = DOC.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`docs/agents.md has no "${heading}"`);
  const next = DOC.indexOf("\n## ", start + heading.length + 2);
  return DOC.slice(start, next < 0 ? undefined : next);
};
/** The one match of `re` in `text`, or a failing test saying what is missing. */
const one = (text: string, re: RegExp, what: string): RegExpExecArray => {
  const m = re.exec(text);
  if (!m) throw new Error(`docs/agents.md: ${what} not found (${re})`);
  return m;
};

const CLIENTS = section("## Connecting an MCP client");
const STEPS = section("## What happens, step by step (for client authors)");
const BUYER_API = section("## The buyer API");
const TOOLS = section("## The agent MCP server's tools");
const RATE_LIMITS = section("## Rate limits");
const WEBHOOKS = section("## Order events (webhooks)");

let app: IsolatedApp;
let mcpToken = "";
let listing = "";
let holderId = "";
let uuidgenDir = "";

const onApp = (url: string) => url.replace(HOST, app.baseUrl);

beforeAll(async () => {
  app = await startIsolatedApp("agents-docs-examples");
  const holder = await createHolder(app.pool, "agents-docs");
  holderId = holder.id;
  await setMarketplaceAgentCheckout(app.pool, true);
  await allowAgentOrders(app.pool, holder.id);
  mcpToken = (await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" })).token;
  listing = await createListing(app.pool, 6499);
  // `uuidgen`, as a reader's terminal has it (util-linux; not on every CI image).
  uuidgenDir = mkdtempSync(path.join(tmpdir(), "agents-docs-bin-"));
  writeFileSync(path.join(uuidgenDir, "uuidgen"), "#!/bin/sh\ncat /proc/sys/kernel/random/uuid\n");
  chmodSync(path.join(uuidgenDir, "uuidgen"), 0o755);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  if (uuidgenDir) rmSync(uuidgenDir, { recursive: true, force: true });
});

async function post(url: string, headers: Record<string, string> = {}, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }) {
  return fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(25_000),
  });
}

describe("docs/agents.md: connecting an MCP client", () => {
  const endpoint = `${HOST}/api/agent/mcp`;

  it("every client's configuration names the agent MCP server's URL", () => {
    expect(one(CLIENTS, /`claude mcp add --transport http marketplace-account (\S+)`/, "the Claude Code command")[1]).toBe(endpoint);
    const cursor = JSON.parse(one(CLIENTS, /`~\/\.cursor\/mcp\.json`: `(\{.*?\})`;/, "Cursor's mcp.json")[1]!);
    expect(cursor).toEqual({ mcpServers: { "marketplace-account": { url: endpoint } } });
    const vscode = JSON.parse(one(CLIENTS, /`\.vscode\/mcp\.json`: `(\{.*?\})`;/, "VS Code's mcp.json")[1]!);
    expect(vscode).toEqual({ servers: { "marketplace-account": { type: "http", url: endpoint } } });
  });

  it("a client's first request gets 401 with WWW-Authenticate naming the resource metadata", async () => {
    expect(CLIENTS).toContain('`401` with `WWW-Authenticate: Bearer resource_metadata="…"`');
    const res = await post(onApp(endpoint));
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata="[^"]+"/);
  });
});

describe("docs/agents.md: discovery (step 1)", () => {
  const step = one(STEPS, /1\. \*\*Discovery\.\*\*([\s\S]*?)\n2\. /, "step 1")[1]!;

  it("POST without a token answers 401 with exactly the WWW-Authenticate shown", async () => {
    const [, method, pathname, status, header] = one(step, /`(POST) (\/api\/agent\/mcp)` without a token answers `(\d{3})` with\s+`WWW-Authenticate: ([^`]+)`/, "the 401 of step 1");
    const res = await post(app.baseUrl + pathname!);
    expect(method).toBe("POST");
    expect(res.status).toBe(Number(status));
    expect(res.headers.get("www-authenticate")).toBe(onApp(header!));
  });

  it("GET on either MCP endpoint, with a token or without, answers what the page says", async () => {
    const [, status, allow, code] = one(step, /`GET` on either MCP endpoint[\s\S]*?answers\s+`(\d{3})` with `Allow: ([^`]+)` and the error code `(\w+)`/, "what GET answers");
    const paths = [...one(step, /`GET` on either MCP endpoint \(this one and the public `(\/api\/mcp\/mcp)`\)/, "the public endpoint").slice(1), "/api/agent/mcp"];
    for (const p of paths) {
      for (const headers of [{}, { Authorization: `Bearer ${mcpToken}` }] as Array<Record<string, string>>) {
        const res = await fetch(app.baseUrl + p, { headers, signal: AbortSignal.timeout(25_000) });
        const body = (await res.json()) as { error: { code: string } };
        expect([p, res.status, res.headers.get("allow"), body.error.code]).toEqual([p, Number(status), allow, code]);
      }
    }
  });

  it("the metadata documents are where the page says, naming what it says", async () => {
    const get = async (p: string) => {
      const res = await fetch(app.baseUrl + p, { signal: AbortSignal.timeout(25_000) });
      expect(res.status, p).toBe(200);
      return (await res.json()) as Record<string, any>;
    };
    const agentPrm = one(step, /resource_metadata="https:\/\/shop\.example\.com(\/\.well-known\/oauth-protected-resource\/api\/agent\/mcp)"/, "the agent PRM")[1]!;
    const prm = await get(agentPrm);
    expect(prm.resource).toBe(`${app.baseUrl}/api/agent/mcp`);
    expect(prm.scopes_supported).toEqual(expect.arrayContaining(ALL_SCOPES));
    const issuer = one(step, /\(issuer `https:\/\/shop\.example\.com(\/oauth)`\)/, "the issuer")[1]!;
    expect(prm.authorization_servers).toEqual([app.baseUrl + issuer]);

    const buyerPrm = one(step, /The buyer API's is at\s+`([^`]+)`/, "the buyer API's PRM")[1]!;
    expect((await get(buyerPrm)).resource).toBe(`${app.baseUrl}/api/v1/buyer`);
    const plainPrm = one(step, /`(\/\.well-known\/oauth-protected-resource)`\s+serves the agent MCP server's/, "the PRM without a path")[1]!;
    expect((await get(plainPrm)).resource).toBe(`${app.baseUrl}/api/agent/mcp`);
    const asMetadata = one(step, /RFC 8414 metadata is at\s+`([^`]+)`/, "the RFC 8414 metadata")[1]!;
    expect((await get(asMetadata)).issuer).toBe(app.baseUrl + issuer);
  });
});

describe("docs/agents.md: the agent MCP server's tools", () => {
  it("tools/list answers exactly the tools the page names", async () => {
    // The paragraph's names up to "Each calls ...", where its arguments start.
    const list = TOOLS.split("\n\n")[1]!.split("Each calls")[0]!;
    const names = [...list.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(15);
    const res = await post(`${app.baseUrl}/api/agent/mcp`, { Authorization: `Bearer ${mcpToken}` });
    expect(res.status).toBe(200);
    const text = await res.text();
    const json = (res.headers.get("content-type") ?? "").startsWith("text/event-stream")
      ? text.split("\n").find((line) => line.startsWith("data: "))!.slice(6)
      : text;
    const tools = (JSON.parse(json) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    expect([...tools].sort()).toEqual([...names].sort());
  });
});

describe("docs/agents.md: the buyer API example", () => {
  const blocks = shellBlocks(BUYER_API);

  it("is one block; it reads the cart and buys it for the expected total it shows", async () => {
    expect(blocks.length).toBe(1);
    const expectedTotal = Number(one(blocks[0]!, /"expected_total_cents": (\d+)/, "the expected total")[1]);
    // A cart worth exactly that total: one listing, two of it.
    expect(expectedTotal % 2).toBe(0);
    await app.pool.query(`UPDATE listings SET price_cents = $2, list_price_cents = $2 WHERE id = $1`, [listing, expectedTotal / 2]);
    const buyerToken = (await token(app, holderId, ALL_SCOPES)).token;
    expect((await buyer(app, "POST", "/cart/lines", buyerToken, { body: { listing_id: listing, quantity: 2 } })).status).toBe(200);

    // Each curl's body on a line of its own (curl prints none after it).
    const run = await runShellBlocks([`curl() { command curl -w '\\n' "$@"; }`, blocks[0]!.replaceAll(HOST, app.baseUrl)], {
      ACCESS_TOKEN: buyerToken,
      PATH: `${uuidgenDir}:${process.env.PATH}`,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [cart, order] = run.outputs[1]!.map((line) => JSON.parse(line) as { data: Record<string, any> });
    expect(cart!.data).toMatchObject({ object: "cart", subtotal_cents: expectedTotal, currency: "USD" });
    expect(cart!.data.lines).toEqual([expect.objectContaining({ listing_id: listing, quantity: 2 })]);
    expect(order!.data).toMatchObject({ object: "order", status: "placed", placed_via: "agent", total_cents: expectedTotal });
  });
});

describe("docs/agents.md: rate limits", () => {
  it("the token endpoint over its limit answers 429, Retry-After and the body shown", async () => {
    const burst = Number(one(RATE_LIMITS, /Token and revocation endpoints: (\d+), then (\d+) per second/, "the token endpoint's limit")[1]);
    const shown = JSON.parse(one(RATE_LIMITS, /answer `429` with `Retry-After` and\s+`(\{[^`]+\})`/, "the 429 body")[1]!) as Record<string, string>;
    const metadata = (await (await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server/oauth`)).json()) as { token_endpoint: string };
    // One client address, more requests at once than the bucket holds.
    const answers = await Promise.all(
      Array.from({ length: burst + 10 }, () =>
        fetch(metadata.token_endpoint, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.66.66.66" },
          body: "grant_type=authorization_code&code=nothing&client_id=nobody",
          signal: AbortSignal.timeout(25_000),
        }),
      ),
    );
    const over = answers.filter((res) => res.status === 429);
    expect(over.length).toBeGreaterThan(0);
    expect(Number(over[0]!.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await over[0]!.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(Object.keys(shown).sort());
    expect(body.error).toBe(shown.error);
    expect(typeof body.error_description).toBe("string");
  });
});

describe("docs/agents.md: order events", () => {
  it("the UCP profile shown names its receiver as the marketplace reads it", () => {
    const block = one(WEBHOOKS, /\*\*UCP\*\*[\s\S]*?```json\n([\s\S]*?)```/, "the UCP profile")[1]!;
    const profile = JSON.parse(block) as { ucp: { capabilities: Array<{ config: { webhook_url: string } }> } };
    expect(orderWebhookUrl(profile)).toBe(profile.ucp.capabilities[0]!.config.webhook_url);
    expect(orderWebhookUrl(profile)).toMatch(/^https:\/\//);
  });
});
