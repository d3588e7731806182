/** Port of binding_test.py: a token credential bound to the checkout completes it; bound to another, it does not. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectUcpError, GOOD_CARD, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-binding")));
afterAll(() => ucp?.stop());

describe("binding_test", () => {
  it("test_token_binding_completion", async () => {
    const checkout = await ucp.createCheckout();
    const bound = (checkoutId: string) => {
      const payload = ucp.paymentPayload(GOOD_CARD, "token");
      (payload.payment_data.credential as Record<string, unknown>).binding = { checkout_id: checkoutId, identity: { access_token: "user_access_token" } };
      return payload;
    };
    const other = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, bound("another-checkout"));
    expectUcpError(other, 400, "invalid");
    expect(other.json.messages[0].path).toBe("$.payment_data.credential.binding.checkout_id");
    const done = await ucp.complete(checkout.id, bound(checkout.id));
    expect(done.status).toBe("completed");
  });
});
