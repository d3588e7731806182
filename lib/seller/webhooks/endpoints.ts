import { config } from "@/lib/config";
import type { Prisma, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { checkOutboundUrl, OutboundError } from "@/lib/net/outbound";
import { isUuid } from "@/lib/ids";
import { afterCursor, NEWEST_FIRST, pageOf, type Page } from "@/lib/orders/common";
import {
  WEBHOOK_LIMITS,
  type CreateWebhookEndpointData,
  type ListWebhookEndpointsQueryData,
  type UpdateWebhookEndpointData,
  type WebhookEndpointData,
  type WebhookEndpointWithSecretData,
  type WebhookEventType,
} from "@/lib/schemas/seller/webhooks";
import { newSigningSecret, openSecret, sealSecret } from "./secrets";

/**
 * A store's webhook endpoints: registered, changed, disabled, deleted and their secret rotated,
 * by the seller API and the dashboard alike. Every change is the store's own: another store's
 * endpoint is not found.
 */

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

export function toWebhookEndpoint(row: EndpointRow, now = new Date()): WebhookEndpointData {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null;
  return {
    id: row.id,
    object: "webhook_endpoint",
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    status: row.status as "enabled" | "disabled",
    disabled_reason: row.disabledReason,
    previous_secret_expires_at: overlap?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function webhookEndpointNotFound(id: unknown, param?: string): AppError {
  return new AppError("webhook_endpoint_not_found", `No webhook endpoint of this store has the id '${String(id).slice(0, 100)}'.`, param);
}

/** The URL, if the outbound guard would send to it now (https, public addresses only). */
async function checkUrl(url: string): Promise<string> {
  try {
    await checkOutboundUrl(url, config().webhooksAllowLoopback);
  } catch (err) {
    if (err instanceof OutboundError) throw new AppError("parameter_invalid", `Invalid 'url': ${err.message}.`, "url");
    throw err;
  }
  return url;
}

async function findEndpoint(db: DbClient, storeId: string, id: string, param?: string): Promise<EndpointRow> {
  const row = isUuid(id) ? await db.webhookEndpoint.findFirst({ where: { id, storeId } }) : null;
  if (!row) throw webhookEndpointNotFound(id, param);
  return row;
}

/** The signing secrets of an endpoint at `now`: the current one, then the previous while it overlaps. */
export function signingSecrets(row: EndpointRow, now: Date): string[] {
  const secrets = [openSecret(row.secret)];
  if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt > now) secrets.push(openSecret(row.previousSecret));
  return secrets;
}

export async function createWebhookEndpoint(tx: DbClient, storeId: string, input: CreateWebhookEndpointData): Promise<WebhookEndpointWithSecretData> {
  const url = await checkUrl(input.url);
  // Counted under a lock of the store's row, so two creations cannot both take the last place.
  await tx.$queryRaw`SELECT id FROM stores WHERE id = ${storeId}::uuid FOR UPDATE`;
  if ((await tx.webhookEndpoint.count({ where: { storeId } })) >= WEBHOOK_LIMITS.endpointsMax) {
    throw new AppError("webhook_endpoint_limit_reached", `This store already has ${WEBHOOK_LIMITS.endpointsMax} webhook endpoints, the most it may have: delete one first.`);
  }
  const secret = newSigningSecret();
  const row = await tx.webhookEndpoint.create({
    data: { storeId, url, events: input.events, description: input.description ?? null, secret: sealSecret(secret) },
  });
  return { ...toWebhookEndpoint(row), secret };
}

export async function listWebhookEndpoints(db: DbClient, storeId: string, query: ListWebhookEndpointsQueryData): Promise<Page<WebhookEndpointData>> {
  const rows = await db.webhookEndpoint.findMany({ where: { storeId, ...afterCursor("webhook_endpoints", query) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
  return pageOf("webhook_endpoints", rows, query.limit, (r) => toWebhookEndpoint(r));
}

export async function getWebhookEndpoint(db: DbClient, storeId: string, id: string): Promise<WebhookEndpointData> {
  return toWebhookEndpoint(await findEndpoint(db, storeId, id));
}

export async function updateWebhookEndpoint(tx: DbClient, storeId: string, id: string, input: UpdateWebhookEndpointData): Promise<WebhookEndpointData> {
  const current = await findEndpoint(tx, storeId, id);
  const url = input.url === undefined ? undefined : await checkUrl(input.url);
  const status = input.status;
  const row = await tx.webhookEndpoint.update({
    where: { id: current.id },
    data: {
      ...(url !== undefined && { url }),
      ...(input.events !== undefined && { events: input.events }),
      ...(input.description !== undefined && { description: input.description }),
      ...(status === "enabled" && { status, disabledReason: null }),
      ...(status === "disabled" && current.status !== "disabled" && { status, disabledReason: "disabled by the store" }),
    },
  });
  return toWebhookEndpoint(row);
}

export async function deleteWebhookEndpoint(tx: DbClient, storeId: string, id: string): Promise<{ id: string; object: "webhook_endpoint"; deleted: true }> {
  const row = await findEndpoint(tx, storeId, id);
  // Its deliveries go with it (ON DELETE CASCADE); a job still queued for one then finds nothing.
  await tx.webhookEndpoint.delete({ where: { id: row.id } });
  return { id: row.id, object: "webhook_endpoint", deleted: true };
}

/**
 * A new signing secret. The previous one keeps signing alongside it for
 * WEBHOOK_LIMITS.rotationOverlapHours, so receivers can switch without missing an event; a second
 * rotation within that time drops the oldest.
 */
export async function rotateWebhookSecret(tx: DbClient, storeId: string, id: string, now = new Date()): Promise<WebhookEndpointWithSecretData> {
  const row = await findEndpoint(tx, storeId, id);
  const secret = newSigningSecret();
  const updated = await tx.webhookEndpoint.update({
    where: { id: row.id },
    data: {
      secret: sealSecret(secret),
      previousSecret: row.secret,
      previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_LIMITS.rotationOverlapHours * 3600_000),
    },
  });
  return { ...toWebhookEndpoint(updated, now), secret };
}

/** The receiver answered 410 Gone: the endpoint is disabled until the store enables it again. */
export async function disableGoneEndpoint(db: DbClient, id: string): Promise<void> {
  await db.webhookEndpoint.updateMany({ where: { id, status: "enabled" }, data: { status: "disabled", disabledReason: "the receiver answered 410 Gone" } });
}
