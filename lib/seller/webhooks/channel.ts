import { Webhook } from "standardwebhooks";
import type { Channel, Channels } from "@/lib/webhooks/deliver";
import { disableGoneEndpoint, signingSecrets } from "./endpoints";

/**
 * Store events to the store's endpoints, signed as the Standard Webhooks specification says:
 * `webhook-id` (the event's id, the same on every attempt and replay), `webhook-timestamp` (Unix
 * seconds of this attempt) and `webhook-signature`, `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` by each signing secret, space-separated (two during a rotation).
 */
const seller: Channel = {
  async destination(client, delivery) {
    const endpoint = delivery.endpointId ? await client.webhookEndpoint.findUnique({ where: { id: delivery.endpointId } }) : null;
    if (!endpoint) return { skip: "the endpoint was deleted" };
    if (endpoint.status !== "enabled") return { skip: `the endpoint is disabled (${endpoint.disabledReason ?? "disabled"})` };
    return { url: endpoint.url };
  },
  async render(client, delivery) {
    const event = delivery.eventId ? await client.webhookEvent.findUnique({ where: { id: delivery.eventId } }) : null;
    return event?.body ?? null;
  },
  async headers(client, delivery, body, now) {
    const endpoint = await client.webhookEndpoint.findUniqueOrThrow({ where: { id: delivery.endpointId! } });
    const id = delivery.eventId!;
    return {
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": signingSecrets(endpoint, now)
        .map((secret) => new Webhook(secret).sign(id, now, body))
        .join(" "),
    };
  },
  async gone(client, delivery) {
    if (delivery.endpointId) await disableGoneEndpoint(client, delivery.endpointId);
  },
};

export const sellerChannels: Channels = { seller };
