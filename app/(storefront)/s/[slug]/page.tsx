import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { formatCents } from "@/lib/catalog/money";
import { getPublicStore, RETURN_WINDOW_DAYS, type PublicStore } from "@/lib/catalog/store";
import { withCatalogReader } from "@/lib/http/database";
import { canonicalUrl } from "../../_lib/request-origin";
import { forgetStorefrontPage } from "@/lib/storefront/page-exists";
import { toSearchParams, type RawQuery } from "@/lib/storefront/search-url";
import { SearchError, runSearch, searchPageAttributes } from "../../_components/search-page";
import { SearchView } from "../../_components/SearchView";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<RawQuery> };

// One lookup per request, shared by the metadata and the page; only active stores have a page.
const loadStore = cache(async (slug: string): Promise<PublicStore> => {
  const store = await withCatalogReader((client) => getPublicStore(client, slug));
  if (!store) {
    forgetStorefrontPage({ kind: "store", slug }); // see lib/storefront/page-exists.ts
    notFound();
  }
  return store;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const store = await loadStore((await params).slug);
  return { title: store.name, alternates: { canonical: await canonicalUrl(`/s/${store.slug}`) } };
}

const sinceFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** /s/{slug}?...: the store, its shipping and returns, and its listings as a search scoped to it. */
export default async function StorePage({ params, searchParams }: Props) {
  const store = await loadStore((await params).slug);
  const query = toSearchParams(await searchParams);
  const outcome = await runSearch(query, { storeId: store.id });
  return (
    <main className="page" data-page="store" data-store-slug={store.slug} {...searchPageAttributes(outcome)}>
      <header className="store-header">
        <h1>{store.name}</h1>
        <p className="muted">
          Selling since <time dateTime={store.selling_since}>{sinceFormat.format(new Date(store.selling_since))}</time>
        </p>
      </header>
      <section className="store-policies" aria-labelledby="store-policies-title">
        <h2 id="store-policies-title">Shipping and returns</h2>
        <ShippingSummary shipping={store.shipping} />
        <p data-store-returns>
          Returns: within {RETURN_WINDOW_DAYS} days of delivery, from your order&rsquo;s page (the marketplace&rsquo;s rule for every
          store).
        </p>
      </section>
      <h2 id="store-listings">Products from {store.name}</h2>
      {outcome.ok ? (
        <SearchView basePath={`/s/${store.slug}`} params={query} result={outcome.result} drilldown={outcome.drilldown} categoryLinks="param" />
      ) : (
        <SearchError error={outcome.error} />
      )}
    </main>
  );
}

function ShippingSummary({ shipping }: { shipping: PublicStore["shipping"] }) {
  if (shipping.length === 0) return <p data-store-shipping>Shipping: free standard shipping within the US.</p>;
  const prices = shipping.map((s) => s.price_cents);
  const [low, high] = [Math.min(...prices), Math.max(...prices)];
  const price = (cents: number) => (cents === 0 ? "free" : formatCents(cents));
  const minDays = Math.min(...shipping.map((s) => s.handling_days + s.min_days));
  const maxDays = Math.max(...shipping.map((s) => s.handling_days + s.max_days));
  const thresholds = shipping.map((s) => s.free_over_cents).filter((c): c is number => c !== null);
  return (
    <p data-store-shipping>
      Standard shipping within the US: {low === high ? price(low) : `${price(low)} to ${price(high)}`} per order
      {thresholds.length === 0
        ? ""
        : thresholds.length === shipping.length && new Set(thresholds).size === 1
          ? `, free on orders over ${formatCents(thresholds[0]!)}`
          : `, some items free on orders over ${formatCents(Math.min(...thresholds))}`}
      ; usually arrives in {minDays}
      {maxDays !== minDays ? `–${maxDays}` : ""} days (handling included). Each store ships its own parcel.
    </p>
  );
}
