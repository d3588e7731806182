/** Port of card_credential_test.py: a card credential (its number) pays, and is never echoed. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GOOD_CARD, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-card-credential")));
afterAll(() => ucp?.stop());

describe("card_credential_test", () => {
  it("test_card_credential_payment", async () => {
    const checkout = await ucp.createCheckout();
    const res = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, ucp.paymentPayload(GOOD_CARD, "card"));
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe("completed");
    expect(res.text).not.toContain(GOOD_CARD);
    const stored = await ucp.app.pool.query(`SELECT payment_last4 FROM orders WHERE checkout_session_id = $1`, [checkout.id]);
    expect(stored.rows.map((r) => r.payment_last4)).toEqual(["4242"]);
  });
});
