import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { When } from "@/app/_components/forms";
import { ORDER_STATUS_LABELS, PlacedByAgent } from "@/app/_components/orders";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { listBuyerOrders } from "@/lib/orders";

export const metadata: Metadata = { title: "Your orders", robots: { index: false } };
export const dynamic = "force-dynamic";

const PAGE_SIZE = 20;

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The signed-in buyer's orders, newest first, each by number linking to its page. */
export default async function OrdersPage({ searchParams }: Props) {
  const user = await getSessionUser();
  if (!user) redirect("/signin?next=%2Faccount%2Forders");
  const sp = await searchParams;
  const cursor = typeof sp.cursor === "string" ? sp.cursor : undefined;
  let page;
  let stale = false;
  try {
    page = await withDb((client) => listBuyerOrders(client, user.id, { limit: PAGE_SIZE, cursor }));
  } catch (err) {
    // A page link that was altered: start again from the newest order, and say so.
    if (!(err instanceof AppError) || err.param !== "cursor") throw err;
    page = await withDb((client) => listBuyerOrders(client, user.id, { limit: PAGE_SIZE }));
    stale = true;
  }
  return (
    <main className="page" data-page="account-orders">
      <p className="back">
        <Link href="/account">Your account</Link>
      </p>
      <h1>Your orders</h1>
      {stale ? (
        <p className="notice" role="status">
          That page link is not valid any more; here are your latest orders.
        </p>
      ) : null}
      {page.list.length === 0 ? (
        <p data-empty="true">{cursor ? "No older orders." : "You have not placed an order yet."}</p>
      ) : (
        <table className="stack-table orders-table" aria-label="Your orders">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Placed</th>
              <th scope="col">Status</th>
              <th scope="col">Items</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {page.list.map((order) => (
              <tr key={order.id} data-order={order.number} data-status={order.status}>
                <td data-label="Order">
                  <Link href={`/account/orders/${order.number}`} prefetch={false}>
                    {order.number}
                  </Link>{" "}
                  <PlacedByAgent placedVia={order.placed_via} inline />
                </td>
                <td data-label="Placed">
                  <When at={order.created_at} />
                </td>
                <td data-label="Status">{ORDER_STATUS_LABELS[order.status]}</td>
                <td data-label="Items">{order.lines.reduce((n, l) => n + l.quantity, 0)}</td>
                <td data-label="Total" className="amount">
                  {formatCents(order.total_cents)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.next_cursor ? (
        <p className="pagination">
          <Link href={`/account/orders?cursor=${encodeURIComponent(page.next_cursor)}`} prefetch={false} rel="next">
            Older orders
          </Link>
        </p>
      ) : null}
    </main>
  );
}
