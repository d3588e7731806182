import type { CatalogClient } from "@/lib/db";
import type { CategoryNodeData } from "@/lib/schemas/catalog";

/** Every active category (under active ancestors) as a nested tree, siblings by position. */
export async function getCategoryTree(client: CatalogClient): Promise<{ data: CategoryNodeData[]; meta: { count: number } }> {
  const rows = await client.$queryRaw<{ slug: string; name: string; path: string }[]>`
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

export interface CategoryPlace {
  node: CategoryNodeData;
  /** From the top-level category down to the node itself. */
  breadcrumb: Array<{ slug: string; name: string }>;
}

/** An active category with its breadcrumb, from the active tree; null when there is none. */
export async function findCategory(client: CatalogClient, slug: string): Promise<CategoryPlace | null> {
  const { data } = await getCategoryTree(client);
  const walk = (nodes: CategoryNodeData[], trail: CategoryPlace["breadcrumb"]): CategoryPlace | null => {
    for (const node of nodes) {
      const here = [...trail, { slug: node.slug, name: node.name }];
      if (node.slug === slug) return { node, breadcrumb: here };
      const found = walk(node.children, here);
      if (found) return found;
    }
    return null;
  };
  return walk(data, []);
}
