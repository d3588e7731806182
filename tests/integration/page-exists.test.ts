/**
 * lib/storefront/page-exists.ts: the proxy's check that a product, category, store or help
 * article page has a subject, made before the page renders, so that a missing one gets the
 * rendered not-found page (storefront-pages.test.ts). Its answers equal the pages' own, and a
 * subject that appears or disappears shows on the next request.
 * The lifecycle case makes a store of its own (no listings, so no search or page of another test
 * sees it) and removes it afterwards.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl } from "../helpers/http";
import { parseHtml } from "../helpers/html";

// db() reads DATABASE_URL when first used: the test database (embedded: served by the app).
process.env.DATABASE_URL = inject("DATABASE_URL");
const { storefrontPageExists, storefrontPageOf } = await import("@/lib/storefront/page-exists");
const { db } = await import("@/lib/db");

const pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
afterAll(async () => {
  await pool.end();
  await db().$disconnect();
});

async function page(path: string) {
  return api(baseUrl() + path, { headers: { Accept: "text/html" } });
}

describe("storefrontPageOf: which paths are checked", () => {
  it.each([
    ["/p/fixture-mixed-offers", { kind: "product", slug: "fixture-mixed-offers" }],
    ["/c/electronics", { kind: "category", slug: "electronics" }],
    ["/s/fixture-store-a/", { kind: "store", slug: "fixture-store-a" }],
    ["/help/how%20search", { kind: "help", slug: "how search" }],
  ] as const)("%s", (path, ref) => {
    expect(storefrontPageOf(path)).toEqual(ref);
  });

  it.each(["/", "/p", "/p/", "/p/a/b", "/search", "/help", "/cart/l/abc", "/x/slug", "/p/%ZZ", "/api/public/v1/products/x"])(
    "%s is not a page to check",
    (path) => {
      expect(storefrontPageOf(path)).toBeNull();
    },
  );
});

describe("storefrontPageExists answers as the pages do", () => {
  it.each([
    ["product", "fixture-mixed-offers", true],
    ["product", "fixture-unlisted", false],
    ["product", "no-such-product", false],
    ["product", "x".repeat(300), false],
    ["category", "electronics", true],
    ["category", "fixture_inactive", false],
    ["category", "Electronics", false],
    ["store", "fixture-store-a", true],
    ["store", "fixture-suspended-store", false],
    ["store", "sunset-liquidators", false],
    ["help", "how-search-works", true],
    ["help", "no-such-article", false],
    ["help", "\u0000", false],
  ] as const)("%s %s: %s", async (kind, slug, exists) => {
    expect(await storefrontPageExists({ kind, slug })).toBe(exists);
  });

  it("a category below an inactive one does not exist either", async () => {
    const { rows } = await pool.query<{ slug: string }>(
      `SELECT c.slug FROM categories c WHERE EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND a.path <> c.path AND NOT a.active) LIMIT 1`,
    );
    for (const { slug } of rows) expect(await storefrontPageExists({ kind: "category", slug })).toBe(false);
  });
});

describe("a store that opens and is suspended, through the app", () => {
  const slug = `page-exists-${randomBytes(4).toString("hex")}`;
  beforeAll(async () => {
    await pool.query(`DELETE FROM stores WHERE slug = $1`, [slug]);
  });
  afterAll(async () => {
    await pool.query(`DELETE FROM stores WHERE slug = $1`, [slug]);
  });

  it("is found on the next request after it opens, and not found soon after its suspension", async () => {
    // Not there yet: the rendered not-found page. A "not found" is never remembered...
    const before = await page(`/s/${slug}`);
    expect(before.status).toBe(404);
    expect(parseHtml(before.text)('main[data-page="not-found"]').length).toBe(1);

    // ...so the store's page shows on the very next request once it is active.
    await pool.query(`INSERT INTO stores (slug, name, status) VALUES ($1, 'Page Exists Test Store', 'active')`, [slug]);
    const open = await page(`/s/${slug}`);
    expect(open.status).toBe(200);
    expect(parseHtml(open.text)("main").attr("data-store-slug")).toBe(slug);

    // Suspended: 404 at once (the page checks again itself); an "exists" the proxy remembered is
    // dropped by the page that finds the store gone, so the request after gets the rendered page.
    await pool.query(`UPDATE stores SET status = 'suspended' WHERE slug = $1`, [slug]);
    expect((await page(`/s/${slug}`)).status).toBe(404);
    const after = await page(`/s/${slug}`);
    expect(after.status).toBe(404);
    expect(after.headers.get("cache-control")).toMatch(/no-store/);
    const $ = parseHtml(after.text);
    $("script").remove();
    expect($('main[data-page="not-found"] h1').text()).toBe("Page not found");
  });
});
