import type { QueryInterpretation } from "@/lib/catalog/search";
import type { Suggestions } from "@/lib/catalog/suggest";
import { hrefWith } from "@/lib/storefront/search-url";

/** The parameter of a literal search: every word as typed ("Search instead for"). */
export const EXACT_PARAM = "exact";

/**
 * How the words were read, above the results: "Showing results for" the corrected query, or
 * that not every word matched, each with a link that searches the words exactly as typed.
 */
export function QueryNotice({ params, interpretation }: { params: URLSearchParams; interpretation: QueryInterpretation }) {
  const q = params.get("q") ?? "";
  const exactHref = hrefWith("/search", params, { [EXACT_PARAM]: "1" });
  if (interpretation.corrected !== null) {
    return (
      <p className="query-notice" data-query-notice="corrected">
        Showing results for <strong>{interpretation.corrected}</strong>.{" "}
        <a href={exactHref}>Search instead for “{q}”</a>
      </p>
    );
  }
  if (interpretation.relaxed) {
    return (
      <p className="query-notice" data-query-notice="relaxed">
        No product matches every word, so products that match most of them come first.{" "}
        <a href={exactHref}>Search for every word of “{q}”</a>
      </p>
    );
  }
  return null;
}

/** An empty page's way on: words of the catalog that look like the query's, and categories. */
export function EmptySuggestions({ suggestions }: { suggestions: Suggestions }) {
  return (
    <section className="suggestions" aria-labelledby="suggestions-title" data-suggestions>
      <h2 id="suggestions-title">Try instead</h2>
      {suggestions.terms.length > 0 ? (
        <p>
          Similar words:{" "}
          {suggestions.terms.map((term, i) => (
            <span key={term}>
              {i > 0 ? ", " : null}
              <a href={`/search?${new URLSearchParams({ q: term })}`} data-suggested-term={term}>
                {term}
              </a>
            </span>
          ))}
        </p>
      ) : null}
      <p>Browse a category:</p>
      <ul className="suggested-categories">
        {suggestions.categories.map((category) => (
          <li key={category.slug}>
            <a href={`/c/${category.slug}`} data-suggested-category={category.slug}>
              {category.name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
