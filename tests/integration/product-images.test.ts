/**
 * Generated product pictures (issue 13, item 2): the API's `images` and `image_url` point at
 * /images/p/{slug}/{n}.svg, which answers a deterministic, safe SVG composed from the product's
 * leaf category, colour and title; anything else under that path is 404. Cards link the picture.
 * Products made before every new product got one are given theirs by a migration.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, mapLimit, search } from "../helpers/http";
import { parseHtml } from "../helpers/html";

interface Product {
  slug: string;
  title: string;
  attributes: Record<string, unknown>;
  category_breadcrumb: Array<{ slug: string; name: string }>;
  images: Array<{ url: string; alt: string | null; width: number | null; height: number | null }>;
}

let products: Product[];

const leafOf = (p: Product) => p.category_breadcrumb.at(-1)?.slug ?? "";
const colorOf = (p: Product) => (typeof p.attributes.color === "string" ? p.attributes.color : null);
const get = (url: string) => api(url.startsWith("http") ? url : baseUrl() + url);

function escaped(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[c]};`);
}

beforeAll(async () => {
  const res = await search({ page_size: 40, sort: "newest" });
  expect(res.status).toBe(200);
  const slugs: string[] = res.json.data.map((c: { slug: string }) => c.slug);
  products = await mapLimit(slugs, 6, async (slug) => {
    const r = await api(`/products/${slug}`);
    expect(r.status).toBe(200);
    return r.json.data as Product;
  });
});

describe("the API points at the generated images", () => {
  it("every seeded image is /images/p/{slug}/{n}.svg, n = 1, 2, ... in order, absolute", () => {
    for (const p of products) {
      expect(p.images.length).toBeGreaterThan(0);
      p.images.forEach((image, i) => {
        expect(image.url).toBe(`${baseUrl()}/images/p/${p.slug}/${i + 1}.svg`);
      });
    }
  });

  it("a card's image_url is its product's first image", async () => {
    const res = await search({ page_size: 40, sort: "newest" });
    const bySlug = new Map(products.map((p) => [p.slug, p]));
    for (const card of res.json.data as Array<{ slug: string; image_url: string | null }>) {
      expect(card.image_url).toBe(bySlug.get(card.slug)?.images[0]?.url ?? null);
    }
  });

  it("some products have several views", () => {
    expect(products.some((p) => p.images.length > 1)).toBe(true);
  });
});

describe("GET /images/p/{slug}/{n}.svg", () => {
  it("answers a cacheable SVG, the same bytes twice", async () => {
    const url = products[0]!.images[0]!.url;
    const [a, b] = [await get(url), await get(url)];
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(a.headers.get("cache-control")).toMatch(/public/);
    expect(a.headers.get("cache-control")).toMatch(/max-age=86400/);
    expect(a.text.startsWith("<svg ")).toBe(true);
    expect(b.text).toBe(a.text);
  });

  it("is safe: no script, no event handler, no external reference, the title escaped", async () => {
    await mapLimit(products.slice(0, 12), 4, async (p) => {
      const res = await get(p.images[0]!.url);
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/<script/i);
      expect(res.text).not.toMatch(/\son[a-z]+\s*=/i);
      expect(res.text).not.toMatch(/(?:xlink:)?href\s*=/i);
      expect(res.text).toContain(`<title>${escaped(p.title)}</title>`);
    });
  });

  it("differs between products of different leaf categories, and of different colours", async () => {
    const a = products[0]!;
    const otherCategory = products.find((p) => leafOf(p) !== leafOf(a))!;
    expect(otherCategory).toBeDefined();
    const svgA = (await get(a.images[0]!.url)).text;
    expect((await get(otherCategory.images[0]!.url)).text).not.toBe(svgA);

    // Two products with different colours: their pictures differ even with the title aside.
    const colored = products.filter((p) => colorOf(p) !== null);
    const x = colored[0]!;
    const y = colored.find((p) => colorOf(p)!.toLowerCase() !== colorOf(x)!.toLowerCase())!;
    expect(y).toBeDefined();
    const strip = (svg: string) => svg.replace(/<title>.*?<\/title>|aria-label="[^"]*"|<text[^>]*>[^<]*<\/text>/g, "");
    expect(strip((await get(y.images[0]!.url)).text)).not.toBe(strip((await get(x.images[0]!.url)).text));
  });

  it("gives a product's views different compositions", async () => {
    const p = products.find((q) => q.images.length > 1)!;
    const views = await Promise.all(p.images.map((image) => get(image.url)));
    expect(new Set(views.map((v) => v.text)).size).toBe(p.images.length);
  });

  it("is 404 for an unknown slug, an n past the product's images, a malformed name or an unlisted product", async () => {
    const p = products.find((q) => q.images.length < 3)!;
    for (const path of [
      "/images/p/no-such-product-anywhere/1.svg",
      `/images/p/${p.slug}/${p.images.length + 1}.svg`,
      `/images/p/${p.slug}/0.svg`,
      `/images/p/${p.slug}/1.png`,
      `/images/p/${p.slug}/01.svg`,
      "/images/p/fixture-unlisted/1.svg",
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("cache-control"), path).not.toMatch(/immutable/);
    }
  });
});

describe("product cards", () => {
  it("link the picture to the product, in the same link as the title", async () => {
    const res = await get("/search?sort=newest&page_size=12");
    const $ = parseHtml(res.text);
    const cards = $("article[data-product-slug]").toArray();
    expect(cards.length).toBeGreaterThan(0);
    for (const el of cards) {
      const slug = $(el).attr("data-product-slug")!;
      const img = $(el).find("img");
      expect(img.length).toBe(1);
      expect(img.closest("a").attr("href")).toBe(`/p/${slug}`);
      expect(img.attr("src")).toBe(`${baseUrl()}/images/p/${slug}/1.svg`);
      expect(img.closest("a").text().trim().length).toBeGreaterThan(0);
    }
  });
});

describe("migration 20261208000000: a picture for every product made without one", () => {
  it("gives a product with no picture its generated one, and leaves products that have pictures alone (run in a rolled-back transaction)", async () => {
    const sql = readFileSync(path.join(process.cwd(), "prisma/migrations/20261208000000_pictures_for_products_without_one/migration.sql"), "utf8");
    const pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 1 });
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const slug = `no-picture-${Date.now()}`;
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO products (slug, title, category_id, publicly_listed) VALUES ($1, 'No picture yet', (SELECT id FROM categories WHERE parent_id IS NOT NULL ORDER BY path LIMIT 1), false) RETURNING id`,
        [slug],
      );
      const seeded = products[0]!;
      const before = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM product_images i JOIN products p ON p.id = i.product_id WHERE p.slug = $1`, [seeded.slug]);
      await client.query(sql);
      const added = await client.query<{ url: string; position: number }>(`SELECT url, position FROM product_images WHERE product_id = $1`, [rows[0]!.id]);
      expect(added.rows).toEqual([{ url: `/images/p/${slug}/1.svg`, position: 0 }]);
      const after = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM product_images i JOIN products p ON p.id = i.product_id WHERE p.slug = $1`, [seeded.slug]);
      expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
      expect(before.rows[0]!.n).toBe(seeded.images.length);
    } finally {
      await client.query("ROLLBACK");
      client.release();
      await pool.end();
    }
  });
});
