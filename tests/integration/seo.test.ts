/**
 * Crawler and agent documents (storefront issue): /sitemap.xml, /robots.txt and /llms.txt, with
 * absolute URLs from PUBLIC_BASE_URL (the harness sets it to BASE_URL), cross-checked against
 * the database.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createDb, type PrismaClient } from "@/lib/db";
import { api, baseUrl, type ApiResponse } from "../helpers/http";

const client: PrismaClient = createDb(inject("DATABASE_URL"));
afterAll(() => client.$disconnect());

const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";

function get(path: string): Promise<ApiResponse> {
  return api(baseUrl() + path);
}

/**
 * A small well-formedness check (no XML package available): one XML declaration, then tags that
 * nest and close properly under a single root, attribute values quoted, text without a bare `<`
 * or an unknown entity. Returns the root element's name and attributes.
 */
function checkWellFormed(xml: string): { root: string; attributes: Record<string, string> } {
  const declaration = /^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/.exec(xml);
  if (!declaration) throw new Error("missing XML declaration");
  const body = xml.slice(declaration[0].length);
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w:.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/y;
  const entity = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;
  const stack: string[] = [];
  let root: { root: string; attributes: Record<string, string> } | null = null;
  let closedRoot = false;
  let pos = 0;
  while (pos < body.length) {
    token.lastIndex = pos;
    const match = token.exec(body);
    if (!match) break;
    pos = token.lastIndex;
    const [, closing, name, attrs, selfClosing, text] = match;
    if (text !== undefined) {
      if (entity.test(text)) throw new Error(`bare & in text near ${JSON.stringify(text.slice(0, 60))}`);
      if (stack.length === 0 && text.trim() !== "") throw new Error("text outside the root element");
      continue;
    }
    if (closedRoot) throw new Error(`element <${name}> after the root element`);
    if (closing) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
      if (stack.length === 0) closedRoot = true;
      continue;
    }
    if (!root) {
      const attributes = Object.fromEntries([...(attrs ?? "").matchAll(/([\w:.-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      root = { root: name!, attributes };
    }
    if (!selfClosing) stack.push(name!);
    else if (stack.length === 0) closedRoot = true;
  }
  if (pos !== body.length) throw new Error(`unparseable markup at ${JSON.stringify(body.slice(pos, pos + 60))}`);
  if (!root || !closedRoot) throw new Error("root element not closed");
  return root;
}

function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" })[e]!);
}

interface UrlEntry {
  loc: string;
  lastmod: string | null;
}

function urlEntries(xml: string): UrlEntry[] {
  return [...xml.matchAll(/<url>\s*<loc>([^<]*)<\/loc>\s*(?:<lastmod>([^<]*)<\/lastmod>\s*)?<\/url>/g)].map((m) => ({
    loc: unescapeXml(m[1]!),
    lastmod: m[2] ?? null,
  }));
}

function pathsWithPrefix(entries: UrlEntry[], prefix: string): string[] {
  const base = baseUrl();
  return entries
    .map((e) => e.loc)
    .filter((loc) => loc.startsWith(base + prefix))
    .map((loc) => decodeURIComponent(loc.slice((base + prefix).length)));
}

const sorted = (xs: Iterable<string>) => [...xs].sort();

describe("GET /sitemap.xml lists every public page with absolute URLs", () => {
  let res: ApiResponse;
  let entries: UrlEntry[];
  beforeAll(async () => {
    res = await get("/sitemap.xml");
    entries = urlEntries(res.text);
  });

  it("is a well-formed urlset in the sitemap namespace, XML, cached for an hour", () => {
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/xml/);
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=3600");
    const { root, attributes } = checkWellFormed(res.text);
    expect(root).toBe("urlset");
    expect(attributes.xmlns).toBe(SITEMAP_NS);
    // Every <url> was understood by the extraction, and the catalog fits in one file.
    expect(entries.length).toBe((res.text.match(/<url>/g) ?? []).length);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(50_000);
  });

  it("every loc is absolute under PUBLIC_BASE_URL, and unique", () => {
    for (const e of entries) expect(e.loc.startsWith(`${baseUrl()}/`), e.loc).toBe(true);
    expect(new Set(entries.map((e) => e.loc)).size).toBe(entries.length);
  });

  it("lists the home page, /help and every published help article", async () => {
    const locs = new Set(entries.map((e) => e.loc));
    expect(locs.has(`${baseUrl()}/`)).toBe(true);
    expect(locs.has(`${baseUrl()}/help`)).toBe(true);
    const articles = await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM help_articles WHERE published`;
    expect(articles.length).toBeGreaterThan(0);
    expect(sorted(pathsWithPrefix(entries, "/help/"))).toEqual(sorted(articles.map((a) => a.slug)));
  });

  it("lists /p/{slug} for exactly the publicly listed products, with or without offers", async () => {
    const rows = await client.$queryRaw<{ slug: string }[]>`SELECT slug FROM products WHERE publicly_listed`;
    const listed = pathsWithPrefix(entries, "/p/");
    expect(listed.length).toBe(rows.length);
    expect(sorted(listed)).toEqual(sorted(rows.map((r) => r.slug)));
    expect(listed).toContain("fixture-draft-only");
    expect(listed).toContain("fixture-suspended-only");
    expect(listed).toContain("fixture-in-inactive-category");
    expect(listed).toContain("fixture-mixed-offers");
    expect(listed).not.toContain("fixture-unlisted");
  });

  it("gives each product its updated_at as lastmod (ISO-8601)", async () => {
    const rows = await client.$queryRaw<{ slug: string; updated_at: Date }[]>`
      SELECT slug, updated_at FROM products WHERE slug IN ('fixture-mixed-offers', 'fixture-draft-only')`;
    expect(rows.length).toBe(2);
    for (const row of rows) {
      const entry = entries.find((e) => e.loc === `${baseUrl()}/p/${row.slug}`);
      expect(entry?.lastmod).toBe(row.updated_at.toISOString());
    }
    for (const e of entries) {
      if (e.lastmod !== null) expect(new Date(e.lastmod).toISOString()).toBe(e.lastmod);
    }
  });

  it("lists /c/{slug} for active categories (under active ancestors) only", async () => {
    const active = await client.$queryRaw<{ slug: string }[]>`
      SELECT c.slug FROM categories c
      WHERE NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)`;
    const listed = pathsWithPrefix(entries, "/c/");
    expect(sorted(listed)).toEqual(sorted(active.map((c) => c.slug)));
    expect(listed).not.toContain("fixture_inactive");
  });

  it("agrees with the public category tree", async () => {
    const tree = await api("/categories");
    const flat: string[] = [];
    const walk = (nodes: { slug: string; children: unknown[] }[]) =>
      nodes.forEach((n) => {
        flat.push(n.slug);
        walk(n.children as { slug: string; children: unknown[] }[]);
      });
    walk(tree.json.data);
    expect(sorted(pathsWithPrefix(entries, "/c/"))).toEqual(sorted(flat));
  });
});

describe("split sitemap files", () => {
  it("/sitemap/0.xml holds the same URLs while they fit in one file", async () => {
    const [root, first] = await Promise.all([get("/sitemap.xml"), get("/sitemap/0.xml")]);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, s-maxage=3600");
    expect(checkWellFormed(first.text).root).toBe("urlset");
    expect(sorted(urlEntries(first.text).map((e) => e.loc))).toEqual(sorted(urlEntries(root.text).map((e) => e.loc)));
  });

  it("a file past the end, or a malformed name, is 404", async () => {
    for (const path of ["/sitemap/1.xml", "/sitemap/abc.xml", "/sitemap/01.xml", "/sitemap/-1.xml", "/sitemap/0.txt"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
    }
  });
});

describe("GET /robots.txt", () => {
  let res: ApiResponse;
  let lines: string[];
  beforeAll(async () => {
    res = await get("/robots.txt");
    lines = res.text.split(/\r?\n/).map((l) => l.trim());
  });

  it("is plain text with an absolute Sitemap line", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(lines).toContain(`Sitemap: ${baseUrl()}/sitemap.xml`);
    expect(lines).toContain("User-agent: *");
  });

  it("keeps crawlers out of the APIs and personal pages, but lets them read the OpenAPI document", () => {
    for (const path of ["/api/", "/cart", "/account", "/seller"]) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain("Allow: /api/public/v1/openapi.json");
    expect(lines).not.toContain("Disallow: /");
  });
});

describe("GET /llms.txt points agents to the public API, its OpenAPI document and the MCP endpoint", () => {
  let res: ApiResponse;
  beforeAll(async () => {
    res = await get("/llms.txt");
  });

  it("is UTF-8 plain text, cached five minutes, in the llms.txt shape (H1, > summary, ## sections)", () => {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, s-maxage=300");
    const lines = res.text.split("\n");
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines.find((l) => l.trim() !== "" && !l.startsWith("# "))).toMatch(/^> \S/);
    expect(res.text).toMatch(/^## /m);
  });

  it("links the three absolute URLs", () => {
    const base = baseUrl();
    expect(res.text).toContain(`](${base}/api/public/v1)`);
    expect(res.text).toContain(`](${base}/api/public/v1/openapi.json)`);
    expect(res.text).toContain(`](${base}/api/mcp/mcp)`);
  });

  it("points agents acting for a person at the agent MCP server and the buyer API, with OAuth's metadata, consent and revocation", () => {
    const base = baseUrl();
    expect(res.text).toContain(`](${base}/api/agent/mcp)`);
    expect(res.text).toContain(`](${base}/api/v1/buyer)`);
    expect(res.text).toContain(`](${base}/api/v1/buyer/openapi.json)`);
    expect(res.text).toContain(`](${base}/.well-known/oauth-authorization-server/oauth)`);
    expect(res.text).toContain(`](${base}/.well-known/oauth-protected-resource/api/agent/mcp)`);
    expect(res.text).toContain(`](${base}/account/agents)`);
    expect(res.text).toMatch(/consent page/);
    expect(res.text).toMatch(/revoke/);
  });

  it("says how to behave: cart links for humans, no ordering, rate limits, Retry-After, User-Agent", () => {
    expect(res.text).toMatch(/cart/i);
    expect(res.text).toMatch(/The public API and the MCP endpoint above place no order/);
    expect(res.text).toContain(`](${baseUrl()}/.well-known/ucp)`);
    expect(res.text).toContain(`](${baseUrl()}/.well-known/acp.json)`);
    expect(res.text).toContain("Retry-After");
    expect(res.text).toContain("User-Agent");
    expect(res.text).toMatch(/30 requests, then 5 per second/);
    expect(res.text).toMatch(/allows 10, then 1 per second/);
  });

  it("links every published help article at its absolute /help/{slug}", async () => {
    const articles = await client.$queryRaw<{ slug: string; title: string }[]>`
      SELECT slug, title FROM help_articles WHERE published`;
    expect(articles.length).toBeGreaterThan(0);
    for (const a of articles) expect(res.text).toContain(`(${baseUrl()}/help/${a.slug})`);
  });

  it("the OpenAPI document it points to is served", async () => {
    const openapi = await get("/api/public/v1/openapi.json");
    expect(openapi.status).toBe(200);
    expect(openapi.json?.openapi).toMatch(/^3\.1/);
  });
});
