/**
 * The MCP Apps views (lib/mcp/views) in a real browser. The test plays the host: Node holds the
 * official 2.x MCP client, connected to the real server; headless Chromium (Playwright) renders
 * each view's `ui://` resource in a sandboxed iframe (`sandbox="allow-scripts"`, an opaque
 * origin) under the Content-Security-Policy the resource declares, exactly as the MCP Apps
 * specification (2026-01-26) tells a host to build it; the host's side of the protocol is the
 * ext-apps package's own `AppBridge`, bundled for the page with esbuild. The view's `tools/call`
 * reach the server through the host only, which refuses a tool whose visibility leaves views out.
 *
 * For each view: it renders the tool result it is sent; its button calls its tool (the agent
 * server's app-only tools, the public server's create_cart_link) and shows the answer; no CSP
 * violation is reported (a doctored view with a remote image proves the watch sees one); a
 * screenshot at phone width goes to test-results/screenshots/mcp-apps-*.png. The same calls
 * answer a text-only client in full (text and structured content).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { chromium, type Browser, type Page } from "@playwright/test";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEW_BYTE_BUDGET } from "@/lib/mcp/views";
import { ALL_SCOPES, allowAgentOrders, createHolder, createListing, setMarketplaceAgentCheckout, token, type Holder } from "../helpers/buyer";
import { randomClientIp } from "../helpers/http";
import { MCP_PATH } from "../helpers/mcp";
import { startIsolatedApp, type IsolatedApp } from "../helpers/seller";

const AGENT_MCP = "/api/agent/mcp";
const SCREENSHOTS = path.join("test-results", "screenshots");

interface Tool {
  name: string;
  _meta?: { ui?: { resourceUri?: string; visibility?: string[] } };
}
interface ToolResult {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: any;
  isError?: boolean;
}
interface Csp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
}

let app: IsolatedApp;
let holder: Holder;
let browser: Browser;
let bridgeBundle = "";
let productSlug = "";
let productTitle = "";
let listing = "";

/** A connected 2.x client, with the tools it listed (a host lists them first). */
async function connect(url: string, accessToken?: string) {
  const client = new Client({ name: "mcp-apps-harness", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      if (accessToken) headers.set("Authorization", `Bearer ${accessToken}`);
      headers.set("X-Forwarded-For", randomClientIp());
      return fetch(input, { ...init, headers });
    },
  });
  await client.connect(transport);
  const tools = (await client.listTools()).tools as Tool[];
  const call = async (name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as ToolResult;
  return { client, tools, call };
}
type Session = Awaited<ReturnType<typeof connect>>;

