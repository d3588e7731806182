import { randomUUID } from "node:crypto";
import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";
import { isUuid } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, pageOf, type Page } from "@/lib/orders/common";
import type { ListWebhookDeliveriesQueryData, WebhookDeliveryData, WebhookEventType } from "@/lib/schemas/seller/webhooks";
import type { DeliveryJob } from "@/lib/webhooks/deliver";
import { webhookEndpointNotFound } from "./endpoints";

/** The delivery log of a store's endpoints, and replays. */

type DeliveryRow = Prisma.WebhookDeliveryGetPayload<object>;

export function toWebhookDelivery(row: DeliveryRow): WebhookDeliveryData {
  return {
    id: row.id,
    object: "webhook_delivery",
    endpoint_id: row.endpointId!,
    event_id: row.eventId!,
    event_type: row.eventType as WebhookEventType,
    status: row.status as WebhookDeliveryData["status"],
    attempts: row.attempts,
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
    replay_of: row.replayOf,
    created_at: row.createdAt.toISOString(),
  };
}

function deliveryNotFound(id: string): AppError {
  return new AppError("webhook_delivery_not_found", `No webhook delivery of this store has the id '${id.slice(0, 100)}'.`);
}

/** The store's deliveries, newest first; of one endpoint, in one status. */
export async function listWebhookDeliveries(db: DbClient, storeId: string, query: ListWebhookDeliveriesQueryData): Promise<Page<WebhookDeliveryData>> {
  if (query.endpoint_id !== undefined) {
    const mine = isUuid(query.endpoint_id) && (await db.webhookEndpoint.count({ where: { id: query.endpoint_id, storeId } })) > 0;
    if (!mine) throw webhookEndpointNotFound(query.endpoint_id, "endpoint_id");
  }
  const rows = await db.webhookDelivery.findMany({
    where: {
      endpoint: { storeId },
      ...(query.endpoint_id !== undefined && { endpointId: query.endpoint_id }),
      ...(query.status !== undefined && { status: query.status }),
      ...afterCursor("webhook_deliveries", query),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return pageOf("webhook_deliveries", rows, query.limit, toWebhookDelivery);
}

async function findDelivery(db: DbClient, storeId: string, id: string): Promise<DeliveryRow & { endpoint: { status: string } | null }> {
  const row = isUuid(id) ? await db.webhookDelivery.findFirst({ where: { id, endpoint: { storeId } }, include: { endpoint: { select: { status: true } } } }) : null;
  if (!row) throw deliveryNotFound(id);
  return row;
}

export async function getWebhookDelivery(db: DbClient, storeId: string, id: string): Promise<WebhookDeliveryData> {
  return toWebhookDelivery(await findDelivery(db, storeId, id));
}

/**
 * Sends the delivery's event again to its endpoint, as a new delivery with the same event (the
 * same `webhook-id` and body, so a receiver that has it already can tell), attempted at once and
 * retried like any other.
 */
export async function replayWebhookDelivery(tx: DbClient, storeId: string, id: string, now = new Date()): Promise<WebhookDeliveryData> {
  const original = await findDelivery(tx, storeId, id);
  if (original.endpoint?.status !== "enabled") {
    throw new AppError("webhook_endpoint_disabled", "The endpoint of this delivery is disabled: enable it before replaying to it.");
  }
  const replay = await tx.webhookDelivery.create({
    data: {
      id: randomUUID(),
      channel: original.channel,
      destination: original.destination,
      eventType: original.eventType,
      eventId: original.eventId,
      endpointId: original.endpointId,
      body: original.body,
      replayOf: original.replayOf ?? original.id,
      createdAt: now,
    },
  });
  await sendInTransaction(tx, QUEUES.webhookDelivery.name, { delivery: replay.id } satisfies DeliveryJob);
  return toWebhookDelivery(replay);
}
