/** Port of idempotency_test.py: the same key and body replay the first answer; another body with it is 409. */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectUcpError, UcpHarness } from "../../helpers/ucp";

let ucp: UcpHarness;
beforeAll(async () => (ucp = await UcpHarness.start("ucp-idempotency")));
afterAll(() => ucp?.stop());

describe("idempotency_test", () => {
  it("test_idempotency_create", async () => {
    const headers = ucp.headers({ "Idempotency-Key": randomUUID() });
    const payload = ucp.createPayload();
    const first = await ucp.request("POST", "/checkout-sessions", payload, headers);
    const second = await ucp.request("POST", "/checkout-sessions", payload, headers);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.text).toBe(first.text);
    const sessions = await ucp.app.pool.query(`SELECT count(*)::int AS n FROM protocol_checkouts WHERE session_id = $1`, [first.json.id]);
    expect(sessions.rows[0].n).toBe(1);
    expectUcpError(await ucp.request("POST", "/checkout-sessions", { ...payload, currency: "EUR" }, headers), 409, "idempotency_conflict");
  });

  it("test_idempotency_update", async () => {
    const checkout = await ucp.createCheckout();
    const line = checkout.line_items[0];
    const headers = ucp.headers({ "Idempotency-Key": randomUUID() });
    const body = (quantity: number) => ucp.updatePayload(checkout, { line_items: [{ id: line.id, item: { id: line.item.id }, quantity }] });
    const first = await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, body(2), headers);
    const second = await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, body(2), headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expectUcpError(await ucp.request("PUT", `/checkout-sessions/${checkout.id}`, body(3), headers), 409, "idempotency_conflict");
  });

  it("test_idempotency_complete", async () => {
    const checkout = await ucp.createCheckout();
    const headers = ucp.headers({ "Idempotency-Key": randomUUID() });
    const path = `/checkout-sessions/${checkout.id}/complete`;
    const first = await ucp.request("POST", path, ucp.paymentPayload(), headers);
    const second = await ucp.request("POST", path, ucp.paymentPayload(), headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expectUcpError(await ucp.request("POST", path, ucp.paymentPayload("5555555555554444"), headers), 409, "idempotency_conflict");
    const orders = await ucp.app.pool.query(`SELECT count(*)::int AS n FROM orders WHERE checkout_session_id = $1`, [checkout.id]);
    expect(orders.rows[0].n).toBe(1);
  });

  it("test_idempotency_cancel", async () => {
    const checkout = await ucp.createCheckout();
    const headers = ucp.headers({ "Idempotency-Key": randomUUID() });
    const first = await ucp.request("POST", `/checkout-sessions/${checkout.id}/cancel`, undefined, headers);
    const second = await ucp.request("POST", `/checkout-sessions/${checkout.id}/cancel`, undefined, headers);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expect(second.json.status).toBe("canceled");
  });
});
