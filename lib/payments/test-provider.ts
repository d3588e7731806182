import { createHash } from "node:crypto";
import type { ChargeRequest, ChargeResult, PaymentProvider, RefundRequest } from "./provider";

/** The saved test card (decisions.md): always approved. */
export const TEST_CARD = { provider: "test", providerRef: "test_card", brand: "Test card", last4: "4242" } as const;

/** Digits of a typed card number; spaces and dashes are ignored. Null when it is not 12-19 digits. */
export function cardDigits(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, "");
  return /^[0-9]{12,19}$/.test(digits) ? digits : null;
}

/** The Luhn check every card number passes. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const ref = (prefix: string, reference: string) => `${prefix}_${createHash("sha256").update(reference).digest("hex").slice(0, 24)}`;

/**
 * The built-in test provider: a typed card number is approved when it is 12-19 digits passing the
 * Luhn check, unless it ends in `0002`; a saved card is approved unless it ends in `0002` too (the
 * test card `4242` always is), so a holder's declined default card can be tried. Charges and
 * refunds are references derived from ours, so a repeated request gets the same answer.
 */
export const testProvider: PaymentProvider = {
  id: TEST_CARD.provider,
  // Both pass the Luhn check; the second ends in 0002.
  testCards: { approved: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" },

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    if (request.source.kind === "saved") {
      if (request.source.provider !== TEST_CARD.provider) return { status: "declined", reason: "This payment method belongs to another provider." };
      if (request.source.last4 === "0002") return { status: "declined", reason: "The card was declined." };
      return { status: "approved", provider: TEST_CARD.provider, chargeRef: ref("ch", request.reference), last4: request.source.last4 };
    }
    const digits = cardDigits(request.source.number);
    if (!digits || !passesLuhn(digits)) return { status: "declined", reason: "The card number is not valid." };
    if (digits.endsWith("0002")) return { status: "declined", reason: "The card was declined." };
    return { status: "approved", provider: TEST_CARD.provider, chargeRef: ref("ch", request.reference), last4: digits.slice(-4) };
  },

  async refund(request: RefundRequest) {
    return { refundRef: ref("re", request.reference) };
  },
};
