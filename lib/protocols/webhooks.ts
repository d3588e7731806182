import { createHmac } from "node:crypto";
import { LRUCache } from "lru-cache";
import { absoluteUrl, config } from "@/lib/config";
import { outboundRequest, OutboundError } from "@/lib/net/outbound";
import type { Channel, Channels } from "@/lib/webhooks/deliver";
import { acpOrderForEvent } from "./acp/order";
import { ucpOrderForEvent } from "./ucp/order";
import { signDetached } from "./ucp/signing";
import { UCP_CAPABILITIES } from "./ucp/version";

/**
 * Order events to commerce platforms, as each protocol says (lib/webhooks/ delivers them).
 *
 * UCP 2026-01-11 (order.md "Order Event Webhook"): the platform names its receiver in its own
 * profile, `config.webhook_url` of its `dev.ucp.shopping.order` capability; the body is the full
 * order with `event_id` and `created_time`; `Request-Signature` is a detached JWS (RFC 7797) by a
 * key of our profile's `signing_keys`, named by `kid`; `UCP-Agent` names our profile (the
 * business identifier the text asks for). `Webhook-Id` and `Webhook-Timestamp` (Standard
 * Webhooks, as later UCP releases ask) are sent too.
 *
 * ACP 2026-04-17 (openapi.agentic_checkout_webhook.yaml): `{ type: "order_create" |
 * "order_update", data: <the full order> }`, `Merchant-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, t + "." + body)>`, to the receiver the operator configured for the
 * platform's key (ACP_WEBHOOKS). `Request-Id` is the event's id on every attempt.
 */

/** A platform's profile, within this time and size. */
const PROFILE_TIMEOUT_MS = 5_000;
const PROFILE_MAX_BYTES = 256 * 1024;
/** Profiles read in the last 5 minutes are not read again. */
const profiles = new LRUCache<string, { webhookUrl: string | null }>({ max: 1_000, ttl: 5 * 60_000 });

/** The order capability's `config.webhook_url` of a UCP profile (a list of capabilities, or later releases' map by name). */
export function orderWebhookUrl(profile: unknown): string | null {
  const capabilities = (profile as { ucp?: { capabilities?: unknown } } | null)?.ucp?.capabilities;
  const entries: unknown[] = Array.isArray(capabilities)
    ? capabilities.filter((c) => (c as { name?: unknown })?.name === UCP_CAPABILITIES.order)
    : capabilities && typeof capabilities === "object"
      ? [((capabilities as Record<string, unknown>)[UCP_CAPABILITIES.order] as unknown[] | undefined) ?? []].flat()
      : [];
  for (const entry of entries) {
    const url = (entry as { config?: { webhook_url?: unknown } })?.config?.webhook_url;
    if (typeof url === "string" && url.length > 0 && url.length <= 2048) return url;
  }
  return null;
}

async function platformWebhookUrl(profileUrl: string): Promise<string | null> {
  const known = profiles.get(profileUrl);
  if (known) return known.webhookUrl;
  const response = await outboundRequest(profileUrl, {
    method: "GET",
    headers: { accept: "application/json" },
    timeoutMs: PROFILE_TIMEOUT_MS,
    maxBytes: PROFILE_MAX_BYTES,
    allowLoopback: config().webhooksAllowLoopback,
  });
  if (response.status !== 200) throw new OutboundError(`the platform's profile answered ${response.status}`);
  let profile: unknown;
  try {
    profile = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw new OutboundError("the platform's profile is not JSON");
  }
  const webhookUrl = orderWebhookUrl(profile);
  profiles.set(profileUrl, { webhookUrl });
  return webhookUrl;
}

const ucp: Channel = {
  async destination(_client, delivery) {
    const url = await platformWebhookUrl(delivery.destination);
    return url ? { url } : { skip: "the platform's profile names no order webhook_url" };
  },
  async render(client, delivery) {
    const order = delivery.orderId && (await ucpOrderForEvent(client, delivery.orderId));
    return order && JSON.stringify({ ...order, event_id: delivery.id, created_time: delivery.createdAt.toISOString() });
  },
  async headers(_client, delivery, body, now) {
    return {
      "ucp-agent": `profile="${absoluteUrl("/.well-known/ucp")}"`,
      "request-signature": await signDetached(body),
      "webhook-id": delivery.id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    };
  },
};

const acpReceiver = (platform: string) => config().acpWebhooks.find((w) => w.platform_key_sha256 === platform);

/** ACP's `Merchant-Signature` of `body` at `timestamp` (unix seconds). */
export function merchantSignature(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

const acp: Channel = {
  async destination(_client, delivery) {
    const receiver = acpReceiver(delivery.destination);
    return receiver ? { url: receiver.url } : { skip: "no receiver is configured for this platform (ACP_WEBHOOKS)" };
  },
  async render(client, delivery) {
    const order = delivery.orderId && (await acpOrderForEvent(client, delivery.orderId));
    return order && JSON.stringify({ type: delivery.eventType, data: order });
  },
  async headers(_client, delivery, body, now) {
    const receiver = acpReceiver(delivery.destination);
    if (!receiver) throw new OutboundError("the platform's receiver is no longer configured");
    return {
      "merchant-signature": merchantSignature(receiver.secret, Math.floor(now.getTime() / 1000), body),
      "request-id": delivery.id,
      timestamp: now.toISOString(),
    };
  },
};

export const protocolChannels: Channels = { ucp, acp };
