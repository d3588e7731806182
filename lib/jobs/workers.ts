import { deliverEmail } from "@/lib/email/deliver";
import { protocolChannels } from "@/lib/protocols/webhooks";
import { sellerChannels } from "@/lib/seller/webhooks/channel";
import { deliverWebhook, type DeliveryJob } from "@/lib/webhooks/deliver";
import { QUEUES, work } from "./queue";

const CHANNELS = { ...protocolChannels, ...sellerChannels };

/** Starts this process's workers: every queue and what works its jobs. */
export async function startWorkers(): Promise<void> {
  await work(QUEUES.webhookDelivery.name, async (data) => deliverWebhook(data as DeliveryJob, CHANNELS));
  await work(QUEUES.email.name, async (data, meta) => {
    const { email } = data as { email: string };
    await deliverEmail(email, { lastAttempt: meta.retryCount >= meta.retryLimit });
  });
}
