import Link from "next/link";

/** What the dashboard shows a signed-in person who owns no store. */
export function NoStore() {
  return (
    <main className="page seller" data-page="seller-no-store">
      <h1>You do not own a store</h1>
      <p>The seller dashboard is for store owners, and this account does not own a store.</p>
      <p>
        <Link href="/help/selling-on-the-marketplace">How selling works</Link> · <Link href="/">Back to the shop</Link>
      </p>
    </main>
  );
}
