import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { formatCents } from "@/lib/catalog/money";
import { orderForConfirmation } from "@/lib/checkout";
import { CONDITION_LABELS } from "@/lib/schemas/catalog";

export const metadata: Metadata = { title: "Order placed", robots: { index: false } };

type Props = {
  params: Promise<{ number: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The confirmation of a placed order: for the account holder who placed it (signed in), or for a
 * guest through the signed link checkout sent them to (also in their e-mail). Anyone else, and any
 * forged number or key, gets the 404 page.
 */
export default async function ConfirmationPage({ params, searchParams }: Props) {
  const [{ number }, query, user] = await Promise.all([params, searchParams, getSessionUser()]);
  let decoded: string;
  try {
    decoded = decodeURIComponent(number);
  } catch {
    notFound();
  }
  const placed = await withDb((client) => orderForConfirmation(client, decoded, { userId: user?.id ?? null, key: query.key }));
  if (!placed) notFound();
  const { order } = placed;
  const a = order.shipping_address;
  return (
    <main className="page narrow" data-page="order-confirmation" data-order-id={order.id}>
      <h1>Order {order.number} placed</h1>
      <p role="status">
        Thank you. We e-mailed the confirmation to <strong>{placed.email}</strong>. Each seller ships their items and
        updates the order as it moves.
      </p>
      <section aria-labelledby="summary-heading" className="panel">
        <h2 id="summary-heading">What you bought</h2>
        {placed.stores.map((store) => (
          <section key={store.store_slug} aria-label={`Sold by ${store.store_name}`} data-store={store.store_slug}>
            <h3>Sold by {store.store_name}</h3>
            <ul className="checkout-lines">
              {order.lines
                .filter((l) => l.store_slug === store.store_slug)
                .map((line) => (
                  <li key={line.id} data-line={line.listing_id}>
                    <span>
                      {line.quantity} × {line.title} <span className="muted">({CONDITION_LABELS[line.condition]})</span>
                    </span>
                    <span className="amount">{formatCents(line.line_total_cents)}</span>
                  </li>
                ))}
              <li data-store-shipping-cents={store.shipping_cents}>
                <span>Shipping from {store.store_name}</span>
                <span className="amount">{store.shipping_cents === 0 ? "Free" : formatCents(store.shipping_cents)}</span>
              </li>
            </ul>
          </section>
        ))}
        <dl className="checkout-totals">
          <dt>Subtotal</dt>
          <dd data-subtotal-cents={order.subtotal_cents}>{formatCents(order.subtotal_cents)}</dd>
          <dt>Shipping</dt>
          <dd data-shipping-cents={order.shipping_cents}>{formatCents(order.shipping_cents)}</dd>
          <dt>Total</dt>
          <dd data-total-cents={order.total_cents}>
            <strong>{formatCents(order.total_cents)}</strong>
          </dd>
        </dl>
        <p className="muted">Paid with the card ending in {placed.payment_last4}.</p>
      </section>
      <section aria-labelledby="ship-heading" className="panel">
        <h2 id="ship-heading">Shipping to</h2>
        <address className="checkout-address">
          {a.full_name}
          <br />
          {a.line1}
          {a.line2 ? (
            <>
              <br />
              {a.line2}
            </>
          ) : null}
          <br />
          {a.city}, {a.state} {a.postal_code}
          <br />
          {a.country}
        </address>
      </section>
      {placed.account_holder ? (
        <p>
          <Link href={`/account/orders/${encodeURIComponent(order.number)}`} prefetch={false}>
            Your order&apos;s page
          </Link>
        </p>
      ) : (
        <p className="muted">Keep the e-mail: its link brings you back to this page.</p>
      )}
      <p>
        <Link href="/search">Continue shopping</Link>
      </p>
    </main>
  );
}
