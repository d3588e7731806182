import { config } from "@/lib/config";
import { db, type Prisma } from "@/lib/db";
import { logEvent } from "@/lib/log";
import { OutboundError, outboundRequest } from "@/lib/net/outbound";

/**
 * One attempt at delivering an order event (a `webhook-delivery` job): find where it goes, render
 * its payload once (a retry sends the same bytes), sign it for this attempt, POST it through the
 * outbound guard. A 2xx answer delivers it; 410 Gone ends it; anything else (another status, no
 * answer, an unreachable receiver) is a failure the queue retries until its last retry.
 */

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<object>;

/** What a channel (a protocol's kind of webhook) knows how to do. */
export interface Channel {
  /** Where this delivery goes, or why it goes nowhere (a platform that asked for no events). */
  destination(delivery: DeliveryRow): Promise<{ url: string } | { skip: string }>;
  /** The payload, or null when the order is gone. */
  render(delivery: DeliveryRow): Promise<string | null>;
  /** The headers of one attempt, signed at `now`. */
  headers(delivery: DeliveryRow, body: string, now: Date): Promise<Record<string, string>>;
}

export type Channels = Record<string, Channel>;

/** A receiver's answer, within this time and size. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_MAX_RESPONSE_BYTES = 64 * 1024;

export async function deliverWebhook(id: string, channels: Channels, { lastAttempt }: { lastAttempt: boolean }, now = new Date()): Promise<void> {
  const delivery = await db().webhookDelivery.findUnique({ where: { id } });
  if (!delivery || delivery.status !== "pending") return;
  const channel = channels[delivery.channel];
  if (!channel) throw new Error(`no channel ${delivery.channel}`);
  const end = (data: Prisma.WebhookDeliveryUpdateInput) => db().webhookDelivery.update({ where: { id }, data });

  let url: string;
  let status: number | null = null;
  try {
    const where = await channel.destination(delivery);
    if ("skip" in where) {
      await end({ status: "skipped", lastError: where.skip });
      return;
    }
    url = where.url;
    let body = delivery.body;
    if (body === null) {
      body = await channel.render(delivery);
      if (body === null) {
        await end({ status: "skipped", lastError: "the order no longer exists" });
        return;
      }
      await end({ body, url });
    }
    const response = await outboundRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(await channel.headers(delivery, body, now)) },
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: DELIVERY_MAX_RESPONSE_BYTES,
      allowLoopback: config().webhooksAllowLoopback,
    });
    status = response.status;
  } catch (err) {
    // The receiver unreachable, or a fault of ours (logged as such): an attempt that failed.
    const message = err instanceof OutboundError ? err.message : `could not send: ${err instanceof Error ? err.message : String(err)}`;
    return failed(id, delivery, null, message, lastAttempt, now);
  }
  if (status >= 200 && status < 300) {
    await end({ status: "delivered", url, attempts: { increment: 1 }, lastAttemptAt: now, lastStatus: status, lastError: null, deliveredAt: now });
    return;
  }
  // 410: the receiver is gone for good (Standard Webhooks' advice): no more attempts.
  return failed(id, delivery, status, `the receiver answered ${status}`, lastAttempt || status === 410, now);
}

async function failed(id: string, delivery: DeliveryRow, status: number | null, error: string, final: boolean, now: Date): Promise<void> {
  await db().webhookDelivery.update({
    where: { id },
    data: { status: final ? "failed" : "pending", attempts: { increment: 1 }, lastAttemptAt: now, lastStatus: status, lastError: error },
  });
  logEvent(final ? "error" : "warn", final ? "webhook delivery failed for good" : "webhook delivery failed; it will be retried", {
    delivery: id,
    channel: delivery.channel,
    event: delivery.eventType,
    attempt: delivery.attempts + 1,
    error,
  });
  if (!final) throw new Error(error);
}
