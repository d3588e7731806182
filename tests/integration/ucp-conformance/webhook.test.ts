/**
 * Port of webhook_test.py: completing a checkout sends the platform an order event, shipping sends
 * another; the events carry the order's destination. The platform is a fake one on loopback
 * (tests/helpers/platform.ts) whose profile names its receiver; the app reaches it with
 * WEBHOOKS_ALLOW_LOOPBACK=on. The suite's sample server sends `{ event_type, checkout_id, order }`;
 * UCP 2026-01-11 (order.md, rest.openapi.json `order_event_webhook`) sends the order itself with
 * `event_id` and `created_time`, which is what these ports check. Shipping is the seller's (the
 * suite's `/testing/simulate-shipping` hook is its sample server's).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowAgentOrders, setMarketplaceAgentCheckout } from "../../helpers/buyer";
import { shipOrder, startPlatform, type FakePlatform } from "../../helpers/platform";
import { ADDRESS, UcpHarness, expectValid, orderEventSchema } from "../../helpers/ucp";

let platform: FakePlatform;
let ucp: UcpHarness;
beforeAll(async () => {
  platform = await startPlatform();
  ucp = await UcpHarness.start("ucp-webhook", { WEBHOOKS_ALLOW_LOOPBACK: "on", NODE_EXTRA_CA_CERTS: platform.caPath }, platform.profileUrl);
});
afterAll(async () => {
  await ucp?.stop();
  await platform?.close();
});

const eventsOf = (orderId: string, count = 1) => platform.waitFor((r) => r.path === "/ucp/orders" && r.json?.id === orderId, count, `events of order ${orderId}`);


describe("webhook_test", { timeout: 90_000 }, () => {
  it("test_webhook_event_stream", async () => {
    const checkout = await ucp.createCheckout();
    const completed = await ucp.complete(checkout.id);
    const orderId = completed.order.id;
    const [placed] = await eventsOf(orderId);
    expectValid(orderEventSchema(), placed!.json, "order event");
    expect(placed!.json.checkout_id).toBe(checkout.id);
    expect(placed!.json.fulfillment.events).toEqual([]);

    await shipOrder(ucp.app.database.databaseUrl, orderId, "TRACK123");
    const events = await eventsOf(orderId, 2);
    const shipped = events[1]!.json;
    expect(shipped.checkout_id).toBe(checkout.id);
    expect(shipped.fulfillment.events.map((e: any) => e.type)).toContain("shipped");
    expect(shipped.event_id).not.toBe(placed!.json.event_id);
  });

  it("test_webhook_order_address_known_customer", async () => {
    // A known customer is a linked holder (see fulfillment.test.ts) who lets agents buy.
    await setMarketplaceAgentCheckout(ucp.app.pool, true);
    const holder = await ucp.linkedHolder();
    await allowAgentOrders(ucp.app.pool, holder.id, 100_000, 100_000);
    const checkout = await ucp.createCheckout({ fulfillment: false, headers: holder.headers() });
    const withMethod = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping" }] } }, 200, holder.headers());
    const destination = withMethod.fulfillment.methods[0].destinations[0];
    const ready = await ucp.update(
      withMethod,
      { fulfillment: { methods: [{ type: "shipping", selected_destination_id: destination.id, groups: [{ selected_option_id: "standard" }] }] } },
      200,
      holder.headers(),
    );
    expect(ready.status).toBe("ready_for_complete");
    const res = await ucp.request("POST", `/checkout-sessions/${checkout.id}/complete`, ucp.paymentPayload(), holder.headers());
    expect(res.status, res.text).toBe(200);
    const [event] = await eventsOf(res.json.order.id);
    const expectation = event!.json.fulfillment.expectations[0];
    expect(expectation.destination.address_country).toBe("US");
    expect(expectation.destination.street_address).toBe(destination.street_address);
  });

  it("test_webhook_order_address_new_address", async () => {
    const checkout = await ucp.createCheckout({ fulfillment: false });
    const address = { ...ADDRESS, address_country: "CA", address_region: "ON", address_locality: "Toronto", postal_code: "M5V 2H1", street_address: "Webhook St" };
    const addressed = await ucp.update(checkout, { fulfillment: { methods: [{ type: "shipping", destinations: [{ id: "dest_new_webhook", ...address }], selected_destination_id: "dest_new_webhook" }] } });
    const option = addressed.fulfillment.methods[0].groups[0].options[0].id;
    await ucp.update(addressed, { fulfillment: { methods: [{ type: "shipping", groups: [{ selected_option_id: option }] }] } });
    const completed = await ucp.complete(checkout.id);
    const [event] = await eventsOf(completed.order.id);
    expect(event!.json.fulfillment.expectations[0].destination).toMatchObject({ address_country: "CA", postal_code: "M5V 2H1", street_address: "Webhook St" });
  });
});
