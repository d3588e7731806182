/** Port of invalid_input_test.py. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { total, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-invalid-input")));
afterAll(() => ucp?.stop());

const NO_ORDER_WRITES =
  "not applicable: UCP 2026-01-11 defines no way for a platform to change an order (orders flow from the business to the platform); the suite's PUT /orders/{id} is its sample server's own";

describe("invalid_input_test", () => {
  it.skip(`test_invalid_adjustment_status (${NO_ORDER_WRITES})`, () => {});

  it("test_unknown_discount_code", async () => {
    const checkout = await ucp.createCheckout();
    const updated = await ucp.update(checkout, { discounts: { codes: ["INVALID_CODE_123"] } });
    expect(total(updated.totals, "discount")).toBeUndefined();
    expect(total(updated.totals, "total")).toBe(3500);
  });

  it.skip(`test_malformed_adjustment_payload (${NO_ORDER_WRITES})`, () => {});
});
