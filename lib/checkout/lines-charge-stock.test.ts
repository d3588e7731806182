/**
 * The small rules of the other steps: explicit lines (lib/checkout/lines.ts), the charge and its
 * reference (charge.ts), and the stock adjustments of what an order took (stock.ts).
 */
import { describe, expect, it, vi } from "vitest";
import { charge, chargeReference, cardPayer, type Attempt } from "./charge";
import { checkExplicitLines, EXPLICIT_LINES_MAX, sameLines } from "./lines";
import { adjustmentsOf, soldOut, type Taken } from "./stock";
import { testProvider } from "@/lib/payments/test-provider";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("checkExplicitLines", () => {
  it("1 to 20 lines, each a UUID and a quantity 1-99, each listing once; ids lower-cased", () => {
    expect(checkExplicitLines([{ listing_id: id(1).toUpperCase(), quantity: 99 }])).toEqual([{ listing_id: id(1), quantity: 99, seen_price_cents: null }]);
    const refused = (lines: unknown) => {
      try {
        checkExplicitLines(lines as never);
      } catch (err) {
        return [(err as { code: string }).code, (err as { param: string }).param];
      }
      return null;
    };
    expect(refused([])).toEqual(["parameter_missing", "lines"]);
    expect(refused(Array.from({ length: EXPLICIT_LINES_MAX + 1 }, (_, i) => ({ listing_id: id(i), quantity: 1 })))).toEqual(["parameter_invalid", "lines"]);
    expect(refused([{ listing_id: "x", quantity: 1 }])).toEqual(["parameter_invalid", "lines[0].listing_id"]);
    expect(refused([{ listing_id: id(1), quantity: 0 }])).toEqual(["parameter_invalid", "lines[0].quantity"]);
    expect(refused([{ listing_id: id(1), quantity: 1.5 }])).toEqual(["parameter_invalid", "lines[0].quantity"]);
    expect(refused([{ listing_id: id(1), quantity: 1 }, { listing_id: id(1).toUpperCase(), quantity: 2 }])).toEqual(["parameter_invalid", "lines[1].listing_id"]);
    expect(refused("lines")).toEqual(["parameter_missing", "lines"]);
  });

  it("sameLines compares listings and quantities in any order and case", () => {
    expect(sameLines([{ listing_id: id(1), quantity: 1 }, { listing_id: id(2), quantity: 2 }], [{ listing_id: id(2).toUpperCase(), quantity: 2 }, { listing_id: id(1), quantity: 1 }])).toBe(true);
    expect(sameLines([{ listing_id: id(1), quantity: 1 }], [{ listing_id: id(1), quantity: 2 }])).toBe(false);
  });
});

describe("charge", () => {
  const tx = (ended: number) => ({ paymentAttempt: { count: vi.fn(async () => ended) } }) as never;

  it("charges under the checkout's next reference; the answer is heard before anything else", async () => {
    const heard: Attempt[] = [];
    const charged = await charge(tx(2), cardPayer("4242 4242 4242 4242"), { checkoutToken: "tok", amountCents: 1234, currency: "USD" }, (a) => heard.push(a));
    expect(charged).toMatchObject({ provider: "test", last4: "4242" });
    expect(heard).toMatchObject([{ outcome: "approved", reference: chargeReference("tok", 2), chargeRef: charged.chargeRef, amountCents: 1234 }]);
    expect(chargeReference("tok", 2)).toBe("checkout:tok:2");
  });

  it("a decline is 402 payment_declined, heard as declined", async () => {
    const heard: Attempt[] = [];
    const declined = charge(tx(0), cardPayer("4000000000000002"), { checkoutToken: "tok", amountCents: 1, currency: "USD" }, (a) => heard.push(a));
    await expect(declined).rejects.toMatchObject({ code: "payment_declined", status: 402, param: "payment_method" });
    expect(heard).toEqual([{ reference: "checkout:tok:0", outcome: "declined" }]);
  });

  it("a card number that is not one is refused before any provider sees it", () => {
    const spy = vi.spyOn(testProvider, "charge");
    for (const bad of ["4242", "4242424242424241", "x".repeat(41), 4242424242424242, null]) {
      expect(() => cardPayer(bad)).toThrow(expect.objectContaining({ code: "parameter_invalid", param: "card_number" }));
    }
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });
});

const taken = (n: number, before: number, after: number, allow_backorder = false): Taken => ({ listing_id: id(n), store_id: id(9), before, after, allow_backorder });

describe("adjustmentsOf", () => {
  it("one adjustment per listing taken, named after the order", () => {
    expect(adjustmentsOf([taken(1, 5, 2), taken(2, 0, 0)], "M-10042")).toEqual([
      { listingId: id(1), delta: -3, quantityAfter: 2, reason: "order M-10042" },
      { listingId: id(2), delta: 0, quantityAfter: 0, reason: "order M-10042" },
    ]);
  });
});

describe("soldOut", () => {
  it("the listings whose last units were taken, unless they allow backorders", () => {
    expect(soldOut([taken(1, 5, 2), taken(2, 3, 0), taken(3, 0, 0, true), taken(4, 2, 0, true), taken(5, 0, 0)])).toEqual([{ storeId: id(9), id: id(2) }]);
  });
});
