import Link from "next/link";
import type { ReactNode } from "react";

/** Header and footer of every dashboard page: the way back to the shop, the account and help. */
export function SellerChrome({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="site-header seller-header">
        <div className="inner">
          <Link className="logo" href="/">
            Marketplace
          </Link>
          <span className="seller-badge">Seller dashboard</span>
          <nav className="site-nav" aria-label="Dashboard">
            <Link href="/seller" prefetch={false}>
              Your stores
            </Link>
            <Link href="/seller/orders" prefetch={false}>
              Orders
            </Link>
            <Link href="/seller/returns" prefetch={false}>
              Returns
            </Link>
            <Link href="/account" prefetch={false}>
              Account
            </Link>
            <Link href="/help/selling-on-the-marketplace">Help</Link>
          </nav>
        </div>
      </header>
      <div id="content">{children}</div>
      <footer className="site-footer">
        <div className="inner">
          <Link href="/help/seller-api-keys">Seller API keys</Link>
          <Link href="/help/seller-webhooks">Seller webhooks</Link>
          <a href="/api/v1/openapi.json">Seller API (OpenAPI)</a>
        </div>
      </footer>
    </>
  );
}
