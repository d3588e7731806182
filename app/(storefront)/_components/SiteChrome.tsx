import Link from "next/link";
import type { ReactNode } from "react";

/** Header with the search box, content, footer: every storefront page and the 404 page. */
export function SiteChrome({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header">
        <div className="inner">
          <Link className="logo" href="/">
            Marketplace
          </Link>
          <form className="search-form" role="search" aria-label="Site search" action="/search" method="get">
            <label className="visually-hidden" htmlFor="site-search">
              Search products
            </label>
            <input id="site-search" name="q" type="search" placeholder="Search products" maxLength={200} />
            <button type="submit">Search</button>
          </form>
          <nav className="site-nav" aria-label="Site">
            <Link href="/help">Help</Link>
          </nav>
        </div>
      </header>
      <div id="content">{children}</div>
      <footer className="site-footer">
        <div className="inner">
          <Link href="/help">Help center</Link>
          <a href="/api/public/v1/openapi.json">Public API (OpenAPI)</a>
          <a href="/llms.txt">llms.txt for agents</a>
          <a href="/sitemap.xml">Sitemap</a>
        </div>
      </footer>
    </>
  );
}
