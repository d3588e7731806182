import type { Metadata } from "next";
import Link from "next/link";
import { ownedStores, sellerUser } from "./_lib/access";
import { NoStore } from "./_components/NoStore";
import { StoreStatusNote } from "./_components/StoreStatusNote";

export const metadata: Metadata = { title: "Your stores" };
// Per visitor, always: never rendered at build time.
export const dynamic = "force-dynamic";

export default async function SellerHome() {
  const user = await sellerUser("/seller");
  const stores = await ownedStores(user.id);
  // Not forbidden(): Next 16 sends the body of an interrupt thrown in a page as a script-only
  // shell (vercel/next.js#62228), which a browser without JavaScript shows blank.
  if (stores.length === 0) return <NoStore />;
  return (
    <main className="page seller" data-page="seller-stores">
      <h1>Your stores</h1>
      <ul className="store-list" aria-label="Your stores">
        {stores.map((store) => (
          <li key={store.id} className="card" data-store={store.slug}>
            <h2>
              <Link href={`/seller/${store.slug}/listings`}>{store.name}</Link>
            </h2>
            <p className="muted">
              <code>{store.slug}</code>
            </p>
            <StoreStatusNote status={store.status} />
            <nav aria-label={`${store.name}: pages`} className="store-links">
              <Link href={`/seller/${store.slug}/listings`}>Listings</Link>
              <Link href={`/seller/${store.slug}/shipping`}>Shipping templates</Link>
              <Link href={`/seller/${store.slug}/keys`}>API keys</Link>
              <Link href={`/seller/orders?store=${store.slug}`}>Orders</Link>
            </nav>
          </li>
        ))}
      </ul>
    </main>
  );
}
