import Link from "next/link";
import type { ReactNode } from "react";
import { AccountLink } from "./AccountLink";
import { CartLink } from "./CartLink";
import { SearchForm } from "./SearchForm";

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
          <SearchForm id="site-search" label="Site search" placeholder="Search products" />
          <nav className="site-nav" aria-label="Site">
            <Link href="/help">Help</Link>
            <CartLink />
            <AccountLink />
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
