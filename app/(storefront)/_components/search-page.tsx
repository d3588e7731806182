import { searchProducts, type SearchRestriction, type SearchResult } from "@/lib/catalog/search";
import { atRequestOrigin } from "../_lib/request-origin";
import { withCatalogReader } from "@/lib/http/database";
import { AppError } from "@/lib/errors";
import { parseQuery } from "@/lib/http/query";
import { SearchQuery } from "@/lib/schemas/catalog";
import { categoryDrilldown, type CategoryDrilldown } from "@/lib/storefront/category-drilldown";
import { EXACT_PARAM } from "./QueryNotice";

export type SearchOutcome =
  | { ok: true; result: SearchResult; drilldown: CategoryDrilldown | null }
  | { ok: false; error: AppError };

/**
 * The same validation and the same library call as GET /api/public/v1/search (a store page adds
 * its store; `exact=1`, the "Search instead for" link, reads every word as typed), and the
 * category drill-down when every result lies inside one subcategory.
 */
export async function runSearch(params: URLSearchParams, restriction: SearchRestriction = {}): Promise<SearchOutcome> {
  try {
    const query = parseQuery(SearchQuery, params);
    const scoped = { ...restriction, literal: params.get(EXACT_PARAM) === "1" };
    return await withCatalogReader(async (client) => {
      const result = await atRequestOrigin(() => searchProducts(client, query, scoped));
      return { ok: true, result, drilldown: await categoryDrilldown(client, query, result, scoped) };
    });
  } catch (err) {
    if (err instanceof AppError && err.code === "parameter_invalid") return { ok: false, error: err };
    throw err;
  }
}

export function SearchError({ error }: { error: AppError }) {
  return (
    <p className="notice" role="alert" data-search-error={error.param ?? ""}>
      {error.message} <a href="/search">Start a new search</a>.
    </p>
  );
}

/** The `data-*` attributes of the search page's <main> (docs/storefront-markup.md). */
export function searchPageAttributes(outcome: SearchOutcome): Record<string, number> {
  if (!outcome.ok) return {};
  const { meta } = outcome.result;
  return {
    "data-total": meta.total,
    "data-page-number": meta.page,
    "data-page-size": meta.page_size,
    "data-page-count": meta.page_count,
  };
}
