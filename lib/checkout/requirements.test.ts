/**
 * What a checkout session still needs (lib/checkout/requirements.ts): every requirement at once,
 * and the state they leave it in.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { priceQuote, type OfferRow } from "./price";
import { openStatus, requirementsOf, type SessionFacts } from "./requirements";

function offer(position: number, stock: number): OfferRow {
  return {
    position,
    listing_id: `00000000-0000-4000-8000-${String(position).padStart(12, "0")}`,
    quantity: 1,
    seen_price_cents: null,
    found: true,
    price_cents: 2500,
    currency: "USD",
    condition: "new",
    stock,
    allow_backorder: false,
    listed: true,
    store_id: "s",
    store_slug: "s",
    store_name: "S",
    product_slug: "p",
    product_title: "P",
    rate_price_cents: null,
    rate_free_over_cents: null,
    rate_handling_days: null,
    rate_min_days: null,
    rate_max_days: null,
  };
}

const complete: SessionFacts = {
  quote: priceQuote([offer(0, 5)], "US"),
  accountHolder: false,
  email: "a@example.com",
  hasShippingAddress: true,
  payment: { kind: "card" },
  agent: null,
};

describe("requirementsOf", () => {
  it("nothing missing: none, ready to complete", () => {
    expect(requirementsOf(complete)).toEqual([]);
    expect(openStatus([])).toBe("ready_for_complete");
  });

  it("everything missing: every requirement at once, in a stable order", () => {
    const all = requirementsOf({ ...complete, quote: priceQuote([offer(0, 0), offer(1, 3), offer(2, 0)], "US"), email: null, hasShippingAddress: false, payment: null });
    expect(all.map((r) => [r.code, r.path, r.severity])).toEqual([
      ["insufficient_stock", "lines[0]", "recoverable"],
      ["insufficient_stock", "lines[2]", "recoverable"],
      ["parameter_missing", "buyer.email", "recoverable"],
      ["shipping_address_missing", "shipping_address", "recoverable"],
      ["payment_method_missing", "payment", "recoverable"],
    ]);
    expect(openStatus(all)).toBe("incomplete");
  });

  it("no lines, and an account holder without a default payment method", () => {
    const reqs = requirementsOf({ ...complete, quote: priceQuote([], "US"), accountHolder: true, email: null, payment: { kind: "saved", available: false } });
    expect(reqs.map((r) => r.code)).toEqual(["cart_empty", "payment_method_missing"]);
    expect(reqs[1]!.message).toContain("/account");
  });

  it("an agent's session: the marketplace switch is unrecoverable; the holder's switch and limits need the holder", () => {
    const off = requirementsOf({ ...complete, agent: { marketplace: "off" } });
    expect(off.map((r) => [r.code, r.severity])).toEqual([["agentic_checkout_disabled", "unrecoverable"]]);
    expect(openStatus(off)).toBe("incomplete");
    const holderOff = requirementsOf({ ...complete, agent: { marketplace: "on", holder: "off" } });
    expect(holderOff.map((r) => [r.code, r.severity])).toEqual([["agentic_purchasing_off", "requires_buyer_input"]]);
    expect(openStatus(holderOff)).toBe("requires_escalation");
    const limits = { marketplace: "on", holder: "on", perOrderLimitCents: 2000, monthlyLimitCents: 10_000, spentCents: 0 } as const;
    expect(requirementsOf({ ...complete, agent: limits }).map((r) => r.code)).toEqual(["per_order_limit_exceeded"]);
    expect(requirementsOf({ ...complete, agent: { ...limits, perOrderLimitCents: 3000, spentCents: 9000 } }).map((r) => r.code)).toEqual(["monthly_limit_exceeded"]);
    expect(requirementsOf({ ...complete, agent: { ...limits, perOrderLimitCents: 3000 } })).toEqual([]);
  });

  it("one requirement per defect, whatever the combination", () => {
    fc.assert(
      fc.property(fc.array(fc.nat(3), { minLength: 1, maxLength: 8 }), fc.boolean(), fc.boolean(), fc.boolean(), (stocks, email, address, payment) => {
        const reqs = requirementsOf({ ...complete, quote: priceQuote(stocks.map((s, i) => offer(i, s)), "US"), email: email ? "a@example.com" : null, hasShippingAddress: address, payment: payment ? { kind: "card" } : null });
        const defects = stocks.filter((s) => s === 0).length + Number(!email) + Number(!address) + Number(!payment);
        expect(reqs).toHaveLength(defects);
        expect(openStatus(reqs)).toBe(defects === 0 ? "ready_for_complete" : "incomplete");
      }),
    );
  });
});
