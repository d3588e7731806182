import type { ConditionValue } from "@/lib/schemas/catalog";

export interface BuyBoxCandidate {
  listingId: string;
  priceCents: number;
  /** The listing template's US standard rate, else its `*` standard rate (0 when it has neither). */
  shippingCents: number;
  condition: ConditionValue;
  inStock: boolean;
  createdAt: Date;
}

/**
 * Buy box: among in-stock offers, `new` preferred over any used condition, then the lowest
 * landed price (price + the US, else `*`, standard rate), then the earlier listing. Null when none is in stock.
 */
export function buyBoxWinner(offers: BuyBoxCandidate[]): string | null {
  let best: BuyBoxCandidate | null = null;
  for (const offer of offers) {
    if (!offer.inStock) continue;
    if (best === null || beats(offer, best)) best = offer;
  }
  return best?.listingId ?? null;
}

function beats(a: BuyBoxCandidate, b: BuyBoxCandidate): boolean {
  const aNew = a.condition === "new";
  const bNew = b.condition === "new";
  if (aNew !== bNew) return aNew;
  const landed = a.priceCents + a.shippingCents - (b.priceCents + b.shippingCents);
  if (landed !== 0) return landed < 0;
  const age = a.createdAt.getTime() - b.createdAt.getTime();
  if (age !== 0) return age < 0;
  return a.listingId < b.listingId;
}
