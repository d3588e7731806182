import Link from "next/link";
import type { OwnedStore } from "@/lib/seller/dashboard/stores";
import { StoreStatusNote } from "./StoreStatusNote";

/**
 * The store's name and sections, and (for owners of several stores) the other stores. A named
 * region (a landmark), so that nothing on the page sits outside one (axe's "region" rule).
 */
export function StoreNav({ store, stores }: { store: OwnedStore; stores: OwnedStore[] }) {
  const others = stores.filter((s) => s.id !== store.id);
  return (
    <section className="store-bar" aria-label="Current store">
      <div className="inner">
        <p className="store-name" data-current-store={store.slug}>
          {store.name}
        </p>
        <nav aria-label="Store sections" className="store-tabs">
          <Link href={`/seller/${store.slug}/listings`}>Listings</Link>
          <Link href={`/seller/${store.slug}/shipping`}>Shipping templates</Link>
          <Link href={`/seller/${store.slug}/keys`}>API keys</Link>
          <Link href={`/seller/${store.slug}/webhooks`}>Webhooks</Link>
          <Link href={`/seller/orders?store=${store.slug}`}>Orders</Link>
          <Link href={`/seller/${store.slug}/audit`}>Audit log</Link>
        </nav>
        {others.length > 0 ? (
          <nav aria-label="Switch store" className="store-switch">
            <span className="muted">Switch to:</span>{" "}
            {others.map((s) => (
              <Link key={s.id} href={`/seller/${s.slug}/listings`} data-switch-store={s.slug}>
                {s.name}
              </Link>
            ))}
          </nav>
        ) : null}
      </div>
      <div className="inner">
        <StoreStatusNote status={store.status} />
      </div>
    </section>
  );
}
