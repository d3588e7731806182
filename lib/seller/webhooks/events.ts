import type { DbClient } from "@/lib/db";
import { randomUUID } from "node:crypto";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";
import type { WebhookEventType } from "@/lib/schemas/seller/webhooks";
import type { DeliveryJob } from "@/lib/webhooks/deliver";
import { readListing } from "../listings/listing-row";
import { loadOrderParts } from "../orders/order-part";
import { getStoreReturn } from "../orders/store-return";

/**
 * The outbox of store events. Called in the transaction of the change an event reports: for each
 * store with an enabled endpoint that asked for the event's type, it renders the API's object as
 * it is in that transaction, writes the event and one delivery per such endpoint, and sends the
 * delivery jobs, so a change that rolls back sends nothing and one that commits is delivered at
 * least once. A store with no such endpoint costs one indexed lookup and writes nothing.
 */

export interface StoreEventRef {
  storeId: string;
  /** The object's id: an order's, a return's or a listing's. */
  id: string;
}

/** Each type's object, as the store's API answers it. */
const RENDER: Record<WebhookEventType, (tx: DbClient, storeId: string, id: string) => Promise<unknown>> = {
  "order.created": async (tx, storeId, id) => (await loadOrderParts(tx, storeId, [id]))[0],
  "order.canceled": async (tx, storeId, id) => (await loadOrderParts(tx, storeId, [id]))[0],
  "order_part.shipped": async (tx, storeId, id) => (await loadOrderParts(tx, storeId, [id]))[0],
  "order_part.delivered": async (tx, storeId, id) => (await loadOrderParts(tx, storeId, [id]))[0],
  "return.requested": (tx, storeId, id) => getStoreReturn(tx, storeId, id),
  "return.refunded": (tx, storeId, id) => getStoreReturn(tx, storeId, id),
  "listing.sold_out": (tx, storeId, id) => readListing(tx, storeId, id),
};

export async function emitStoreEvents(tx: DbClient, type: WebhookEventType, refs: readonly StoreEventRef[], now = new Date()): Promise<void> {
  if (refs.length === 0) return;
  const stores = [...new Set(refs.map((r) => r.storeId))];
  const endpoints = await tx.$queryRaw<{ id: string; store_id: string }[]>`
    SELECT id::text AS id, store_id::text AS store_id FROM webhook_endpoints
    WHERE store_id = ANY(${stores}::uuid[]) AND status = 'enabled' AND ${type} = ANY(events)
    ORDER BY id`;
  if (endpoints.length === 0) return;
  for (const ref of refs) {
    const targets = endpoints.filter((e) => e.store_id === ref.storeId);
    if (targets.length === 0) continue;
    const data = await RENDER[type](tx, ref.storeId, ref.id);
    if (data === undefined) continue;
    const event = await tx.webhookEvent.create({
      data: { id: randomUUID(), storeId: ref.storeId, type, body: JSON.stringify({ type, timestamp: now.toISOString(), data }), createdAt: now },
    });
    for (const endpoint of targets) {
      const delivery = await tx.webhookDelivery.create({
        data: { id: randomUUID(), channel: "seller", destination: endpoint.id, eventType: type, eventId: event.id, endpointId: endpoint.id, body: event.body, createdAt: now },
      });
      await sendInTransaction(tx, QUEUES.webhookDelivery.name, { delivery: delivery.id } satisfies DeliveryJob);
    }
  }
}
