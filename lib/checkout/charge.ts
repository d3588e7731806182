import { defaultPaymentMethod } from "@/lib/accounts/payment-methods";
import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { logEvent } from "@/lib/log";
import type { Tx } from "./types";
import { cardDigits, defaultProvider, findProvider, passesLuhn, type PaymentProvider, type PaymentSource } from "@/lib/payments";

/**
 * Step "charge", with the compensation that undoes it (`endAttempt`).
 *
 * The charge's reference is stable across a crash (`chargeReference`): a process killed between
 * the approved charge and the commit leaves no order and no record, so the retry of the same
 * checkout charges under the same reference, which a provider honouring references answers with
 * the same charge (the buyer is charged once). A decline, or a charge refunded because the
 * transaction failed, ends its attempt, and the checkout's next attempt charges under a new
 * reference.
 */

/** What pays, and through which provider. */
export interface Payer {
  provider: PaymentProvider;
  source: PaymentSource;
}

const CARD_NUMBER_MAX = 40;

/** A card number typed at checkout (or given as a protocol's card credential), checked. */
export function cardPayer(cardNumber: unknown): Payer {
  const digits = typeof cardNumber === "string" && cardNumber.length <= CARD_NUMBER_MAX ? cardDigits(cardNumber) : null;
  if (!digits || !passesLuhn(digits)) throw new AppError("parameter_invalid", "Enter a valid card number (12 to 19 digits).", "card_number");
  return { provider: defaultProvider(), source: { kind: "card", number: digits } };
}

/** The account's default payment method; 400 `payment_method_missing` when there is none (or no account). */
export async function savedPayer(client: DbClient, userId: string | null): Promise<Payer> {
  const method = userId ? await defaultPaymentMethod(client, userId) : null;
  if (!method) {
    throw new AppError(
      "payment_method_missing",
      userId ? "The account has no default payment method; set one on /account." : "Enter a card number.",
      "payment_method",
    );
  }
  const provider = findProvider(method.provider);
  // A card saved with a provider the marketplace no longer has cannot be charged: declined, as a card would be.
  if (!provider) {
    throw new AppError("payment_declined", `The saved payment method ending in ${method.last4} can no longer be charged here; choose or add another on /account.`, "payment_method");
  }
  return { provider, source: { kind: "saved", provider: method.provider, providerRef: method.provider_ref, last4: method.last4 } };
}

/**
 * The reference of a checkout's charge: its token and how many of its attempts ended before
 * (declined, or refunded; rows of `payment_attempts`). The same on a retry after a crash (nothing
 * was recorded), new after a decline or a refund.
 */
export function chargeReference(checkoutToken: string, generation: number): string {
  return `checkout:${checkoutToken}:${generation}`;
}

/** What the provider answered to a checkout's charge. */
export type Attempt =
  | { reference: string; outcome: "declined" }
  | { reference: string; outcome: "approved"; provider: PaymentProvider; chargeRef: string; amountCents: number; currency: string };

export interface Charged {
  provider: string;
  chargeRef: string;
  last4: string;
}

/**
 * Charges `amountCents` under the checkout's next reference (read under the checkout's lock).
 * `onAnswer` hears the provider's answer before anything else happens, so that the caller can end
 * the attempt if its transaction then fails. A decline is 402 `payment_declined`.
 */
export async function charge(
  tx: Pick<Tx, "paymentAttempt">,
  payer: Payer,
  request: { checkoutToken: string; amountCents: number; currency: string },
  onAnswer: (attempt: Attempt) => void,
): Promise<Charged> {
  const generation = await tx.paymentAttempt.count({ where: { checkoutToken: request.checkoutToken } });
  const reference = chargeReference(request.checkoutToken, generation);
  const { amountCents, currency } = request;
  const answer = await payer.provider.charge({ source: payer.source, amountCents, currency, reference });
  if (answer.status !== "approved") {
    onAnswer({ reference, outcome: "declined" });
    const reason = answer.reason.charAt(0).toLowerCase() + answer.reason.slice(1);
    throw new AppError("payment_declined", `The payment was declined: ${reason} Nothing was charged and no order was placed.`, "payment_method");
  }
  onAnswer({ reference, outcome: "approved", provider: payer.provider, chargeRef: answer.chargeRef, amountCents, currency });
  logEvent("info", "payment charged", { reference, charge_ref: answer.chargeRef, provider: answer.provider, amount_cents: amountCents, currency });
  return { provider: answer.provider, chargeRef: answer.chargeRef, last4: answer.last4.slice(-4) };
}

/**
 * Ends an attempt whose transaction failed (it has rolled back): records it in `payment_attempts`
 * so that the checkout's next attempt charges under a new reference, and refunds an approved
 * charge (reference `refund:<charge ref>`, one per refunded charge). Never throws: the checkout's
 * own error is what the caller gets.
 *
 * An approved charge is refunded only once its attempt is recorded: were the record missing, the
 * next attempt would reuse the reference and the provider would answer it with the refunded
 * charge. When the record cannot be written (the database is unreachable), the charge is left as
 * a crash leaves it, and logged (`payment not refunded: attempt not recorded`, with `charge_ref`):
 * a retry of the checkout reuses the charge; without one, the operator refunds it. A decline that
 * cannot be recorded is logged (`payment decline not recorded`); the next attempt reuses the
 * declined reference, which a provider remembering declines answers with the decline (a new
 * Idempotency-Key, or a new checkout page, starts afresh).
 */
export async function endAttempt(client: DbClient, checkoutToken: string, attempt: Attempt): Promise<void> {
  if (attempt.outcome === "approved") {
    // A commit can succeed and still be reported as failed (its connection lost on the way back):
    // then the order exists and the charge pays it (orders split by store carry no token of their
    // own: their session does).
    const placed = await client.order.findFirst({ where: { paymentRef: attempt.chargeRef, OR: [{ checkoutToken }, { checkoutSession: { token: checkoutToken } }] }, select: { id: true } })
      .catch(() => null);
    if (placed) return;
  }
  try {
    await client.paymentAttempt.create({
      data: { checkoutToken, reference: attempt.reference, outcome: attempt.outcome === "declined" ? "declined" : "refunded" },
    });
  } catch (err) {
    if (attempt.outcome === "declined") logEvent("error", "payment decline not recorded", { reference: attempt.reference, error: String(err) });
    else logEvent("error", "payment not refunded: attempt not recorded", { reference: attempt.reference, charge_ref: attempt.chargeRef, error: String(err) });
    return;
  }
  if (attempt.outcome === "declined") return;
  const reference = `refund:${attempt.chargeRef}`;
  try {
    await attempt.provider.refund({ chargeRef: attempt.chargeRef, amountCents: attempt.amountCents, currency: attempt.currency, reference });
  } catch (err) {
    logEvent("error", "payment refund failed", { reference: attempt.reference, charge_ref: attempt.chargeRef, refund_reference: reference, error: String(err) });
  }
}
