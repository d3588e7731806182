import { describe, expect, it } from "vitest";
import { buyBoxWinner, type BuyBoxCandidate } from "./buy-box";

const t0 = new Date("2026-01-01T00:00:00.000Z");
const offer = (over: Partial<BuyBoxCandidate> & { listingId: string }): BuyBoxCandidate => ({
  priceCents: 1000,
  shippingCents: 0,
  condition: "new",
  inStock: true,
  createdAt: t0,
  ...over,
});

describe("buy box (decisions.md)", () => {
  it("is null when no offer is in stock", () => {
    expect(buyBoxWinner([offer({ listingId: "a", inStock: false })])).toBeNull();
    expect(buyBoxWinner([])).toBeNull();
  });

  it("goes to the lowest landed price (price plus cheapest shipping)", () => {
    const winner = buyBoxWinner([
      offer({ listingId: "cheap-price", priceCents: 900, shippingCents: 500 }),
      offer({ listingId: "cheap-landed", priceCents: 1000, shippingCents: 0 }),
    ]);
    expect(winner).toBe("cheap-landed");
  });

  it("prefers new over any used condition, even when used is cheaper", () => {
    for (const condition of ["like_new", "refurbished", "used", "for_parts"] as const) {
      const winner = buyBoxWinner([
        offer({ listingId: "used", condition, priceCents: 100 }),
        offer({ listingId: "new", priceCents: 5000 }),
      ]);
      expect(winner).toBe("new");
    }
  });

  it("picks the cheapest used offer when no new offer is in stock", () => {
    const winner = buyBoxWinner([
      offer({ listingId: "new-out", priceCents: 10, inStock: false }),
      offer({ listingId: "good", condition: "good", priceCents: 700 }),
      offer({ listingId: "used", condition: "used", priceCents: 600 }),
    ]);
    expect(winner).toBe("used");
  });

  it("breaks ties by the earlier listing", () => {
    const winner = buyBoxWinner([
      offer({ listingId: "later", createdAt: new Date(t0.getTime() + 1000) }),
      offer({ listingId: "earlier", createdAt: t0 }),
    ]);
    expect(winner).toBe("earlier");
  });
});
