/** Port of checkout_lifecycle_test.py: create, get, update, cancel and complete, and what a finished checkout refuses. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectUcpError, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-lifecycle")));
afterAll(() => ucp?.stop());

const cancel = (id: string) => ucp.request("POST", `/checkout-sessions/${id}/cancel`);
const completeAgain = (id: string) => ucp.request("POST", `/checkout-sessions/${id}/complete`, ucp.paymentPayload());

describe("checkout_lifecycle_test", () => {
  it("test_create_checkout", async () => {
    const checkout = await ucp.createCheckout();
    expect(checkout.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(checkout.status).toBe("ready_for_complete");
    expect(checkout.ucp).toEqual({ version: "2026-01-11", capabilities: [{ name: "dev.ucp.shopping.checkout", version: "2026-01-11" }, { name: "dev.ucp.shopping.fulfillment", version: "2026-01-11" }] });
  });

  it("test_get_checkout", async () => {
    const checkout = await ucp.createCheckout();
    const read = await ucp.get(checkout.id);
    expect(read.id).toBe(checkout.id);
    expect(read).toEqual(checkout);
  });

  it("test_update_checkout", async () => {
    const checkout = await ucp.createCheckout();
    const line = checkout.line_items[0];
    const updated = await ucp.update(checkout, { line_items: [{ id: line.id, item: { id: line.item.id }, quantity: 2 }] });
    expect(updated.line_items[0].quantity).toBe(2);
  });

  it("test_cancel_checkout", async () => {
    const checkout = await ucp.createCheckout();
    const res = await cancel(checkout.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json.status).toBe("canceled");
  });

  it("test_complete_checkout", async () => {
    const checkout = await ucp.createCheckout();
    const done = await ucp.complete(checkout.id);
    expect(done.status).toBe("completed");
    expect(done.order.id).toBeTruthy();
    expect(done.order.permalink_url).toMatch(/^http/);
    expect(done.orders).toEqual([done.order]);
    expect(done.expires_at).toBeUndefined();
    expect(done.messages).toBeUndefined();
  });

  it("test_cancel_is_idempotent", async () => {
    const checkout = await ucp.createCheckout();
    expect((await cancel(checkout.id)).status).toBe(200);
    expectUcpError(await cancel(checkout.id), 409, "checkout_not_modifiable");
  });

  it("test_cannot_update_canceled_checkout", async () => {
    const checkout = await ucp.createCheckout();
    await cancel(checkout.id);
    const res = await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, ucp.updatePayload(checkout));
    expectUcpError(res, 409, "checkout_not_modifiable");
  });

  it("test_cannot_complete_canceled_checkout", async () => {
    const checkout = await ucp.createCheckout();
    await cancel(checkout.id);
    expectUcpError(await completeAgain(checkout.id), 409, "checkout_not_modifiable");
    const orders = await ucp.app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = $1`, [checkout.id]);
    expect(orders.rows[0].n).toBe(0);
  });

  it("test_complete_is_idempotent", async () => {
    const checkout = await ucp.createCheckout();
    await ucp.complete(checkout.id);
    expectUcpError(await completeAgain(checkout.id), 409, "checkout_not_modifiable");
  });

  it("test_cannot_update_completed_checkout", async () => {
    const checkout = await ucp.createCheckout();
    await ucp.complete(checkout.id);
    expectUcpError(await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, ucp.updatePayload(checkout)), 409, "checkout_not_modifiable");
  });

  it("test_cannot_cancel_completed_checkout", async () => {
    const checkout = await ucp.createCheckout();
    await ucp.complete(checkout.id);
    expectUcpError(await cancel(checkout.id), 409, "checkout_not_modifiable");
  });
});
