/** Port of validation_test.py: what cannot be bought is refused with a message naming it, and nothing is written. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DECLINED_CARD, expectUcpError, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-validation")));
afterAll(() => ucp?.stop());

const sessions = async () => (await ucp.app.pool.query(`SELECT count(*)::int AS n FROM checkout_sessions`)).rows[0].n as number;

describe("validation_test", () => {
  it("test_out_of_stock", async () => {
    const before = await sessions();
    const res = await ucp.request("POST", "/checkout-sessions", ucp.createPayload({ itemId: ucp.fixtures.outOfStock.id }));
    expectUcpError(res, 400, "out_of_stock");
    expect(res.json.detail).toContain("Insufficient stock");
    expect(res.json.messages[0].path).toBe("$.line_items[0]");
    expect(await sessions()).toBe(before);
  });

  it("test_update_inventory_validation", async () => {
    const [listing] = (await ucp.app.pool.query(`UPDATE listings SET quantity = 5 WHERE id = $1 RETURNING id`, [ucp.fixtures.third.id])).rows;
    const checkout = await ucp.createCheckout({ itemId: listing.id });
    const line = checkout.line_items[0];
    const res = await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, ucp.updatePayload(checkout, { line_items: [{ id: line.id, item: { id: line.item.id }, quantity: 10 }] }));
    expectUcpError(res, 400, "out_of_stock");
    expect(res.json.detail.toLowerCase()).toContain("stock");
    expect((await ucp.get(checkout.id)).line_items[0].quantity).toBe(1);
  });

  it("test_product_not_found", async () => {
    const res = await ucp.request("POST", "/checkout-sessions", ucp.createPayload({ itemId: ucp.fixtures.nonExistent.id }));
    expectUcpError(res, 400, "not_found");
    expect(res.json.detail.toLowerCase()).toContain("not found");
    const junk = await ucp.request("POST", "/checkout-sessions", ucp.createPayload({ itemId: "pink_wumpus" }));
    expectUcpError(junk, 400, "not_found");
  });

  it("test_payment_failure", async () => {
    const checkout = await ucp.createCheckout();
    const res = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, ucp.paymentPayload(DECLINED_CARD));
    expectUcpError(res, 402, "payment_declined");
    const after = await ucp.get(checkout.id);
    expect(after.status).toBe("ready_for_complete");
    const orders = await ucp.app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = $1`, [checkout.id]);
    expect(orders.rows[0].n).toBe(0);
  });

  it("test_complete_without_fulfillment", async () => {
    const checkout = await ucp.createCheckout({ fulfillment: false });
    const res = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, ucp.paymentPayload());
    expectUcpError(res, 400, "missing");
    expect(res.json.detail).toContain("Fulfillment address and option must be selected");
  });

  it("test_structured_error_messages", async () => {
    const payload = ucp.createPayload({ itemId: ucp.fixtures.outOfStock.id });
    payload.line_items.push({ item: { id: ucp.fixtures.nonExistent.id, title: "x" }, quantity: 1 }, { item: { id: ucp.fixtures.item.id, title: "x" }, quantity: 1 });
    const res = await ucp.request("POST", "/checkout-sessions", payload);
    expectUcpError(res, 400);
    expect(res.json.detail).toContain("Insufficient stock");
    // Every line that cannot be bought, at once.
    expect(res.json.messages.map((m: any) => [m.code, m.path])).toEqual([
      ["out_of_stock", "$.line_items[0]"],
      ["not_found", "$.line_items[1].item.id"],
    ]);
  });
});
