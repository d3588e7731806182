import type { Metadata } from "next";
import Link from "next/link";
import { formatCents } from "@/lib/catalog/money";
import { withDb } from "@/lib/http/database";
import { decodeFlash } from "@/lib/http/flash";
import { LISTING_FILTER_LABELS, LISTING_FILTERS, listingsTable, listingsTableQuery, type ListingsTableQuery } from "@/lib/seller/dashboard/listings-table";
import { CONDITION_LABELS, type ConditionValue } from "@/lib/schemas/catalog";
import { FormState, Notice, When } from "@/app/_components/forms";
import { QuantityForm, StatusBadge, StatusButtons } from "../../_components/listing-controls";
import { one, storeOfPage, type SearchParams } from "../../_lib/access";
import { LISTING_NOTICES } from "../../_lib/notices";

export const metadata: Metadata = { title: "Listings" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

function tableHref(base: string, query: ListingsTableQuery, page: number): string {
  const params = new URLSearchParams();
  if (query.filter !== "current") params.set("status", query.filter);
  if (query.q) params.set("q", query.q);
  if (page > 1) params.set("page", String(page));
  const qs = params.toString();
  return qs ? `${base}?${qs}` : base;
}

export default async function ListingsPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const base = `/seller/${slug}/listings`;
  const { store } = await storeOfPage(slug, base);
  const table = await withDb((client) => listingsTable(client, store.id, listingsTableQuery(sp)));
  const here = tableHref(`/seller/${store.slug}/listings`, table.query, table.page);
  const rowState = new FormState("row", decodeFlash(one(sp.flash)));
  return (
    <main className="page seller" data-page="seller-listings">
      <div className="page-head">
        <h1>Listings</h1>
        <Link className="button" href={`/seller/${store.slug}/listings/new`}>
          New listing
        </Link>
      </div>
      <Notice notices={LISTING_NOTICES} notice={one(sp.notice)} />
      {rowState.alert()}
      <form method="get" action={`/seller/${store.slug}/listings`} className="filters" role="search" aria-label="Filter listings">
        <label>
          Status
          <select name="status" defaultValue={table.query.filter}>
            {LISTING_FILTERS.map((f) => (
              <option key={f} value={f}>
                {LISTING_FILTER_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Search by SKU or title
          <input type="search" name="q" defaultValue={table.query.q} maxLength={200} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <p className="muted" data-total={table.total}>
        {table.total.toLocaleString("en-US")} {table.total === 1 ? "listing" : "listings"}
        {table.pageCount > 1 ? ` · page ${table.page} of ${table.pageCount}` : ""}
      </p>
      {table.rows.length === 0 ? (
        <p data-empty="true">
          {table.query.q || table.query.filter !== "current" ? "No listing matches." : "No listings yet."}{" "}
          <Link href={`/seller/${store.slug}/listings/new`}>Create a listing</Link>.
        </p>
      ) : (
        <table className="stack-table listings-table" aria-label="Listings">
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">SKU</th>
              <th scope="col">Condition</th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => {
              const action = `/seller/${store.slug}/listings/${row.id}`;
              return (
                <tr key={row.id} data-listing={row.id} data-sku={row.sku} data-status={row.status}>
                  <td data-label="Title">
                    <Link href={action} className="row-title">
                      {row.title}
                    </Link>
                  </td>
                  <td data-label="SKU">
                    <code>{row.sku}</code>
                  </td>
                  <td data-label="Condition">{CONDITION_LABELS[row.condition as ConditionValue] ?? row.condition}</td>
                  <td data-label="Price" className="amount">
                    <div>
                      {formatCents(row.price_cents)}
                      {row.list_price_cents > row.price_cents ? <div className="strike">{formatCents(row.list_price_cents)}</div> : null}
                    </div>
                  </td>
                  <td data-label="Quantity">
                    <div>
                    <QuantityForm
                      action={`${action}/quantity`}
                      quantity={row.quantity}
                      returnTo={here}
                      label={row.sku}
                      disabled={row.status === "archived"}
                    />
                    {row.allow_backorder ? <div className="muted">backorder on</div> : null}
                    </div>
                  </td>
                  <td data-label="Status">
                    <div>
                      <StatusBadge status={row.status} />{" "}
                      <StatusButtons action={`${action}/status`} status={row.status} returnTo={here} withArchive={false} label={row.sku} />
                    </div>
                  </td>
                  <td data-label="Updated">
                    <When at={row.updated_at} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {table.pageCount > 1 ? (
        <nav className="pagination" aria-label="Pages">
          {table.page > 1 ? (
            <Link href={tableHref(`/seller/${store.slug}/listings`, table.query, table.page - 1)} rel="prev">
              Previous
            </Link>
          ) : null}
          <span>
            Page {table.page} of {table.pageCount}
          </span>
          {table.page < table.pageCount ? (
            <Link href={tableHref(`/seller/${store.slug}/listings`, table.query, table.page + 1)} rel="next">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </main>
  );
}
