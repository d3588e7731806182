import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ORDER_STATUS_LABELS, OrderLinesTable, PlacedByAgent, ShippingAddressBlock } from "@/app/_components/orders";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { CANCEL_REASONS, CARRIER_MAX, getDeskOrder, TRACKING_NUMBER_MAX, type DeskOrder } from "@/lib/orders";
import { CANCEL_REASON_LABELS } from "../../_lib/notices";
import { listDeskReturns } from "@/lib/returns";
import { decodeFlash } from "@/lib/http/flash";
import { FormState, Notice, When } from "@/app/_components/forms";
import { ReturnsTable } from "../../_components/ReturnsTable";
import { ownedStores, sellerUser, type SearchParams } from "../../_lib/access";
import { ORDER_NOTICES, RETURN_NOTICES } from "../../_lib/notices";

export const metadata: Metadata = { title: "Order" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ number: string }>; searchParams: SearchParams };

/**
 * One order at the desk: for each of the owner's stores in it, that store's items, status and
 * buttons; the buyer's shipping address and e-mail. Nothing of other stores' parts or of the
 * payment. An order without items of the owner's stores is the not-found page.
 */
export default async function DeskOrderPage({ params, searchParams }: Props) {
  const [{ number: segment }, sp] = await Promise.all([params, searchParams]);
  const number = decode(segment);
  const path = `/seller/orders/${encodeURIComponent(number)}`;
  const user = await sellerUser(path);
  const stores = await ownedStores(user.id);
  let order: DeskOrder;
  try {
    order = await withDb((client) => getDeskOrder(client, stores.map((s) => s.id), number));
  } catch (err) {
    if (err instanceof AppError && err.code === "order_not_found") notFound();
    throw err;
  }
  const returns = await withDb((client) => listDeskReturns(client, order.parts.map((p) => p.store.id), { limit: 100, orderId: order.id }));
  const flash = decodeFlash(typeof sp.flash === "string" ? sp.flash : undefined);
  const notice = typeof sp.notice === "string" ? sp.notice : undefined;
  const here = `/seller/orders/${order.number}`;
  return (
    <main className="page seller" data-page="seller-order" data-order={order.number}>
      <p className="back">
        <Link href="/seller/orders">Orders</Link>
      </p>
      <h1>Order {order.number}</h1>
      <PlacedByAgent placedVia={order.placed_via} />
      <Notice notices={{ ...ORDER_NOTICES, ...RETURN_NOTICES }} notice={notice} />
      <dl className="facts">
        <dt>Placed</dt>
        <dd>
          <When at={order.created_at} />
        </dd>
        <dt>Buyer e-mail</dt>
        <dd data-field="email">
          <a href={`mailto:${order.email}`}>{order.email}</a>
        </dd>
      </dl>
      <section aria-labelledby="ship-to-heading">
        <h2 id="ship-to-heading">Shipping address</h2>
        <ShippingAddressBlock address={order.shipping_address} />
      </section>
      {order.parts.map((part) => {
        const state = new FormState(`part-${part.store.slug}`, flash);
        const heading = `part-${part.store.slug}`;
        return (
          <section key={part.store.id} className="panel order-part" data-store={part.store.slug} data-part-status={part.status} aria-labelledby={heading}>
            <h2 id={heading}>{part.store.name}: items to send</h2>
            <dl className="facts">
              <dt>Status</dt>
              <dd data-field="status">{ORDER_STATUS_LABELS[part.status]}</dd>
              {part.shipped_at ? (
                <>
                  <dt>Shipped</dt>
                  <dd>
                    <When at={part.shipped_at} />
                  </dd>
                  <dt>Tracking number</dt>
                  <dd data-tracking-number={part.tracking_number ?? ""}>{part.tracking_number ?? <span className="muted">none</span>}</dd>
                  {part.carrier ? (
                    <>
                      <dt>Carrier</dt>
                      <dd data-field="carrier">{part.carrier}</dd>
                    </>
                  ) : null}
                </>
              ) : null}
              {part.delivered_at ? (
                <>
                  <dt>Delivered</dt>
                  <dd>
                    <When at={part.delivered_at} />
                  </dd>
                </>
              ) : null}
              {part.cancelled_at && part.cancel_reason ? (
                <>
                  <dt>Cancelled</dt>
                  <dd>
                    <When at={part.cancelled_at} />
                  </dd>
                  <dt>Reason</dt>
                  <dd data-field="cancel_reason">{CANCEL_REASON_LABELS[part.cancel_reason]}</dd>
                  <dt>Refunded</dt>
                  <dd className="amount" data-field="refund">
                    {formatCents(part.refund_cents ?? 0)}
                  </dd>
                </>
              ) : null}
              <dt>Items</dt>
              <dd className="amount">{formatCents(part.subtotal_cents)}</dd>
              <dt>Shipping charged</dt>
              <dd className="amount">{formatCents(part.shipping_cents)}</dd>
            </dl>
            <OrderLinesTable lines={part.lines} label={`Items from ${part.store.name}`} />
            {/* A part with no move left still shows why a post on it (from a stale page) was refused. */}
            {part.status === "delivered" || part.status === "cancelled" ? state.alert() : null}
            {part.status === "placed" ? (
              <form method="post" action={`${here}/ship`} className="stacked-form" aria-label={`Ship ${part.store.name}'s items`}>
                {state.alert()}
                <input type="hidden" name="store" value={part.store.slug} />
                <label>
                  Tracking number
                  <input {...state.field("tracking_number")} defaultValue={state.value("tracking_number")} required maxLength={TRACKING_NUMBER_MAX} autoComplete="off" />
                </label>
                <label>
                  Carrier (optional)
                  <input {...state.field("carrier")} defaultValue={state.value("carrier")} maxLength={CARRIER_MAX} autoComplete="off" placeholder="UPS" />
                </label>
                <button type="submit">Mark shipped</button>
              </form>
            ) : null}
            {part.status === "placed" ? (
              <form method="post" action={`${here}/cancel`} className="stacked-form" aria-label={`Cancel ${part.store.name}'s items`}>
                <p className="muted">Cannot send them? Cancelling puts the items back in stock and refunds the buyer these items and your shipping charge.</p>
                <input type="hidden" name="store" value={part.store.slug} />
                <label>
                  Reason
                  <select {...state.field("reason")} defaultValue={state.value("reason") || undefined} required>
                    <option value="">Choose a reason</option>
                    {CANCEL_REASONS.map((r) => (
                      <option key={r} value={r}>
                        {CANCEL_REASON_LABELS[r]}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="submit" className="danger">
                  Cancel order
                </button>
              </form>
            ) : null}
            {part.status === "shipped" ? (
              <form method="post" action={`${here}/deliver`} className="inline-form" aria-label={`Deliver ${part.store.name}'s items`}>
                {state.alert()}
                <input type="hidden" name="store" value={part.store.slug} />
                <button type="submit">Mark delivered</button>
              </form>
            ) : null}
          </section>
        );
      })}
      <section aria-labelledby="returns-heading">
        <h2 id="returns-heading">Returns</h2>
        {new FormState("returns", flash).alert()}
        {returns.list.length === 0 ? (
          <p data-empty="true">No returns for this order.</p>
        ) : (
          <ReturnsTable returns={returns.list} returnTo={here} showStore={order.parts.length > 1} />
        )}
      </section>
    </main>
  );
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
