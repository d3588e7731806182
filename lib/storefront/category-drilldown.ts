import { searchCategoryFacet, type SearchRestriction, type SearchResult } from "@/lib/catalog/search";
import type { CatalogClient } from "@/lib/db";
import type { FacetEntryData, SearchParams } from "@/lib/schemas/catalog";

/**
 * Subcategory drill-down: when every result of a search lies inside one category below its scope
 * (the category facet has a single entry holding the whole total), the deepest category that
 * holds them all and its children, so the visitor can narrow by the next level down.
 *
 * The category facet itself stays what decisions.md fixes (the children of the current scope):
 * this is a separate navigation aid next to it.
 */
export interface CategoryDrilldown {
  /** Results of the search (all inside `trail`'s last category). */
  total: number;
  /** From the top-level category down to the deepest category holding every result. */
  trail: Array<{ slug: string; name: string }>;
  /** How many of `trail` are below the search's scope (the ones a link can narrow to). */
  below_scope: number;
  /** The children of that category holding results, with counts (the facet's order). */
  children: FacetEntryData[];
}

// Category trees are a few levels deep; the bound only guards against a loop on bad data.
const MAX_LEVELS = 16;

/**
 * The drill-down of a search whose result is `result` (searchProducts with the same `params`
 * and `restriction`), or null when the results are not all inside one category below the scope.
 * Costs nothing then; otherwise one category-facet count per level descended (the search's own
 * per-process counts cache) and one lookup of the trail's names.
 */
export async function categoryDrilldown(
  client: CatalogClient,
  params: SearchParams,
  result: SearchResult,
  restriction: SearchRestriction = {},
): Promise<CategoryDrilldown | null> {
  const { total } = result.meta;
  const holdsAll = (facet: FacetEntryData[]) => facet.length === 1 && facet[0]!.count === total;
  let facet = result.meta.facets.category;
  if (total === 0 || !holdsAll(facet)) return null;

  let deepest = facet[0]!.value;
  let levels = 0;
  for (;;) {
    const narrowed = await searchCategoryFacet(client, { ...params, category: deepest, page: 1 }, restriction);
    levels++;
    // Narrowing to the category holding every result keeps every result; anything else means the
    // catalog changed between the counts (another process, the cache's TTL): offer nothing.
    if (narrowed.total !== total) return null;
    facet = narrowed.category;
    if (!holdsAll(facet) || levels >= MAX_LEVELS) break;
    deepest = facet[0]!.value;
  }

  const trail = await client.$queryRaw<Array<{ slug: string; name: string }>>`
    SELECT a.slug, a.name FROM categories c JOIN categories a ON a.path @> c.path
    WHERE c.slug = ${deepest} ORDER BY nlevel(a.path)`;
  return { total, trail, below_scope: levels, children: facet };
}
