import type { DbClient } from "@/lib/db";
import { QUEUES, sendInTransaction } from "@/lib/jobs/queue";

/**
 * The outbox of order events to commerce platforms. Called in the transaction of the change it
 * reports (an order placed, shipped, delivered, cancelled): it writes one delivery per platform
 * owed the event and sends the job that delivers it, so a change that rolls back sends nothing
 * and one that commits is delivered at least once.
 *
 * Owed: the platform that created the order's checkout, over UCP or ACP; where it goes, if
 * anywhere, the delivery job finds out (a UCP platform's profile names its receiver; an ACP
 * platform's is configured by the operator, ACP_WEBHOOKS), and one that goes nowhere is recorded
 * as skipped, with why. Orders of the storefront, the buyer API and the agent MCP server owe
 * nothing.
 */

export type OrderEventType = "order_create" | "order_update";

export async function queueOrderEvents(tx: DbClient, orderIds: readonly string[], type: OrderEventType): Promise<void> {
  if (orderIds.length === 0) return;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO webhook_deliveries (id, channel, destination, event_type, order_id)
    SELECT gen_random_uuid(), pc.protocol, pc.platform, ${type}, o.id
    FROM orders o JOIN protocol_checkouts pc ON pc.session_id = o.checkout_session_id
    WHERE o.id = ANY(${orderIds as string[]}::uuid[]) AND pc.platform IS NOT NULL
    ORDER BY o.id
    RETURNING id`;
  for (const row of rows) await sendInTransaction(tx, QUEUES.webhookDelivery.name, { delivery: row.id });
}
