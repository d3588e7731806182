import { hrefWith } from "@/lib/storefront/search-url";

/** Page numbers shown around the current page (and the first and last, always reachable). */
const WINDOW = 2;

export function pageWindow(page: number, pageCount: number): number[] {
  const current = Math.min(page, pageCount);
  const from = Math.max(1, Math.min(current - WINDOW, pageCount - 2 * WINDOW));
  const to = Math.min(pageCount, Math.max(current + WINDOW, 1 + 2 * WINDOW));
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** First, previous, a window of page numbers, next, last: plain links (data-pagination). */
export function Pagination({ basePath, params, page, pageCount }: { basePath: string; params: URLSearchParams; page: number; pageCount: number }) {
  if (pageCount <= 1) return null;
  // Page 1 is the URL without `page`.
  const href = (n: number) => hrefWith(basePath, params, { page: n === 1 ? null : String(n) });
  const previous = Math.min(page - 1, pageCount);
  return (
    <nav className="pagination" data-pagination aria-label="Pages">
      <ul>
        {page > 1 ? (
          <>
            <li>
              <a href={href(1)} data-page-link="first">
                « First
              </a>
            </li>
            <li>
              <a rel="prev" href={href(previous)} data-page-link="previous">
                ‹ Previous
              </a>
            </li>
          </>
        ) : null}
        {pageWindow(page, pageCount).map((n) => (
          <li key={n}>
            <a
              href={href(n)}
              data-page-link={n}
              aria-current={n === page ? "page" : undefined}
              aria-label={n === page ? `Page ${n}, current page` : `Page ${n}`}
            >
              {n}
            </a>
          </li>
        ))}
        {page < pageCount ? (
          <>
            <li>
              <a rel="next" href={href(page + 1)} data-page-link="next">
                Next ›
              </a>
            </li>
            <li>
              <a href={href(pageCount)} data-page-link="last">
                Last »
              </a>
            </li>
          </>
        ) : null}
      </ul>
      <p className="muted">
        Page {page} of {pageCount}
      </p>
    </nav>
  );
}
