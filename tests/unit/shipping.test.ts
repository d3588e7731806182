/**
 * The shipping rule of checkout (lib/orders/shipping.ts): one charge per store, the highest rate
 * of its lines, waived when the store's subtotal reaches that rate's free-shipping threshold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { governingRate, storeShippingCents, type LineRate, type StoreLineForShipping } from "@/lib/orders/shipping";

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