/** The policy a host builds from the resource's `_meta.ui.csp` (the specification's own mapping). */
function policyOf(csp: Csp): string {
  const resources = (csp.resourceDomains ?? []).join(" ");
  const list = (domains: string[] | undefined) => (domains?.length ? domains.join(" ") : "'none'");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src ${resources || "'none'"}`,
    `media-src ${resources || "'none'"}`,
    `connect-src ${list(csp.connectDomains)}`,
    `frame-src ${list(csp.frameDomains)}`,
    "base-uri 'none'",
  ].join("; ");
}

/** A view as the host renders it: the tool's linked resource, its HTML, its declared CSP. */
async function resourceOf(session: Session, toolName: string) {
  const uri = session.tools.find((t) => t.name === toolName)?._meta?.ui?.resourceUri;
  expect(uri, `${toolName} links a view`).toMatch(/^ui:\/\//);
  const read = await session.client.readResource({ uri: uri! });
  const content = read.contents[0] as { uri: string; mimeType: string; text: string; _meta?: { ui?: { csp?: Csp } } };
  expect(content.mimeType).toBe("text/html;profile=mcp-app");
  expect(Buffer.byteLength(content.text), `${uri} within the byte budget`).toBeLessThanOrEqual(VIEW_BYTE_BUDGET);
  const csp = content._meta?.ui?.csp;
  expect(csp).toEqual({ connectDomains: [], resourceDomains: [new URL(app.baseUrl).origin], frameDomains: [] });
  return { uri: uri!, html: content.text, csp: csp! };
}

/**
 * Opens a page that hosts the view: an AppBridge on the page, the view in a sandboxed iframe under
 * its CSP, its `tools/call` forwarded to `session` (app-visible tools only), then the tool's
 * input and result sent once the view has initialized. Returns the page, the view's frame, the
 * tools it called and the links it asked to open.
 */
async function host(session: Session, view: { html: string; csp: Csp }, input: Record<string, unknown>, result: ToolResult) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const called: Array<{ name: string; isError: boolean }> = [];
  await page.exposeFunction("hostCallTool", async (name: string, args: Record<string, unknown>) => {
    const tool = session.tools.find((t) => t.name === name);
    const visibility = tool?._meta?.ui?.visibility ?? ["model", "app"];
    if (!tool || !visibility.includes("app")) throw new Error(`the view may not call ${name}`);
    const answer = await session.call(name, args);
    called.push({ name, isError: answer.isError ?? false });
    return answer;
  });
  await page.setContent(`<!doctype html><html><body style="margin:0"><iframe id="view" sandbox="allow-scripts" title="View" style="width:100%;height:300px;border:0"></iframe></body></html>`);
  await page.addScriptTag({ content: bridgeBundle });
  const html = view.html.replace("<head>", `<head><meta http-equiv="Content-Security-Policy" content="${policyOf(view.csp)}">`);
  await page.evaluate(
    async ({ html, input, result }) => {
      const w = window as any;
      w.openedLinks = [];
      const iframe = document.getElementById("view") as HTMLIFrameElement;
      const bridge = new w.McpAppsHost.AppBridge(null, { name: "harness", version: "1.0.0" }, { openLinks: {}, serverTools: {} });
      bridge.oncalltool = async (params: { name: string; arguments?: Record<string, unknown> }) => w.hostCallTool(params.name, params.arguments ?? {});
      bridge.onopenlink = async ({ url }: { url: string }) => {
        w.openedLinks.push(url);
        return {};
      };
      bridge.onsizechange = ({ height }: { height?: number }) => {
        if (height) iframe.style.height = `${height}px`;
      };
      const initialized = new Promise<void>((resolve) => {
        bridge.oninitialized = () => resolve();
      });
      await bridge.connect(new w.McpAppsHost.PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
      iframe.srcdoc = html;
      await initialized;
      await bridge.sendToolInput({ arguments: input });
      await bridge.sendToolResult(result);
    },
    { html, input, result },
  );
  const frame = page.frameLocator("#view");
  return { page, frame, called, violations, opened: () => page.evaluate(() => (window as any).openedLinks as string[]) };
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `mcp-apps-${name}-390.png`), fullPage: true });
}

/** What a text-only client shows: the text content says it, the structured content is the API's body. */
function expectTextOnlyUsable(result: ToolResult, says: string) {
  expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
  expect(result.content[0]?.type).toBe("text");
  expect(result.content[0]?.text).toContain(says);
  expect(result.structuredContent?.data).toBeDefined();
}

beforeAll(async () => {
  app = await startIsolatedApp("mcp-apps");
  mkdirSync(SCREENSHOTS, { recursive: true });
  const bundled = await build({
    stdin: { contents: `export { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";`, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    format: "iife",
    globalName: "McpAppsHost",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  bridgeBundle = bundled.outputFiles[0]!.text;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run"] });
  listing = await createListing(app.pool, 1500);
  const [product] = (await app.pool.query(`SELECT p.slug, p.title FROM products p JOIN listings l ON l.product_id = p.id WHERE l.id = $1`, [listing])).rows;
  productSlug = product.slug;
  productTitle = product.title;
  await setMarketplaceAgentCheckout(app.pool, true);
  holder = await createHolder(app.pool, "apps");
  await allowAgentOrders(app.pool, holder.id, 100_000, 500_000);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("the public server's product cards", () => {
  it("search results render as a carousel; See offers loads the product, Buy makes a cart link and opens it", async () => {
    const session = await connect(app.baseUrl + MCP_PATH);
    try {
      const input = { q: productTitle.split(" ")[0]!, page_size: 6 };
      const found = await session.call("search_products", input);
      expectTextOnlyUsable(found, found.structuredContent.data[0].title);
      const view = await resourceOf(session, "search_products");
      expect(await resourceOf(session, "get_product")).toEqual(view);
      const hosted = await host(session, view, input, found);
      try {
        const cards = hosted.frame.locator(".card");
        await expect.poll(() => cards.count()).toBe(found.structuredContent.data.length);
        await screenshot(hosted.page, "public-carousel");
        const card = cards.filter({ hasText: productTitle }).first();
        await card.getByRole("button", { name: `See offers for ${productTitle}` }).click();
        await expect.poll(() => hosted.frame.getByRole("heading", { level: 1 }).textContent()).toBe(productTitle);
        const offers = hosted.frame.getByRole("list", { name: "Offers" }).getByRole("listitem");
        expect(await offers.count()).toBeGreaterThan(0);
        await expect.poll(() => hosted.frame.locator(".badge").count()).toBe(1);
        await offers.first().getByRole("button", { name: /^Buy: / }).click();
        await expect.poll(() => hosted.opened()).toHaveLength(1);
        expect((await hosted.opened())[0]).toMatch(new RegExp(`^${app.baseUrl}/cart/l/`));
        expect(await hosted.frame.getByRole("status").textContent()).toBe("Your cart link is open in the store.");
        await screenshot(hosted.page, "public-product");
        expect(hosted.called).toEqual([
          { name: "get_product", isError: false },
          { name: "create_cart_link", isError: false },
        ]);
        expect(hosted.violations).toEqual([]);
      } finally {
        await hosted.page.close();
      }
    } finally {
      await session.client.close();
    }
  });

  it("the CSP watch sees a violation: a doctored view with a remote image is reported", async () => {
    const session = await connect(app.baseUrl + MCP_PATH);
    try {
      const input = { slug: productSlug };
      const product = await session.call("get_product", input);
      const view = await resourceOf(session, "get_product");
      const doctored = { ...view, html: view.html.replace("<main", `<img src="https://cdn.example.com/x.png" alt=""><main`) };
      const hosted = await host(session, doctored, input, product);
      try {
        await expect.poll(() => hosted.violations.length).toBeGreaterThan(0);
      } finally {
        await hosted.page.close();
      }
    } finally {
      await session.client.close();
    }
  });
});

describe("the agent server's product, cart and checkout views", () => {
  let session: Session;
  beforeAll(async () => {
    session = await connect(app.baseUrl + AGENT_MCP, (await token(app, holder.id, ALL_SCOPES, { resource: "agent_mcp" })).token);
  });
  afterAll(async () => {
    await session?.client.close();
  });

  it("the product view adds an offer to the cart with the app-only view_add_to_cart", async () => {
    const input = { slug: productSlug };
    const product = await session.call("get_product", input);
    expectTextOnlyUsable(product, productTitle);
    const hosted = await host(session, await resourceOf(session, "get_product"), input, product);
    try {
      const offer = hosted.frame.getByRole("list", { name: "Offers" }).getByRole("listitem").filter({ hasText: "$15.00" }).first();
      await offer.getByRole("button", { name: /^Add to cart: / }).click();
      await expect.poll(() => hosted.frame.getByRole("status").textContent()).toBe("Added to the cart: 1 items, $15.00.");
      await screenshot(hosted.page, "agent-product");
      expect(hosted.called).toEqual([{ name: "view_add_to_cart", isError: false }]);
      expect(hosted.violations).toEqual([]);
    } finally {
      await hosted.page.close();
    }
  });

  it("the cart view groups lines per store, shows shipping, total and the limits left, and changes a quantity with view_set_quantity", async () => {
    const cart = await session.call("get_cart");
    expectTextOnlyUsable(cart, "subtotal $15.00");
    const hosted = await host(session, await resourceOf(session, "get_cart"), {}, cart);
    try {
      const store = hosted.frame.locator("section.store");
      await expect.poll(() => store.count()).toBe(1);
      await expect.poll(() => hosted.frame.locator(".limits").textContent()).toBe("Agents may spend up to $1,000.00 an order; $5,000.00 of $5,000.00 left this month.");
      expect(await store.locator("h2").textContent()).toMatch(/ · shipping \$\d+\.\d\d$/);
      await hosted.frame.getByRole("button", { name: /^One more / }).click();
      await expect.poll(() => hosted.frame.locator("output").first().textContent()).toBe("2");
      expect(await hosted.frame.locator(".total .price").textContent()).toBe("$30.00");
      await expect.poll(() => hosted.called.map((c) => c.name)).toEqual(["view_checkout_summary", "view_set_quantity", "view_checkout_summary"]);
      await expect.poll(() => hosted.frame.locator(".sums dd.price").textContent()).toMatch(/^\$\d+\.\d\d$/);
      await screenshot(hosted.page, "agent-cart");
      expect(hosted.called.every((c) => !c.isError)).toBe(true);
      expect(hosted.violations).toEqual([]);
    } finally {
      await hosted.page.close();
    }
    const after = await session.call("get_cart");
    expect(after.structuredContent.data.lines.map((l: { listing_id: string; quantity: number }) => [l.listing_id, l.quantity])).toEqual([[listing, 2]]);
  });

  it("the checkout view shows the order placed per store, its shipping and total, and what is left of the month's limit", async () => {
    const order = await session.call("checkout", {});
    expectTextOnlyUsable(order, "placed via agent");
    const placed = order.structuredContent.data;
    const hosted = await host(session, await resourceOf(session, "checkout"), {}, order);
    try {
      await expect.poll(() => hosted.frame.getByRole("heading", { level: 1 }).textContent()).toBe(`Order ${placed.number}`);
      const left = (500_000 - placed.total_cents) / 100;
      const dollars = left.toLocaleString("en-US", { style: "currency", currency: "USD" });
      await expect.poll(() => hosted.frame.locator(".limits").textContent()).toBe(`Agents may spend up to $1,000.00 an order; ${dollars} of $5,000.00 left this month.`);
      expect(await hosted.frame.locator(".sums dd.price").textContent()).toBe((placed.total_cents / 100).toLocaleString("en-US", { style: "currency", currency: "USD" }));
      await screenshot(hosted.page, "agent-checkout");
      expect(hosted.called).toEqual([{ name: "view_checkout_summary", isError: false }]);
      expect(hosted.violations).toEqual([]);
    } finally {
      await hosted.page.close();
    }
  });

  it("the app-only tools (hidden from the model by hosts) are the three the views call", async () => {
    const appOnly = session.tools.filter((t) => t._meta?.ui?.visibility?.length === 1 && t._meta.ui.visibility[0] === "app").map((t) => t.name);
    expect(appOnly.sort()).toEqual(["view_add_to_cart", "view_checkout_summary", "view_set_quantity"]);
  });
});
