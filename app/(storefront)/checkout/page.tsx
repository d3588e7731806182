import type { Metadata } from "next";
import Link from "next/link";
import { cookies } from "next/headers";
import { defaultAddress } from "@/lib/accounts/addresses";
import { defaultPaymentMethod } from "@/lib/accounts/payment-methods";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { CART_COOKIE } from "@/lib/cart/cookie";
import { newToken } from "@/lib/cart/token";
import { formatCents } from "@/lib/catalog/money";
import { ADDRESS_LIMITS } from "@/lib/orders/address";
import { checkoutDraft, DRAFT_FIELDS, quoteCheckout, type Quote, type QuoteChange } from "@/lib/checkout";
import { testModeCards } from "@/lib/payments";
import { CONDITION_LABELS } from "@/lib/schemas/catalog";
import type { FormFlash } from "@/lib/http/flash";
import { cartOwnerOf } from "../_lib/cart-owner";
import { ParcelTermsList } from "../_components/ParcelTerms";
import { cartLinesValue, FLASH_COOKIE, refusalOf } from "./_lib/form";
import { DraftSaver } from "./_components/DraftSaver";

export const metadata: Metadata = { title: "Checkout", robots: { index: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function changeText(change: QuoteChange): string {
  const name = change.title ? `“${change.title}”` : "An item";
  switch (change.kind) {
    case "price_changed":
      return `${name} now costs ${formatCents(change.price_cents!)} (it was ${formatCents(change.previous_price_cents!)} when you added it).`;
    case "short_of_stock":
      return `${name}: the seller no longer has that many. Lower the quantity in your cart.`;
    case "sold_out":
      return `${name} sold out. Remove it from your cart to check out.`;
    default:
      return `${name} can no longer be bought. Remove it from your cart to check out.`;
  }
}

/**
 * Checkout: the cart as it stands now (each line with its seller, each seller's shipping, the
 * totals, what changed since the cart was last seen), where to ship and how to pay, and "Place
 * order". A guest types an e-mail, an address and a card number; a signed-in buyer's default
 * address and card are chosen (typed ones when the account has none). What was typed is kept with
 * the cart as a draft (never the card number) and filled in again on a reload.
 */
export default async function CheckoutPage({ searchParams }: Props) {
  const [user, jar, params] = await Promise.all([getSessionUser(), cookies(), searchParams]);
  const owner = cartOwnerOf(user, jar.get(CART_COOKIE)?.value);
  const refusal = refusalOf(jar.get(FLASH_COOKIE)?.value, params.refused);
  const [address, card] = user
    ? await withDb((client) => Promise.all([defaultAddress(client, user.id), defaultPaymentMethod(client, user.id)]))
    : [null, null];
  const country = address?.country ?? "US";
  const [quote, draft] = owner ? await withDb((client) => Promise.all([quoteCheckout(client, { cart: owner }, { country }), checkoutDraft(client, owner)])) : [null, {}];
  const testCards = testModeCards();

  if (!quote || quote.lines.length === 0) {
    return (
      <main className="page narrow" data-page="checkout">
        <h1>Checkout</h1>
        {refusal ? <Refusal flash={refusal} /> : null}
        <p data-cart-empty="true">
          Your cart is empty. <Link href="/search">Find something</Link>.
        </p>
      </main>
    );
  }

  const value = (name: string) => refusal?.values[name] ?? draft[name] ?? "";
  const invalid = (name: string) => (refusal?.field === name ? { "aria-invalid": true as const, "aria-describedby": "checkout-error" } : {});
  return (
    <main className="page narrow" data-page="checkout">
      <h1>Checkout</h1>
      {refusal ? <Refusal flash={refusal} /> : null}
      {quote.changes.length > 0 ? (
        <section className="notice" aria-labelledby="changes-heading" data-changes={quote.changes.length}>
          <h2 id="changes-heading">What changed since you last saw your cart</h2>
          <ul>
            {quote.changes.map((c) => (
              <li key={`${c.listing_id}-${c.kind}`} data-change={c.kind} data-listing={c.listing_id}>
                {changeText(c)}
              </li>
            ))}
          </ul>
          <p>
            <Link href="/cart">Change your cart</Link>
          </p>
        </section>
      ) : null}

      <Summary quote={quote} />

      {params.draft === "saved" ? (
        <p className="notice" role="status" data-draft-saved="true">
          Your details are saved: they fill in again when you come back to checkout. The card number is never kept.
        </p>
      ) : null}

      <form method="post" action="/checkout/place" aria-label="Checkout" className="stacked-form" id="checkout-form">
        <DraftSaver formId="checkout-form" fields={Object.keys(DRAFT_FIELDS)} />
        <input type="hidden" name="checkout_token" value={newToken()} />
        <input type="hidden" name="expected_total_cents" value={quote.total_cents} />
        <input type="hidden" name="cart_lines" value={cartLinesValue(quote.lines)} />
        {user ? (
          <p>
            Signed in as <strong>{user.email}</strong>; the confirmation goes there.
          </p>
        ) : (
          <fieldset>
            <legend>Contact</legend>
            <label>
              Email
              <input type="email" name="email" autoComplete="email" required maxLength={254} defaultValue={value("email")} {...invalid("email")} />
            </label>
            <p className="muted">
              Checking out as a guest. <Link href="/signin?next=%2Fcheckout">Sign in</Link> to use your saved address and card.
            </p>
          </fieldset>
        )}

        <fieldset>
          <legend>Ship to</legend>
          {address ? (
            <>
              <label className="check">
                <input type="radio" name="address" value="saved" defaultChecked />
                <span data-saved-address="true">
                  {address.full_name}, {address.line1}
                  {address.line2 ? `, ${address.line2}` : ""}, {address.city}, {address.state} {address.postal_code}, {address.country}
                </span>
              </label>
              <p className="muted">
                Your default address. <Link href="/account">Manage addresses</Link>
              </p>
            </>
          ) : (
            <div className="field-grid">
              <label>
                Full name
                <input type="text" name="full_name" autoComplete="shipping name" required maxLength={ADDRESS_LIMITS.full_name} defaultValue={value("full_name")} {...invalid("full_name")} />
              </label>
              <label>
                Address line 1
                <input type="text" name="line1" autoComplete="shipping address-line1" required maxLength={ADDRESS_LIMITS.line1} defaultValue={value("line1")} {...invalid("line1")} />
              </label>
              <label>
                Address line 2
                <input type="text" name="line2" autoComplete="shipping address-line2" maxLength={ADDRESS_LIMITS.line2} defaultValue={value("line2")} {...invalid("line2")} />
              </label>
              <label>
                City
                <input type="text" name="city" autoComplete="shipping address-level2" required maxLength={ADDRESS_LIMITS.city} defaultValue={value("city")} {...invalid("city")} />
              </label>
              <label>
                State
                <input type="text" name="state" autoComplete="shipping address-level1" required maxLength={ADDRESS_LIMITS.state} defaultValue={value("state")} {...invalid("state")} />
              </label>
              <label>
                ZIP code
                <input type="text" name="postal_code" autoComplete="shipping postal-code" inputMode="numeric" required maxLength={ADDRESS_LIMITS.postal_code} defaultValue={value("postal_code")} {...invalid("postal_code")} />
              </label>
              <p className="muted">We ship to addresses in the United States.</p>
            </div>
          )}
        </fieldset>

        <fieldset>
          <legend>Payment</legend>
          {card ? (
            <>
              <label className="check">
                <input type="radio" name="payment" value="saved" defaultChecked />
                <span data-saved-card="true">
                  {card.brand} ending in {card.last4}
                </span>
              </label>
              <p className="muted">
                Your default payment method. <Link href="/account">Manage payment methods</Link>
              </p>
            </>
          ) : (
            <label>
              Card number
              <input type="text" name="card_number" autoComplete="cc-number" inputMode="numeric" required maxLength={40} {...invalid("card_number")} />
            </label>
          )}
          <p className="muted">Only the last 4 digits of a card are kept.</p>
          {testCards ? (
            <p className="notice test-mode" data-test-mode="true">
              <strong>Test mode:</strong> no real money is charged. Card number <code data-test-card="approved">{testCards.approved}</code> is
              approved; <code data-test-card="declined">{testCards.declined}</code> is declined.
            </p>
          ) : null}
        </fieldset>

        {quote.ready ? (
          <p>
            <button type="submit">Place order</button>{" "}
            <span className="muted">
              You pay <strong>{formatCents(quote.total_cents)}</strong>.
            </span>
          </p>
        ) : (
          <p className="form-error" data-not-ready="true">
            Some items cannot be bought as they are. <Link href="/cart">Change your cart</Link>, then come back here.
          </p>
        )}
        {user && address ? null : (
          <p>
            <button type="submit" formAction="/checkout/draft" formNoValidate className="secondary">
              Save details for later
            </button>
          </p>
        )}
      </form>
    </main>
  );
}

function Refusal({ flash }: { flash: FormFlash }) {
  return (
    <p className="form-error checkout-refusal" role="alert" id="checkout-error" data-field={flash.field}>
      {flash.message}
    </p>
  );
}

/** Each seller's lines and shipping, then the totals. */
function Summary({ quote }: { quote: Quote }) {
  const blocked = quote.lines.filter((l) => !l.purchasable);
  return (
    <section aria-labelledby="summary-heading" className="panel">
      <h2 id="summary-heading">Your order</h2>
      {quote.stores.map((store) => (
        <section key={store.store_id} aria-label={`Sold by ${store.store_name}`} data-store={store.store_slug}>
          <h3>Sold by {store.store_name}</h3>
          <ul className="checkout-lines">
            {store.lines.map((line) => (
              <li key={line.listing_id} data-line={line.listing_id} data-quantity={line.quantity} data-price-cents={line.unit_price_cents ?? undefined}>
                <span>
                  {line.quantity} × {line.title ?? "Item no longer listed"}{" "}
                  <span className="muted">({line.condition ? CONDITION_LABELS[line.condition] : ""}{line.status === "backorder" ? ", backorder: ships when the seller restocks" : ""})</span>
                </span>
                <span className="amount">{formatCents(line.line_total_cents)}</span>
              </li>
            ))}
            <li data-store-shipping-cents={store.shipping_cents}>
              <span>Shipping from {store.store_name}</span>
              <span className="amount">{store.shipping_cents === 0 ? "Free" : formatCents(store.shipping_cents)}</span>
            </li>
          </ul>
          {store.terms ? <ParcelTermsList terms={store.terms} country={quote.country} /> : null}
        </section>
      ))}
      {blocked.length > 0 ? (
        <section aria-label="Cannot be bought now">
          <h3>Cannot be bought now</h3>
          <ul className="checkout-lines">
            {blocked.map((line) => (
              <li key={line.listing_id} data-line={line.listing_id} data-status={line.status}>
                <span>
                  {line.quantity} × {line.title ?? "Item no longer listed"}
                  {line.store_name ? <span className="muted"> (sold by {line.store_name})</span> : null}
                </span>
                <span className="amount">—</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <dl className="checkout-totals">
        <dt>Subtotal</dt>
        <dd data-subtotal-cents={quote.subtotal_cents}>{formatCents(quote.subtotal_cents)}</dd>
        <dt>Shipping</dt>
        <dd data-shipping-cents={quote.shipping_cents}>{formatCents(quote.shipping_cents)}</dd>
        <dt>Total</dt>
        <dd data-total-cents={quote.total_cents}>
          <strong>{formatCents(quote.total_cents)}</strong>
        </dd>
      </dl>
    </section>
  );
}
