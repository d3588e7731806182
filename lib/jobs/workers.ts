import { deliverEmail } from "@/lib/email/deliver";
import { protocolChannels } from "@/lib/protocols/webhooks";
import { deliverWebhook } from "@/lib/webhooks/deliver";
import { QUEUES, work } from "./queue";

/** Starts this process's workers: every queue and what works its jobs. */
export async function startWorkers(): Promise<void> {
  await work(QUEUES.webhookDelivery.name, async (data, meta) => {
    const { delivery } = data as { delivery: string };
    await deliverWebhook(delivery, protocolChannels, { lastAttempt: meta.retryCount >= meta.retryLimit });
  });
  await work(QUEUES.email.name, async (data, meta) => {
    const { email } = data as { email: string };
    await deliverEmail(email, { lastAttempt: meta.retryCount >= meta.retryLimit });
  });
}
