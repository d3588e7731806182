import { config } from "@/lib/config";
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import { logEvent } from "@/lib/log";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";
import { OutboundError, outboundRequest } from "@/lib/net/outbound";
import { nextAttemptAt } from "./schedule";

/**
 * One attempt at delivering an order event (a `webhook-delivery` job): find where it goes, render
 * its payload once (a retry sends the same bytes), sign it for this attempt, POST it through the
 * outbound guard. A 2xx answer delivers it; 410 Gone ends it; anything else (another status, no
 * answer, an unreachable receiver) is a failure: the next attempt is a new job, due when the
 * schedule says (./schedule.ts), until the last. The queue's own retries only stand in for a
 * worker that died in the middle of an attempt.
 */

export type DeliveryRow = Prisma.WebhookDeliveryGetPayload<object>;

/** What a channel (a protocol's kind of webhook) knows how to do, reading with the worker's `client`. */
export interface Channel {
  /** Where this delivery goes, or why it goes nowhere (a platform that asked for no events). */
  destination(client: DbClient, delivery: DeliveryRow): Promise<{ url: string } | { skip: string }>;
  /** The payload, or null when the order is gone. */
  render(client: DbClient, delivery: DeliveryRow): Promise<string | null>;
  /** The headers of one attempt, signed at `now`. */
  headers(client: DbClient, delivery: DeliveryRow, body: string, now: Date): Promise<Record<string, string>>;
  /** The receiver answered 410 Gone. */
  gone?(client: DbClient, delivery: DeliveryRow): Promise<void>;
}

export type Channels = Record<string, Channel>;

/** A receiver's answer, within this time and size. */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const DELIVERY_MAX_RESPONSE_BYTES = 64 * 1024;

/** A delivery job: the delivery, and how many attempts it had when the job was sent. */
export interface DeliveryJob {
  delivery: string;
  attempt?: number;
}

/**
 * One attempt. A job that no longer matches its delivery (delivered, ended, or already attempted
 * again: a crashed worker's job that the queue ran a second time) does nothing.
 */
export async function deliverWebhook(client: PrismaClient, job: DeliveryJob, channels: Channels, now = new Date(), random = Math.random()): Promise<void> {
  const id = job.delivery;
  const delivery = await client.webhookDelivery.findUnique({ where: { id } });
  if (!delivery || delivery.status !== "pending" || delivery.attempts !== (job.attempt ?? 0)) return;
  const channel = channels[delivery.channel];
  if (!channel) throw new Error(`no channel ${delivery.channel}`);
  const end = (data: Prisma.WebhookDeliveryUpdateInput) => client.webhookDelivery.update({ where: { id }, data });

  let url: string;
  let status: number | null = null;
  try {
    const where = await channel.destination(client, delivery);
    if ("skip" in where) {
      await end({ status: "skipped", lastError: where.skip, nextAttemptAt: null });
      return;
    }
    url = where.url;
    let body = delivery.body;
    if (body === null) {
      body = await channel.render(client, delivery);
      if (body === null) {
        await end({ status: "skipped", lastError: "the order no longer exists", nextAttemptAt: null });
        return;
      }
      await end({ body, url });
    }
    const response = await outboundRequest(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(await channel.headers(client, delivery, body, now)) },
      body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: DELIVERY_MAX_RESPONSE_BYTES,
      allowLoopback: config().webhooksAllowLoopback,
    });
    status = response.status;
  } catch (err) {
    // The receiver unreachable, or a fault of ours (logged as such): an attempt that failed.
    const message = err instanceof OutboundError ? err.message : `could not send: ${err instanceof Error ? err.message : String(err)}`;
    return failed(client, delivery, null, message, nextAttemptAt(delivery.attempts + 1, now, random), now);
  }
  if (status >= 200 && status < 300) {
    await end({ status: "delivered", url, attempts: { increment: 1 }, lastAttemptAt: now, lastStatus: status, lastError: null, nextAttemptAt: null, deliveredAt: now });
    return;
  }
  // 410: the receiver is gone for good (Standard Webhooks' advice): no more attempts, and the
  // channel may stop sending there at all.
  if (status === 410) await channel.gone?.(client, delivery);
  return failed(client, delivery, status, `the receiver answered ${status}`, status === 410 ? null : nextAttemptAt(delivery.attempts + 1, now, random), now);
}

/** Records a failed attempt and, unless it was the last, sends the job of the next one, due `next`. */
async function failed(client: PrismaClient, delivery: DeliveryRow, status: number | null, error: string, next: Date | null, now: Date): Promise<void> {
  const attempt = delivery.attempts + 1;
  await client.$transaction(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: next ? "pending" : "failed", attempts: attempt, lastAttemptAt: now, lastStatus: status, lastError: error, nextAttemptAt: next },
    });
    if (next) await sendInTransaction(tx, QUEUES.webhookDelivery.name, { delivery: delivery.id, attempt } satisfies DeliveryJob, { startAfter: next });
  });
  logEvent(next ? "warn" : "error", next ? "webhook delivery failed; it will be retried" : "webhook delivery failed for good", {
    delivery: delivery.id,
    channel: delivery.channel,
    event: delivery.eventType,
    attempt,
    error,
    ...(next ? { next_attempt_at: next.toISOString() } : {}),
  });
}
