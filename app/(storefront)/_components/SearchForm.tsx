import { Suspense } from "react";
import { QueryInput, SearchQueryInput } from "./SearchQueryInput";

/**
 * A GET search form to /search (the same `q` as the API). On a results page its box shows the
 * query that gave them, rendered by the server, so this holds without JavaScript too.
 */
export function SearchForm({ id, label, placeholder }: { id: string; label: string; placeholder: string }) {
  return (
    <form className="search-form" role="search" aria-label={label} action="/search" method="get">
      <label className="visually-hidden" htmlFor={id}>
        {placeholder}
      </label>
      {/* A page rendered ahead of any request would show the empty box. */}
      <Suspense fallback={<QueryInput id={id} placeholder={placeholder} />}>
        <SearchQueryInput id={id} placeholder={placeholder} />
      </Suspense>
      <button type="submit">Search</button>
    </form>
  );
}
