/** Port of invalid_input_test.py. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_ORDER_WRITES, total, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-invalid-input")));
afterAll(() => ucp?.stop());

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
