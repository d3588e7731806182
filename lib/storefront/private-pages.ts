/**
 * Which storefront pages may show one visitor's own state in the shared header (the cart count).
 * Catalog pages are sent `public, s-maxage=60` (next.config.ts), so a CDN would hand one visitor's
 * header to the next: the count goes only on pages that are never shared. An allow-list, so a page
 * added later stays count-free until someone decides it is private.
 */

/** Request header the proxy sets to the page's path: a layout cannot read its own URL. */
export const PAGE_PATH_HEADER = "x-storefront-path";

// `/cart/l/{token}` is private too, but it changes the cart while the header renders beside it.
const PRIVATE_PAGES = [/^\/cart\/?$/, /^\/checkout(\/|$)/, /^\/account(\/|$)/];

export function showsVisitorState(pathname: string | null | undefined): boolean {
  return !!pathname && PRIVATE_PAGES.some((page) => page.test(pathname));
}
