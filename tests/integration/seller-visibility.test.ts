/**
 * decisions.md "Seller API": a change made through the seller API shows on the public API, the
 * storefront and the public MCP tools at once; a store suspended with the operator command
 * (`npm run admin -- store set-status`) leaves every public surface at once and its keys answer
 * 403 store_inactive; made active again, it comes back. On an app and database of its own.
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProductPage } from "../helpers/html";
import { rpc, toolCall } from "../helpers/mcp";
import { createTestKey, type IsolatedApp, sellerRequest, startIsolatedApp, type TestKey } from "../helpers/seller";

let app: IsolatedApp;
let key: TestKey;
// A word no seeded product has, so that a search for it finds only what this test creates.
const WORD = "Zorbulatrix";

beforeAll(async () => {
  app = await startIsolatedApp("seller-visibility");
  key = await createTestKey(app.pool, "fixture-store-a", ["listings:read", "listings:write", "shipping:write"]);
});

afterAll(async () => {
  await app?.stop();
});

const seller = (method: string, path: string, body?: unknown) => sellerRequest(app.baseUrl, method, `/api/v1${path}`, { key: key.key, body });
const publicApi = async (path: string) => {
  const res = await fetch(`${app.baseUrl}/api/public/v1${path}`, { headers: { "X-Forwarded-For": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` } });
  return { status: res.status, json: (await res.json()) as any };
};
const page = async (path: string) => {
  const res = await fetch(app.baseUrl + path, { headers: { "X-Forwarded-For": "10.8.0.1" } });
  return { status: res.status, text: await res.text() };
};
const mcp = async (name: string, args: Record<string, unknown>) => {
  const res = await rpc(toolCall(name, args), { baseUrl: app.baseUrl });
  expect(res.status).toBe(200);
  return res.message.result.structuredContent;
};

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["tsx", "scripts/admin.ts", ...args],
      // The app owns an embedded database; the command reaches it through its loopback listener,
      // as it reaches a server's.
      { env: { ...process.env, DATABASE_URL: app.database.databaseUrl }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function visibleEverywhere(slug: string, listingId: string): Promise<Record<string, boolean>> {
  const search = await publicApi(`/search?q=${WORD}`);
  const product = await publicApi(`/products/${slug}`);
  const html = await page(`/p/${slug}`);
  const mcpSearch = await mcp("search_products", { q: WORD });
  const mcpProduct = await mcp("get_product", { slug });
  return {
    "API search": search.json.data.some((card: any) => card.slug === slug),
    "API product offers": product.status === 200 && product.json.data.offers.some((o: any) => o.listing_id === listingId),
    "storefront product page": html.status === 200 && parseProductPage(html.text).offers.some((o) => o.listingId === listingId),
    "MCP search_products": mcpSearch.data?.some((card: any) => card.slug === slug) ?? false,
    "MCP get_product": mcpProduct.data?.offers?.some((o: any) => o.listing_id === listingId) ?? false,
  };
}

const everywhere = (value: boolean) => ({
  "API search": value,
  "API product offers": value,
  "storefront product page": value,
  "MCP search_products": value,
  "MCP get_product": value,
});

describe("a change made through the seller API shows on every public surface", () => {
  let listingId: string;
  let slug: string;

  it("a new product's listing, once published, is on the API, the storefront and the MCP tools", async () => {
    const template = await seller("POST", "/shipping-templates", {
      name: "Visibility test",
      handling_days: 1,
      rates: [{ region: "US", service: "standard", price_cents: 499, free_over_cents: null, min_days: 2, max_days: 5 }],
    });
    expect(template.status).toBe(201);
    const created = await seller("POST", "/listings", {
      product: { title: `${WORD} Desk Lamp`, category: "lamps", description: "A lamp for the visibility test." },
      sku: "VIS-1",
      condition: "new",
      price_cents: 4200,
      quantity: 3,
      shipping_template_id: template.json.data.id,
    });
    expect(created.status, created.text).toBe(201);
    listingId = created.json.data.id;
    slug = created.json.data.product_slug;
    expect(await visibleEverywhere(slug, listingId).catch(() => null)).not.toEqual(everywhere(true));

    const published = await seller("POST", `/listings/${listingId}/publish`);
    expect(published.status, published.text).toBe(200);
    expect(await visibleEverywhere(slug, listingId)).toEqual(everywhere(true));
  });

  it("a price change shows at once", async () => {
    const patched = await seller("PATCH", `/listings/${listingId}`, { price_cents: 3900 });
    expect(patched.status, patched.text).toBe(200);
    const product = await publicApi(`/products/${slug}`);
    expect(product.json.data.offers.find((o: any) => o.listing_id === listingId).price_cents).toBe(3900);
    const mcpProduct = await mcp("get_product", { slug });
    expect(mcpProduct.data.offers.find((o: any) => o.listing_id === listingId).price_cents).toBe(3900);
  });

  it("selling out (quantity 0 by an inventory batch) takes the offer off every surface", async () => {
    const batch = await seller("POST", "/inventory/batch", { adjustments: [{ listing_id: listingId, set_quantity: 0 }] });
    expect(batch.status, batch.text).toBe(200);
    const seen = await visibleEverywhere(slug, listingId);
    expect(seen["API product offers"]).toBe(false);
    expect(seen["MCP get_product"]).toBe(false);
    expect(seen["storefront product page"]).toBe(false);
    const restock = await seller("POST", "/inventory/batch", { adjustments: [{ listing_id: listingId, delta: 2 }] });
    expect(restock.status, restock.text).toBe(200);
    expect(await visibleEverywhere(slug, listingId)).toEqual(everywhere(true));
  });

  it("deactivating it takes it off every surface; activating brings it back", async () => {
    expect((await seller("POST", `/listings/${listingId}/status`, { status: "inactive" })).status).toBe(200);
    const seen = await visibleEverywhere(slug, listingId);
    expect(seen["API product offers"]).toBe(false);
    expect(seen["storefront product page"]).toBe(false);
    expect(seen["MCP get_product"]).toBe(false);
    expect((await seller("POST", `/listings/${listingId}/status`, { status: "active" })).status).toBe(200);
    expect(await visibleEverywhere(slug, listingId)).toEqual(everywhere(true));
  });

  it("a store suspended by the operator command vanishes at once and its keys answer 403 store_inactive", async () => {
    const suspended = await admin("store", "set-status", "fixture-store-a", "suspended");
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(suspended.stdout.trim().split("\n").at(-1)).toBe("suspended");
    expect(await visibleEverywhere(slug, listingId)).toEqual(everywhere(false));
    // Every seeded offer of the store is gone too (store A sells in fixture-mixed-offers).
    const mixed = await publicApi("/products/fixture-mixed-offers");
    expect(mixed.json.data.offers.map((o: any) => o.store_slug)).not.toContain("fixture-store-a");

    const refused = await seller("GET", "/listings");
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ type: "permission_error", code: "store_inactive" });

    const active = await admin("store", "set-status", "fixture-store-a", "active");
    expect(active.code, active.stderr).toBe(0);
    expect(active.stdout.trim().split("\n").at(-1)).toBe("active");
    expect(await visibleEverywhere(slug, listingId)).toEqual(everywhere(true));
    expect((await seller("GET", "/listings")).status).toBe(200);
  }, 120_000);
});
