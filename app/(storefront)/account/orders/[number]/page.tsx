import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { FormState, Notice, When } from "@/app/_components/forms";
import { ORDER_STATUS_LABELS, OrderLinesTable, PlacedByAgent, RETURN_STATUS_LABELS, ShippingAddressBlock } from "@/app/_components/orders";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { getBuyerOrder, type BuyerOrder, type BuyerOrderEvent } from "@/lib/orders";
import { RETURN_REASON_LABELS, RETURN_REASONS } from "@/lib/schemas/orders";
import { decodeFlash } from "@/lib/http/flash";

export const metadata: Metadata = { title: "Your order", robots: { index: false } };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ number: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const NOTICES: Record<string, string> = {
  return_requested: "Return requested. The store will look at it; you can follow it below.",
};

/** One of the signed-in buyer's orders; anyone else's (or none) is the not-found page. */
export default async function OrderPage({ params, searchParams }: Props) {
  const [{ number }, sp] = await Promise.all([params, searchParams]);
  const user = await getSessionUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(`/account/orders/${number}`)}`);
  let view: BuyerOrder;
  try {
    view = await withDb((client) => getBuyerOrder(client, user.id, decode(number)));
  } catch (err) {
    if (err instanceof AppError && err.code === "order_not_found") notFound();
    throw err;
  }
  const { order } = view;
  const linesById = new Map(order.lines.map((l) => [l.id, l]));
  const flash = decodeFlash(typeof sp.flash === "string" ? sp.flash : undefined);
  return (
    <main className="page" data-page="account-order" data-order={order.number} data-status={order.status}>
      <p className="back">
        <Link href="/account/orders">Your orders</Link>
      </p>
      <h1>Order {order.number}</h1>
      <PlacedByAgent placedVia={order.placed_via} />
      <Notice notices={NOTICES} notice={typeof sp.notice === "string" ? sp.notice : undefined} />
      <dl className="facts">
        <dt>Placed</dt>
        <dd>
          <When at={order.created_at} />
        </dd>
        <dt>Status</dt>
        <dd data-field="status">{ORDER_STATUS_LABELS[order.status]}</dd>
      </dl>

      {view.parts.map((part) => {
        const lines = part.line_ids.map((id) => linesById.get(id)!);
        return (
          <section key={part.store_slug} className="panel order-part" data-store={part.store_slug} data-part-status={part.status} aria-labelledby={`part-${part.store_slug}`}>
            <h2 id={`part-${part.store_slug}`}>From {part.store_name}</h2>
            <dl className="facts">
              <dt>Status</dt>
              <dd>{ORDER_STATUS_LABELS[part.status]}</dd>
              {part.shipped_at ? (
                <>
                  <dt>Tracking number</dt>
                  <dd data-tracking-number={part.tracking_number ?? ""}>{part.tracking_number ?? <span className="muted">none given</span>}</dd>
                </>
              ) : null}
              <dt>Shipping</dt>
              <dd className="amount">{formatCents(part.shipping_cents)}</dd>
            </dl>
            <OrderLinesTable lines={lines} label={`Items from ${part.store_name}`} />
          </section>
        );
      })}

      <section aria-labelledby="totals-heading">
        <h2 id="totals-heading">Totals</h2>
        <dl className="facts totals">
          <dt>Items</dt>
          <dd className="amount">{formatCents(order.subtotal_cents)}</dd>
          <dt>Shipping</dt>
          <dd className="amount">{formatCents(order.shipping_cents)}</dd>
          <dt>Total</dt>
          <dd className="amount" data-field="total">
            {formatCents(order.total_cents)}
          </dd>
        </dl>
      </section>

      <section aria-labelledby="address-heading">
        <h2 id="address-heading">Shipping address</h2>
        <ShippingAddressBlock address={order.shipping_address} />
      </section>

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">Status history</h2>
        <ol className="history">
          {view.history.map((event, i) => (
            <li key={i} data-event={event.status}>
              <When at={event.created_at} /> {describe(event)}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="returns-heading" id="returns">
        <h2 id="returns-heading">Returns</h2>
        {view.returns.length === 0 ? <p data-empty="true">No returns for this order.</p> : null}
        {view.returns.length > 0 ? (
          <ul className="returns-list">
            {view.returns.map((ret) => (
              <li key={ret.id} data-return={ret.id} data-return-status={ret.status}>
                <strong>{RETURN_STATUS_LABELS[ret.status]}</strong> (requested <When at={ret.created_at} />):{" "}
                {ret.lines.map((l) => `${l.quantity} × ${linesById.get(l.order_line_id)?.title ?? "item"} (${RETURN_REASON_LABELS[l.reason]})`).join("; ")}
              </li>
            ))}
          </ul>
        ) : null}
        {view.return_window_open ? (
          <>
            <p>
              You can ask for a return until <When at={view.returnable_until} />. Each store handles the items it sent: ask each store separately.
            </p>
            {view.parts.map((part) => (
              <ReturnForm key={part.store_slug} view={view} part={part} state={new FormState(`return-${part.store_slug}`, flash)} />
            ))}
          </>
        ) : view.returnable_until ? (
          <p>The return window of this order closed on <When at={view.returnable_until} />.</p>
        ) : (
          <p>Once the order is delivered you can ask for a return within 30 days.</p>
        )}
      </section>
    </main>
  );
}

function ReturnForm({ view, part, state }: { view: BuyerOrder; part: BuyerOrder["parts"][number]; state: FormState }) {
  const lines = part.line_ids.map((id) => view.order.lines.find((l) => l.id === id)!).filter((l) => (view.returnable_quantities[l.id] ?? 0) > 0);
  if (lines.length === 0) return null;
  const heading = `return-heading-${part.store_slug}`;
  return (
    <form method="post" action={`/account/orders/${view.order.number}/returns`} className="panel stacked-form return-form" aria-labelledby={heading}>
      <h3 id={heading}>Return items from {part.store_name}</h3>
      {state.alert()}
      <input type="hidden" name="store" value={part.store_slug} />
      {lines.map((line) => {
        const max = view.returnable_quantities[line.id]!;
        return (
          <fieldset key={line.id} data-line={line.id}>
            <legend>{line.title}</legend>
            <label>
              Quantity to return: {line.title}
              <input
                {...state.field(`quantity.${line.id}`)}
                type="number"
                inputMode="numeric"
                min={0}
                max={max}
                defaultValue={state.value(`quantity.${line.id}`, "0")}
                className="quantity"
              />
            </label>{" "}
            <span className="muted">(up to {max})</span>
            <label>
              Reason: {line.title}
              <select {...state.field(`reason.${line.id}`)} defaultValue={state.value(`reason.${line.id}`, "")}>
                <option value="">Choose a reason</option>
                {RETURN_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {RETURN_REASON_LABELS[r]}
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
        );
      })}
      <button type="submit">Request return</button>
    </form>
  );
}

function describe(event: BuyerOrderEvent): string {
  const who = event.store_name;
  const what =
    event.status === "placed"
      ? "Order placed"
      : who
        ? event.status === "cancelled"
          ? `${who} cancelled its items`
          : `${who} marked its items ${event.status}`
        : `Order ${event.status}`;
  // The placed event's note says how it was placed, which the buyer knows; a shipment's names its tracking number.
  return event.note && event.status !== "placed" ? `${what} (${event.note})` : what;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
