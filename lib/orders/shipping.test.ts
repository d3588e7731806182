/**
 * The shipping rule of checkout (lib/orders/shipping.ts): one charge per store, the highest rate
 * of its lines, waived when the store's subtotal reaches that rate's free-shipping threshold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { governingRate, parcelTerms, storeShippingCents, type LineRate, type LineTerms, type StoreLineForShipping } from "./shipping";
import { RETURN_WINDOW_DAYS } from "@/lib/schemas/orders";

const rate = fc.option(
  fc.record({ priceCents: fc.integer({ min: 0, max: 100_000 }), freeOverCents: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }) }),
  { nil: null },
);
const line = fc.record({ lineTotalCents: fc.integer({ min: 0, max: 500_000 }), rate });
const lines = fc.array(line, { minLength: 1, maxLength: 20 });

describe("storeShippingCents", () => {
  it("charges the highest rate once, waived at its threshold", () => {
    const l = (total: number, r: LineRate | null): StoreLineForShipping => ({ lineTotalCents: total, rate: r });
    expect(storeShippingCents([l(2000, { priceCents: 500, freeOverCents: 5000 }), l(1500, { priceCents: 700, freeOverCents: null })])).toBe(700);
    expect(storeShippingCents([l(3000, { priceCents: 400, freeOverCents: 3000 })])).toBe(0);
    expect(storeShippingCents([l(2999, { priceCents: 400, freeOverCents: 3000 })])).toBe(400);
    // The highest rate's threshold decides, not a cheaper rate's.
    expect(storeShippingCents([l(6000, { priceCents: 500, freeOverCents: 5000 }), l(100, { priceCents: 800, freeOverCents: 10_000 })])).toBe(800);
    expect(storeShippingCents([l(1000, null), l(1000, null)])).toBe(0);
    expect(storeShippingCents([])).toBe(0);
  });

  it("between rates of equal price, the stricter threshold wins (never free above all)", () => {
    expect(governingRate([{ priceCents: 500, freeOverCents: 1000 }, { priceCents: 500, freeOverCents: null }])).toEqual({ priceCents: 500, freeOverCents: null });
    expect(governingRate([{ priceCents: 500, freeOverCents: 9000 }, { priceCents: 500, freeOverCents: 1000 }])).toEqual({ priceCents: 500, freeOverCents: 9000 });
  });

  it("is either 0 or the highest line rate, never more than one parcel", () => {
    fc.assert(
      fc.property(lines, (ls) => {
        const cents = storeShippingCents(ls);
        const highest = Math.max(0, ...ls.map((l) => l.rate?.priceCents ?? 0));
        expect(cents === 0 || cents === highest).toBe(true);
      }),
    );
  });

  it("does not depend on the order of the lines", () => {
    fc.assert(fc.property(lines, fc.integer(), (ls, seed) => {
      const shuffled = [...ls].sort((a, b) => ((a.lineTotalCents * 31 + seed) % 7) - ((b.lineTotalCents * 31 + seed) % 7));
      expect(storeShippingCents(shuffled)).toBe(storeShippingCents(ls));
    }));
  });

  it("never charges more when the store's subtotal grows", () => {
    fc.assert(
      fc.property(lines, fc.integer({ min: 0, max: 100_000 }), (ls, extra) => {
        const richer = ls.map((l, i) => (i === 0 ? { ...l, lineTotalCents: l.lineTotalCents + extra } : l));
        expect(storeShippingCents(richer)).toBeLessThanOrEqual(storeShippingCents(ls));
      }),
    );
  });
});

describe("parcelTerms: what a parcel's buyer is told (product page, cart, checkout, quotes)", () => {
  const terms = (over: Partial<LineTerms> = {}): LineTerms => ({ priceCents: 499, freeOverCents: 3500, handlingDays: 1, minDays: 3, maxDays: 5, ...over });

  it("waives the rate from the free-over threshold on, not a cent before", () => {
    expect(parcelTerms([{ lineTotalCents: 3499, rate: terms() }])).toMatchObject({ shipping_cents: 499, rate_cents: 499, free_over_cents: 3500 });
    expect(parcelTerms([{ lineTotalCents: 3500, rate: terms() }])).toMatchObject({ shipping_cents: 0, rate_cents: 499, free_over_cents: 3500 });
    expect(parcelTerms([{ lineTotalCents: 3501, rate: terms() }]).shipping_cents).toBe(0);
    // Two lines of one store reach the threshold together.
    expect(parcelTerms([{ lineTotalCents: 2000, rate: terms() }, { lineTotalCents: 1500, rate: terms() }]).shipping_cents).toBe(0);
    expect(parcelTerms([{ lineTotalCents: 1_000_000, rate: terms({ freeOverCents: null }) }])).toMatchObject({ shipping_cents: 499, free_over_cents: null });
  });

  it("charges exactly what checkout charges (storeShippingCents)", () => {
    fc.assert(
      fc.property(lines, (ls) => {
        const withDays = ls.map((l) => ({ lineTotalCents: l.lineTotalCents, rate: l.rate && terms(l.rate) }));
        expect(parcelTerms(withDays).shipping_cents).toBe(storeShippingCents(ls));
      }),
    );
  });

  it("estimates delivery as handling days plus transit days", () => {
    expect(parcelTerms([{ lineTotalCents: 100, rate: terms({ handlingDays: 2, minDays: 3, maxDays: 6 }) }]).delivery).toEqual({ handling_days: 2, min_days: 5, max_days: 8 });
    expect(parcelTerms([{ lineTotalCents: 100, rate: terms({ handlingDays: 0, minDays: 1, maxDays: 1 }) }]).delivery).toEqual({ handling_days: 0, min_days: 1, max_days: 1 });
  });

  it("a parcel arrives with its slowest line", () => {
    const delivery = parcelTerms([
      { lineTotalCents: 100, rate: terms({ handlingDays: 3, minDays: 1, maxDays: 2 }) },
      { lineTotalCents: 100, rate: terms({ handlingDays: 1, minDays: 4, maxDays: 7 }) },
      { lineTotalCents: 100, rate: null },
    ]).delivery;
    expect(delivery).toEqual({ handling_days: 3, min_days: 5, max_days: 8 });
  });

  it("a parcel without any rate ships free with no estimate; every parcel has the return window", () => {
    expect(parcelTerms([{ lineTotalCents: 100, rate: null }])).toEqual({
      shipping_cents: 0,
      rate_cents: null,
      free_over_cents: null,
      delivery: null,
      return_window_days: RETURN_WINDOW_DAYS,
    });
    expect(parcelTerms([{ lineTotalCents: 100, rate: terms() }]).return_window_days).toBe(30);
  });
});
