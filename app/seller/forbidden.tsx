import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "You do not own a store" };

// A signed-in account that owns no store (403).
export default function SellerForbidden() {
  return (
    <main className="page seller" data-page="seller-forbidden">
      <h1>You do not own a store</h1>
      <p>The seller dashboard is for store owners. Your account does not own a store.</p>
      <p>
        <Link href="/help/selling-on-the-marketplace">How selling works</Link> · <Link href="/">Back to the shop</Link>
      </p>
    </main>
  );
}
