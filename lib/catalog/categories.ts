import { db } from "@/lib/db";
import type { CategoryNodeData } from "@/lib/schemas/catalog";

/** Every active category (under active ancestors) as a nested tree, siblings by position. */
export async function getCategoryTree(): Promise<{ data: CategoryNodeData[]; meta: { count: number } }> {
  const rows = await db().$queryRaw<{ slug: string; name: string; path: string }[]>`
    SELECT c.slug, c.name, c.path::text AS path
    FROM categories c
    WHERE NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)
    ORDER BY nlevel(c.path), c.position, c.name`;

  const byPath = new Map<string, CategoryNodeData>();
  const roots: CategoryNodeData[] = [];
  for (const row of rows) {
    const node: CategoryNodeData = { slug: row.slug, name: row.name, path: row.path, children: [] };
    byPath.set(row.path, node);
    const parentPath = row.path.includes(".") ? row.path.slice(0, row.path.lastIndexOf(".")) : null;
    if (parentPath === null) roots.push(node);
    else byPath.get(parentPath)?.children.push(node);
  }
  return { data: roots, meta: { count: rows.length } };
}
