/** Port of webhook_test.py. */
import { describe, it } from "vitest";

const PENDING = "pending: order events to platforms come with the signed event delivery, the next step of this issue";

describe("webhook_test", () => {
  it.skip(`test_webhook_event_stream (${PENDING})`, () => {});
  it.skip(`test_webhook_order_address_known_customer (${PENDING})`, () => {});
  it.skip(`test_webhook_order_address_new_address (${PENDING})`, () => {});
});
