/** A GET search form to /search (the same `q` as the API). */
export function SearchForm({ id, label, placeholder }: { id: string; label: string; placeholder: string }) {
  return (
    <form className="search-form" role="search" aria-label={label} action="/search" method="get">
      <label className="visually-hidden" htmlFor={id}>
        {placeholder}
      </label>
      <input id={id} name="q" type="search" placeholder={placeholder} maxLength={200} />
      <button type="submit">Search</button>
    </form>
  );
}
