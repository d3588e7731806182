import type { Metadata } from "next";
import Link from "next/link";
import { ORDER_STATUS_LABELS, PlacedByAgent } from "@/app/_components/orders";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { listDeskOrders } from "@/lib/orders";
import { When } from "@/app/_components/forms";
import { NoStore } from "../_components/NoStore";
import { StoreFilter } from "../_components/StoreFilter";
import { deskScope } from "../_lib/desk";
import type { SearchParams } from "../_lib/access";

export const metadata: Metadata = { title: "Orders" };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 25;

/** The order desk: orders holding lines of the owner's stores (or of the one chosen), newest first. */
export default async function DeskOrdersPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { stores, chosen, storeIds } = await deskScope("/seller/orders", sp.store);
  if (stores.length === 0) return <NoStore />;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  let page;
  try {
    page = await withDb((client) => listDeskOrders(client, storeIds, { limit: PAGE_SIZE, cursor }));
  } catch (err) {
    if (!(err instanceof AppError) || err.param !== "cursor") throw err;
    page = await withDb((client) => listDeskOrders(client, storeIds, { limit: PAGE_SIZE }));
  }
  const several = stores.length > 1;
  const rows = page.list.flatMap((order) => order.parts.map((part) => ({ order, part })));
  const more = new URLSearchParams({ ...(chosen ? { store: chosen.slug } : {}), ...(page.next_cursor ? { cursor: page.next_cursor } : {}) });
  return (
    <main className="page seller" data-page="seller-orders">
      <div className="page-head">
        <h1>Orders</h1>
        <Link href={chosen ? `/seller/returns?store=${chosen.slug}` : "/seller/returns"}>Returns</Link>
      </div>
      <p>Orders holding items of {chosen ? chosen.name : several ? "your stores" : stores[0]!.name}, newest first. Each store ships its own items.</p>
      {several ? <StoreFilter action="/seller/orders" stores={stores} chosen={chosen?.slug} /> : null}
      {rows.length === 0 ? (
        <p data-empty="true">No orders yet.</p>
      ) : (
        <table className="stack-table desk-orders" aria-label="Orders">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Placed</th>
              {several ? <th scope="col">Store</th> : null}
              <th scope="col">Items</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ order, part }) => (
              <tr key={`${order.id}-${part.store.id}`} data-order={order.number} data-store={part.store.slug} data-part-status={part.status}>
                <td data-label="Order">
                  <Link href={`/seller/orders/${order.number}`} prefetch={false}>
                    {order.number}
                  </Link>{" "}
                  <PlacedByAgent placedVia={order.placed_via} inline />
                </td>
                <td data-label="Placed">
                  <When at={order.created_at} />
                </td>
                {several ? <td data-label="Store">{part.store.name}</td> : null}
                <td data-label="Items">{part.lines.reduce((n, l) => n + l.quantity, 0)}</td>
                <td data-label="Total" className="amount">
                  {formatCents(part.subtotal_cents + part.shipping_cents)}
                </td>
                <td data-label="Status">{ORDER_STATUS_LABELS[part.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.next_cursor ? (
        <p className="pagination">
          <Link href={`/seller/orders?${more}`} prefetch={false} rel="next">
            Older orders
          </Link>
        </p>
      ) : null}
    </main>
  );
}
