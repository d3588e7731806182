import type { Metadata } from "next";
import { toSearchParams, type RawQuery } from "@/lib/storefront/search-url";
import { suggestionsFor } from "@/lib/catalog/suggest";
import { withCatalogReader } from "@/lib/http/database";
import { EmptySuggestions, QueryNotice } from "../_components/QueryNotice";
import { SearchError, runSearch, searchPageAttributes } from "../_components/search-page";
import { SearchView } from "../_components/SearchView";

export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<RawQuery> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const q = toSearchParams(await searchParams).get("q");
  return { title: q ? `Results for “${q}”` : "All products", robots: { index: false, follow: true } };
}

export default async function SearchPage({ searchParams }: Props) {
  const params = toSearchParams(await searchParams);
  const outcome = await runSearch(params);
  const q = params.get("q");
  // Nothing matched even after correcting and relaxing: offer similar words and categories.
  const suggestions = q && outcome.ok && outcome.result.meta.total === 0 ? await withCatalogReader((client) => suggestionsFor(client, q)) : null;
  return (
    <main
      className="page"
      data-page="search"
      {...searchPageAttributes(outcome)}
    >
      <h1>{q ? `Results for “${q}”` : "All products"}</h1>
      {outcome.ok ? <QueryNotice params={params} interpretation={outcome.result.interpretation} /> : null}
      {suggestions ? <EmptySuggestions suggestions={suggestions} /> : null}
      {outcome.ok ? (
        <SearchView basePath="/search" params={params} result={outcome.result} drilldown={outcome.drilldown} categoryLinks="param" />
      ) : (
        <SearchError error={outcome.error} />
      )}
    </main>
  );
}
