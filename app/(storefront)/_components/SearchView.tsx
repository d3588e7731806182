import type { SearchResult } from "@/lib/catalog/search";
import { SORTS, type FacetEntryData } from "@/lib/schemas/catalog";
import type { CategoryDrilldown } from "@/lib/storefront/category-drilldown";
import { hrefWith, listValues, toggleListValue } from "@/lib/storefront/search-url";
import { CategoryDrilldownNav } from "./CategoryDrilldown";
import { Pagination } from "./Pagination";
import { FIRST_ROW_CARDS, ProductCard } from "./ProductCard";
import { SortSelect } from "./SortSelect";

/** The filters "Clear all filters" drops; the words (`q`), sort and page size stay. */
const FILTERS = ["category", "brand", "condition", "price_min_cents", "price_max_cents"] as const;
const CLEARED = Object.fromEntries(FILTERS.map((key) => [key, null]));

const SORT_LABELS: Record<(typeof SORTS)[number], string> = {
  relevance: "Relevance",
  price_asc: "Price: low to high",
  price_desc: "Price: high to low",
  newest: "Newest",
};

interface Props {
  /** `/search` or `/c/{slug}`: where the controls point. */
  basePath: string;
  params: URLSearchParams;
  result: SearchResult;
  /** On a category page the category facet links to the child category pages. */
  categoryLinks: "param" | "path";
  /** When every result lies inside one subcategory: that category and its children. */
  drilldown?: CategoryDrilldown | null;
}

/** Results, facets, sort and pagination; every control is a link or a GET form. */
export function SearchView({ basePath, params, result, categoryLinks, drilldown }: Props) {
  const { meta } = result;
  const categoryHref = (slug: string) =>
    categoryLinks === "path" ? hrefWith(`/c/${slug}`, params, { category: null }) : hrefWith(basePath, params, { category: slug });
  const facetLink = (facet: keyof SearchResult["meta"]["facets"], entry: FacetEntryData) => {
    switch (facet) {
      case "brand":
      case "condition": {
        const selected = listValues(params, facet).includes(entry.value);
        return { selected, href: hrefWith(basePath, params, { [facet]: toggleListValue(params, facet, entry.value) }) };
      }
      case "price": {
        const [min, max] = entry.value.split("-");
        const selected = params.get("price_min_cents") === min && (params.get("price_max_cents") ?? "") === (max ?? "");
        return {
          selected,
          href: hrefWith(basePath, params, {
            price_min_cents: selected ? null : min!,
            price_max_cents: selected || !max ? null : max,
          }),
        };
      }
      case "category":
        return { selected: false, href: categoryHref(entry.value) };
    }
  };
  const facetTitles = { category: "Category", brand: "Brand", condition: "Condition", price: "Price" } as const;
  const hidden = [...params].filter(([key]) => key !== "sort" && key !== "page");
  const filtered = FILTERS.some((key) => params.getAll(key).some((v) => v.trim() !== ""));

  return (
    <div className="search-layout">
      {/* Closed on a phone so the results come first; always shown on wide screens (globals.css). */}
      <details className="filters-disclosure">
        <summary>Filters</summary>
        <aside className="facets" aria-label="Filters">
          {(Object.keys(facetTitles) as Array<keyof typeof facetTitles>).map((facet) =>
            meta.facets[facet].length === 0 ? null : (
              <section key={facet} data-facet={facet} aria-labelledby={`facet-${facet}`}>
                <h2 id={`facet-${facet}`}>{facetTitles[facet]}</h2>
                <ul>
                  {meta.facets[facet].map((entry) => {
                    const { selected, href } = facetLink(facet, entry);
                    return (
                      <li key={entry.value}>
                        <a
                          href={href}
                          data-facet-value={entry.value}
                          data-facet-count={entry.count}
                          data-selected={selected ? "true" : "false"}
                          aria-current={selected ? "true" : undefined}
                        >
                          <span className="box">{entry.label}</span>
                          <span className="count">{entry.count.toLocaleString("en-US")}</span>
                        </a>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ),
          )}
        </aside>
      </details>
      <div>
        {drilldown ? <CategoryDrilldownNav drilldown={drilldown} categoryHref={categoryHref} /> : null}
        <div className="toolbar">
          <p role="status">
            {meta.total.toLocaleString("en-US")} {meta.total === 1 ? "result" : "results"}
          </p>
          {filtered ? (
            <a className="clear-filters" href={hrefWith(basePath, params, CLEARED)} data-clear-filters>
              Clear all filters
            </a>
          ) : null}
          <form data-sort-form method="get" action={basePath}>
            {hidden.map(([key, value], i) => (
              <input key={`${key}-${i}`} type="hidden" name={key} value={value} />
            ))}
            <label htmlFor="sort">Sort by </label>
            <SortSelect defaultValue={params.get("sort") ?? "relevance"}>
              {SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort]}
                </option>
              ))}
            </SortSelect>{" "}
            <button type="submit">Apply</button>
          </form>
        </div>
        {result.data.length === 0 ? (
          <p className="notice">
            {meta.total === 0 ? "No products match. Try fewer filters or other words." : "This page is past the last page of results."}
          </p>
        ) : (
          <div className="results">
            {result.data.map((card, i) => (
              <ProductCard key={card.id} card={card} firstRow={i < FIRST_ROW_CARDS} />
            ))}
          </div>
        )}
        <Pagination basePath={basePath} params={params} page={meta.page} pageCount={meta.page_count} />
      </div>
    </div>
  );
}
