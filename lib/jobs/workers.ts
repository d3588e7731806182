import { db } from "@/lib/db";
import { deliverEmail } from "@/lib/email/deliver";
import { protocolChannels } from "@/lib/protocols/webhooks";
import { sellerChannels } from "@/lib/seller/webhooks/channel";
import { deliverWebhook, type DeliveryJob } from "@/lib/webhooks/deliver";
import { logEvent } from "@/lib/log";
import { QUEUES, work } from "./queue";

const CHANNELS = { ...protocolChannels, ...sellerChannels };

/** Starts this process's workers: every queue and what works its jobs. */
export async function startWorkers(): Promise<void> {
  await work(QUEUES.webhookDelivery.name, async (data) => deliverWebhook(db(), data as DeliveryJob, CHANNELS));
  await work(QUEUES.email.name, async (data, meta) => {
    const { email } = data as { email: string };
    await deliverEmail(db(), email, { lastAttempt: meta.retryCount >= meta.retryLimit });
  });
}

/**
 * Starts the workers `delayMs` after the server starts (instrumentation.ts): their first polls
 * and pg-boss's first maintenance would otherwise compete with the first requests, which on the
 * embedded database share its one connection. Jobs sent meanwhile wait in the queue. A failure
 * to start is logged; the app keeps serving.
 */
export function startWorkersAfter(delayMs: number): void {
  setTimeout(() => {
    startWorkers().catch((err) => logEvent("error", "job workers did not start", { error: String(err) }));
  }, delayMs).unref();
}
