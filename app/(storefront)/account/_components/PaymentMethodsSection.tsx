import type { SavedPaymentMethod } from "@/lib/accounts/payment-methods";
import type { FormFlash } from "@/lib/http/flash";
import { FormState } from "@/app/_components/forms";

function methodName(method: SavedPaymentMethod): string {
  return `${method.brand} ending in ${method.last4}`;
}

/**
 * "Payment method" on /account: the saved methods (the default first) and saving the test card.
 * No card number is typed here or stored anywhere: a saved method is the payment provider's
 * reference and what may be shown (brand, last 4 digits).
 */
export function PaymentMethodsSection({
  methods,
  flash,
  testCardSaved,
}: {
  methods: SavedPaymentMethod[];
  flash: FormFlash | null;
  testCardSaved: boolean;
}) {
  const state = new FormState("payment-method", flash);
  return (
    <section aria-labelledby="payment-heading" id="payment-methods" className="panel">
      <h2 id="payment-heading">Payment method</h2>
      {state.alert()}
      {methods.length === 0 ? (
        <p className="muted">No payment method saved yet. The first one you save becomes your default: checkout charges it.</p>
      ) : (
        <ul className="saved-list">
          {methods.map((method) => (
            <li key={method.id} data-payment-method-id={method.id} data-default={method.is_default ? "true" : undefined}>
              <p>{methodName(method)}</p>
              {method.is_default ? <p className="badge">Default</p> : null}
              <div className="saved-actions">
                {method.is_default ? null : (
                  <form method="post" action={`/account/payment-methods/${method.id}/default`} className="inline-form" aria-label={`Make default: ${methodName(method)}`}>
                    <button type="submit" className="secondary">
                      Make default
                    </button>
                  </form>
                )}
                <form method="post" action={`/account/payment-methods/${method.id}/delete`} className="inline-form" aria-label={`Remove: ${methodName(method)}`}>
                  <button type="submit" className="secondary">
                    Remove
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
      {testCardSaved ? null : (
        <form method="post" action="/account/payment-methods/test-card" className="stacked-form" aria-labelledby="test-card-heading">
          <h3 id="test-card-heading">Save the test card</h3>
          <p className="muted">
            This marketplace runs with a built-in test payment provider. Its test card is always approved, so you can try
            checkout without a real card. You never type a card number here.
          </p>
          <button type="submit">Save the test card</button>
        </form>
      )}
    </section>
  );
}
