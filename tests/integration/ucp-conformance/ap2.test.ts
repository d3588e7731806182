/** Port of ap2_test.py: a platform's AP2 mandate on complete, AP2 not being negotiated, is ignored. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-ap2")));
afterAll(() => ucp?.stop());

describe("ap2_test", () => {
  it("test_ap2_mandate_completion", async () => {
    const checkout = await ucp.createCheckout();
    const done = await ucp.complete(checkout.id, ucp.paymentPayload(undefined, "token", { ap2: { checkout_mandate: "header.payload.signature~kb_signature" } }));
    expect(done.status).toBe("completed");
    expect(done.order.id).toBeTruthy();
  });
});
