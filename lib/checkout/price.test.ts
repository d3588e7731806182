/**
 * Step "price the lines" (lib/checkout/price.ts): how each line stands, each store's part and
 * shipping, the totals over what can be bought, what changed, and the refusal naming a line.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineRefusal, lineStatus, priceQuote, quoteOfOrders, type OfferRow } from "./price";

let seq = 0;
function row(overrides: Partial<OfferRow> = {}): OfferRow {
  const position = overrides.position ?? seq++;
  return {
    position,
    listing_id: `00000000-0000-4000-8000-${String(position).padStart(12, "0")}`,
    quantity: 1,
    seen_price_cents: null,
    found: true,
    price_cents: 1000,
    currency: "USD",
    condition: "new",
    stock: 10,
    allow_backorder: false,
    listed: true,
    store_id: "store-a",
    store_slug: "a",
    store_name: "Store A",
    product_slug: "thing",
    product_title: "Thing",
    rate_price_cents: null,
    rate_free_over_cents: null,
    rate_handling_days: null,
    rate_min_days: null,
    rate_max_days: null,
    ...overrides,
  };
}

describe("lineStatus", () => {
  it("in stock, backorder, short of stock, sold out, unavailable", () => {
    expect(lineStatus(row({ stock: 2, quantity: 2 }))).toBe("in_stock");
    expect(lineStatus(row({ stock: 0, quantity: 2, allow_backorder: true }))).toBe("backorder");
    expect(lineStatus(row({ stock: 1, quantity: 2 }))).toBe("short_of_stock");
    expect(lineStatus(row({ stock: 0, quantity: 1 }))).toBe("sold_out");
    expect(lineStatus(row({ listed: false }))).toBe("unavailable");
    expect(lineStatus(row({ found: false, listed: false, price_cents: null, stock: null }))).toBe("unavailable");
  });
});

describe("priceQuote", () => {
  it("groups purchasable lines by store in order of first appearance, ships once per store, totals what can be bought", () => {
    const quote = priceQuote(
      [
        row({ position: 0, store_id: "b", store_slug: "b", store_name: "B", price_cents: 2000, quantity: 2, rate_price_cents: 500, rate_free_over_cents: null }),
        row({ position: 1, store_id: "a", store_slug: "a", store_name: "A", price_cents: 300 }),
        row({ position: 2, store_id: "b", store_slug: "b", store_name: "B", price_cents: 100, rate_price_cents: 700, rate_free_over_cents: null }),
        row({ position: 3, store_id: "c", store_slug: "c", store_name: "C", stock: 0 }),
      ],
      "US",
    );
    expect(quote.stores.map((s) => [s.store_slug, s.lines.map((l) => l.position), s.subtotal_cents, s.shipping_cents])).toEqual([
      ["b", [0, 2], 4100, 700],
      ["a", [1], 300, 0],
    ]);
    expect([quote.subtotal_cents, quote.shipping_cents, quote.total_cents, quote.ready, quote.country]).toEqual([4400, 700, 5100, false, "US"]);
    expect(quote.changes).toEqual([{ position: 3, listing_id: quote.lines[3]!.listing_id, title: "Thing", kind: "sold_out" }]);
  });

  it("each store's parcel carries its terms: the same shipping, the threshold, the estimate (handling + transit)", () => {
    const quote = priceQuote(
      [
        row({ position: 0, price_cents: 2000, rate_price_cents: 500, rate_free_over_cents: 5000, rate_handling_days: 2, rate_min_days: 3, rate_max_days: 5 }),
        row({ position: 1, store_id: "b", store_slug: "b", store_name: "B", price_cents: 300 }),
      ],
      "US",
    );
    expect(quote.stores.map((s) => [s.store_slug, s.shipping_cents, s.terms])).toEqual([
      ["a", 500, { shipping_cents: 500, rate_cents: 500, free_over_cents: 5000, delivery: { handling_days: 2, min_days: 5, max_days: 7 }, return_window_days: 30 }],
      ["b", 0, { shipping_cents: 0, rate_cents: null, free_over_cents: null, delivery: null, return_window_days: 30 }],
    ]);
  });

  it("a price that moved since the cart showed it is a change, and the line still counts", () => {
    const quote = priceQuote([row({ position: 0, seen_price_cents: 900, price_cents: 1000 })], "US");
    expect(quote.lines[0]!.previous_price_cents).toBe(900);
    expect(quote.changes.map((c) => [c.kind, c.previous_price_cents, c.price_cents])).toEqual([["price_changed", 900, 1000]]);
    expect([quote.total_cents, quote.ready]).toEqual([1000, true]);
  });

  it("no lines: nothing to buy, not ready, USD", () => {
    expect(priceQuote([], "DE")).toMatchObject({ lines: [], stores: [], total_cents: 0, ready: false, currency: "USD", country: "DE" });
  });

  it("the total is always the stores' subtotals plus their shipping, and only purchasable lines count", () => {
    const arbitraryRow = fc.record({
      store: fc.constantFrom("a", "b", "c"),
      price: fc.integer({ min: 0, max: 100_000 }),
      quantity: fc.integer({ min: 1, max: 99 }),
      stock: fc.integer({ min: 0, max: 100 }),
      rate: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(arbitraryRow, { maxLength: 20 }), (specs) => {
        const quote = priceQuote(
          specs.map((s, i) => row({ position: i, store_id: s.store, store_slug: s.store, store_name: s.store, price_cents: s.price, quantity: s.quantity, stock: s.stock, rate_price_cents: s.rate })),
          "US",
        );
        const bought = quote.lines.filter((l) => l.purchasable);
        expect(quote.subtotal_cents).toBe(bought.reduce((sum, l) => sum + l.line_total_cents, 0));
        expect(quote.total_cents).toBe(quote.stores.reduce((sum, s) => sum + s.subtotal_cents + s.shipping_cents, 0));
        expect(quote.stores.flatMap((s) => s.lines).length).toBe(bought.length);
        expect(quote.ready).toBe(quote.lines.length > 0 && bought.length === quote.lines.length);
      }),
    );
  });
});

describe("lineRefusal", () => {
  it("names the line as lines[position] and carries its listing id", () => {
    const base = { position: 4, listing_id: "l-1", title: "Lamp", quantity: 3 };
    const short = lineRefusal({ ...base, status: "short_of_stock" });
    expect([short.code, short.status, short.param, short.extra]).toEqual(["insufficient_stock", 409, "lines[4]", { listing_id: "l-1" }]);
    expect(short.message).toBe("'Lamp' does not have 3 in stock any more; lower the quantity.");
    expect(lineRefusal({ ...base, status: "sold_out" }).message).toBe("'Lamp' sold out.");
    const gone = lineRefusal({ ...base, title: null, status: "unavailable" });
    expect([gone.code, gone.message]).toEqual(["listing_unavailable", "An item can no longer be bought."]);
  });
});

describe("quoteOfOrders", () => {
  it("a completed session's quote: the lines at the prices paid, by store in line order, shipping as charged", () => {
    const line = (position: number, storeSlug: string, unit: number, quantity: number) => ({
      position,
      listingId: `l${position}`,
      productSlug: "p",
      title: "T",
      storeSlug,
      condition: "new" as const,
      quantity,
      unitPriceCents: unit,
      lineTotalCents: unit * quantity,
    });
    const quote = quoteOfOrders(
      [
        {
          currency: "USD",
          shippingAddress: { country: "US" },
          parts: [
            { storeId: "s2", shippingCents: 599, lines: [line(1, "two", 2000, 2)] },
            { storeId: "s1", shippingCents: 0, lines: [line(2, "one", 300, 1), line(0, "one", 1000, 1)] },
          ],
        },
      ],
      new Map([
        ["s1", "One"],
        ["s2", "Two"],
      ]),
    );
    expect(quote.lines.map((l) => l.position)).toEqual([0, 1, 2]);
    expect(quote.stores.map((s) => [s.store_name, s.subtotal_cents, s.shipping_cents])).toEqual([
      ["One", 1300, 0],
      ["Two", 4000, 599],
    ]);
    expect(quote.total_cents).toBe(5899);
  });
});
