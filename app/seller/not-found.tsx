import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found" };

// Someone else's store or listing is "not found" too: a URL never tells whether it exists.
export default function SellerNotFound() {
  return (
    <main className="page seller" data-page="seller-not-found">
      <h1>Not found</h1>
      <p>There is nothing here, or it belongs to a store you do not own.</p>
      <p>
        <Link href="/seller">Back to your stores</Link>
      </p>
    </main>
  );
}
