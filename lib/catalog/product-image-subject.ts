import type { CatalogClient } from "@/lib/db";
import { productImagePath, type ProductImageSubject } from "./product-image";

/** The subject of `/images/p/{slug}/{n}.svg`, or null when no publicly listed product has that image. */
export async function getProductImageSubject(client: CatalogClient, slug: string, n: number): Promise<ProductImageSubject | null> {
  if (!SLUG.test(slug) || !Number.isInteger(n) || n < 1 || n > 99) return null;
  const rows = await client.$queryRaw<Array<{ title: string; category_slug: string; category_name: string; color: unknown }>>`
    SELECT p.title, c.slug AS category_slug, c.name AS category_name, p.attributes -> 'color' AS color
    FROM products p JOIN categories c ON c.id = p.category_id
    WHERE p.slug = ${slug} AND p.publicly_listed
      AND EXISTS (SELECT 1 FROM product_images i WHERE i.product_id = p.id AND i.url = ${productImagePath(slug, n)})`;
  const row = rows[0];
  if (!row) return null;
  return {
    slug,
    title: row.title,
    categorySlug: row.category_slug,
    categoryName: row.category_name,
    color: typeof row.color === "string" && row.color.trim() ? row.color.trim() : null,
  };
}

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;
