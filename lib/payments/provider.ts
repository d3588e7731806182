/**
 * The payment provider interface: what checkout and refunds need from a payment service, and
 * nothing more, so that a real provider can be added without touching checkout
 * (decisions.md "Orders, checkout and returns"). One built-in provider: the test card
 * (`./test-provider.ts`).
 *
 * Card data never reaches the database: a provider receives a typed card number only for the
 * one charge and answers with its own reference and the last 4 digits.
 */

/** What pays: a payment method saved on the account, or a card number typed at checkout. */
export type PaymentSource =
  | { kind: "saved"; provider: string; providerRef: string; last4: string }
  | { kind: "card"; number: string };

export interface ChargeRequest {
  source: PaymentSource;
  amountCents: number;
  currency: string;
  /**
   * Ours, `checkout:<checkout token>:<generation>`: a provider that sees it twice charges once,
   * and answers the second request with the first charge. The same for a retry of a checkout cut
   * short by a crash (so the buyer is charged once); new after a decline or a refund, whose
   * attempts checkout records (`payment_attempts`, lib/checkout/charge.ts).
   */
  reference: string;
}

export type ChargeResult =
  | { status: "approved"; provider: string; chargeRef: string; last4: string }
  | { status: "declined"; reason: string };

export interface RefundRequest {
  chargeRef: string;
  amountCents: number;
  currency: string;
  /** Ours, unique per refund: a provider that sees it twice refunds once. */
  reference: string;
}

export interface PaymentProvider {
  /** Stored with each charge and each saved method (`payment_methods.provider`). */
  readonly id: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<{ refundRef: string }>;
  /**
   * A test provider's card numbers that it approves and declines, which checkout shows while it
   * charges typed cards; a real provider has none.
   */
  readonly testCards?: { approved: string; declined: string };
}
