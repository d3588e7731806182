/**
 * Step "check the agent's limits" (lib/checkout/limits.ts): once the order is priced, the
 * per-order limit, then what is left of the monthly limit, then the token's `checkout` scope.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { agentTotalRefusal } from "./limits";

const limits = { perOrderLimitCents: 5000, monthlyLimitCents: 20_000, spentCents: 16_000 };

describe("agentTotalRefusal", () => {
  it("checks the per-order limit, then the monthly limit, then the scope, in that order", () => {
    expect(agentTotalRefusal(5001, limits, [])?.code).toBe("per_order_limit_exceeded");
    expect(agentTotalRefusal(4001, limits, [])?.code).toBe("monthly_limit_exceeded");
    expect(agentTotalRefusal(4000, limits, ["cart:write"])?.code).toBe("scope_missing");
    expect(agentTotalRefusal(4000, limits, ["checkout"])).toBeNull();
  });

  it("says what is left this month, and names the scope a client must step up to", () => {
    expect(agentTotalRefusal(4001, limits, ["checkout"])!.message).toContain("$40.00 of $200.00 left this month");
    const scope = agentTotalRefusal(1, limits, [])!;
    expect([scope.status, scope.requiredScopes]).toEqual([403, ["checkout"]]);
  });

  it("a total at both limits passes; spend past the limit leaves nothing", () => {
    expect(agentTotalRefusal(5000, { ...limits, spentCents: 15_000 }, ["checkout"])).toBeNull();
    expect(agentTotalRefusal(1, { ...limits, spentCents: 25_000 }, ["checkout"])!.message).toContain("$0.00 of $200.00");
  });

  it("never lets spend plus the total pass the monthly limit, nor a total pass the per-order limit", () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000), (total, perOrder, monthly, spent) => {
        const passed = agentTotalRefusal(total, { perOrderLimitCents: perOrder, monthlyLimitCents: monthly, spentCents: spent }, ["checkout"]) === null;
        expect(passed).toBe(total <= perOrder && spent + total <= monthly);
      }),
    );
  });
});
