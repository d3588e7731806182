import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { shippingTemplateOptions } from "@/lib/seller/dashboard/catalog";
import { decodeFlash } from "@/lib/http/flash";
import { listingForEdit } from "@/lib/seller/dashboard/listing";
import { FormState, Notice, When } from "@/app/_components/forms";
import { ListingFields } from "../../../_components/ListingFields";
import { QuantityForm, StatusBadge, StatusButtons } from "../../../_components/listing-controls";
import { one, storeOfPage, type SearchParams } from "../../../_lib/access";
import { LISTING_NOTICES } from "../../../_lib/notices";

export const metadata: Metadata = { title: "Edit listing" };

type Props = { params: Promise<{ store: string; id: string }>; searchParams: SearchParams };

export default async function EditListingPage({ params, searchParams }: Props) {
  const [{ store: slug, id }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/listings/${id}`);
  const [listing, templates] = await withDb((client) => Promise.all([listingForEdit(client, store.id, id), shippingTemplateOptions(client, store.id)]));
  if (!listing) notFound();
  const flash = decodeFlash(one(sp.flash));
  const edit = new FormState("listing", flash);
  const moves = new FormState("row", flash);
  const here = `/seller/${store.slug}/listings/${listing.id}`;
  const archived = listing.status === "archived";
  return (
    <main className="page seller narrow" data-page="seller-listing-edit" data-listing={listing.id} data-status={listing.status}>
      <p className="back">
        <Link href={`/seller/${store.slug}/listings`}>← Listings</Link>
      </p>
      <h1>{listing.product.title}</h1>
      <Notice notices={LISTING_NOTICES} notice={one(sp.notice)} />
      <section className="panel" aria-labelledby="state-heading">
        <h2 id="state-heading">State</h2>
        {moves.alert()}
        <p>
          <StatusBadge status={listing.status} /> <span className="muted">SKU</span> <code>{listing.sku}</code>
        </p>
        <dl className="facts">
          <dt>Created</dt>
          <dd>
            <When at={listing.createdAt} />
          </dd>
          <dt>Updated</dt>
          <dd>
            <When at={listing.updatedAt} />
          </dd>
          <dt>First published</dt>
          <dd>
            <When at={listing.publishedAt} />
          </dd>
          <dt>Product page</dt>
          <dd>
            {listing.product.publiclyListed ? (
              <Link href={`/p/${listing.product.slug}`}>/p/{listing.product.slug}</Link>
            ) : (
              <span className="muted">not public until the first publish</span>
            )}
          </dd>
        </dl>
        {archived ? (
          <p className="muted">Archived listings are read-only.</p>
        ) : (
          <>
            <StatusButtons action={`${here}/status`} status={listing.status} returnTo={here} withArchive={false} />
            <details className="archive">
              <summary>Archive this listing</summary>
              <p>Archiving is permanent: the listing leaves the shop and can no longer be changed.</p>
              <form method="post" action={`${here}/status`} className="inline-form">
                <input type="hidden" name="return_to" value={here} />
                <button type="submit" name="move" value="archived" className="danger" data-move="archived">
                  Archive
                </button>
              </form>
            </details>
          </>
        )}
      </section>
      {archived ? null : (
        <>
          <section className="panel" aria-labelledby="stock-heading">
            <h2 id="stock-heading">Stock</h2>
            <QuantityForm action={`${here}/quantity`} quantity={listing.quantity} returnTo={here} label={listing.sku} />
          </section>
          <section className="panel" aria-labelledby="edit-heading">
            <h2 id="edit-heading">Edit</h2>
            <form method="post" action={`${here}/update`} className="stacked-form" aria-labelledby="edit-heading">
              {edit.alert()}
              <ListingFields
                state={edit}
                edit
                templates={templates}
                values={{
                  sku: listing.sku,
                  condition: listing.condition,
                  price_cents: listing.priceCents,
                  list_price_cents: listing.listPriceCents,
                  quantity: listing.quantity,
                  allow_backorder: listing.allowBackorder,
                  shipping_template_id: listing.shippingTemplateId,
                }}
              />
              <button type="submit">Save changes</button>
            </form>
          </section>
        </>
      )}
    </main>
  );
}
