import type { Prisma, PrismaClient, DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { afterCursor, NEWEST_FIRST, pageOf, type Page } from "@/lib/orders/common";
import type { AuditEventData, ListAuditEventsQueryData } from "@/lib/schemas/seller/audit";

/**
 * The stores' audit log: who changed what of a store's data, or tried to and was refused. A
 * change's event is written in the change's own transaction (it exists exactly when the change
 * does); a refusal's once the refused transaction has rolled back.
 */

export type AuditActor = { type: "api_key"; keyId: string } | { type: "user"; userId: string; email: string } | { type: "operator" };

export interface AuditEntry {
  storeId: string;
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string | null } | null;
  requestId?: string | null;
}

function actorColumns(actor: AuditActor) {
  switch (actor.type) {
    case "api_key":
      return { actorType: "api_key", actorId: `mk_live_${actor.keyId}`, actorLabel: `mk_live_${actor.keyId}` };
    case "user":
      return { actorType: "user", actorId: actor.userId, actorLabel: actor.email };
    case "operator":
      return { actorType: "operator", actorId: null, actorLabel: "operator" };
  }
}

function row(entry: AuditEntry, outcome: "succeeded" | "refused", errorCode: string | null): Prisma.AuditEventUncheckedCreateInput {
  return {
    storeId: entry.storeId,
    ...actorColumns(entry.actor),
    action: entry.action,
    targetType: entry.target?.type ?? null,
    targetId: entry.target?.id?.slice(0, 200) ?? null,
    outcome,
    errorCode,
    requestId: entry.requestId ?? null,
  };
}

/** A change that succeeded, in its transaction. */
export async function auditSucceeded(tx: DbClient, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({ data: row(entry, "succeeded", null) });
}

/** A refused attempt (`err` an AppError), written on its own: the attempt's transaction rolled back. */
export async function auditRefused(client: DbClient, entry: AuditEntry, err: AppError): Promise<void> {
  await client.auditEvent.create({ data: row(entry, "refused", err.code) });
}

/**
 * Runs `change` in a transaction that also records it, or records its refusal: the one way a
 * door that is not the seller API (the dashboard's forms, the operator's commands) makes an
 * audited change.
 */
export async function audited<T>(client: PrismaClient, entry: AuditEntry, change: (tx: Prisma.TransactionClient) => Promise<T>, target?: (result: T) => AuditEntry["target"]): Promise<T> {
  try {
    return await client.$transaction(async (tx) => {
      const result = await change(tx);
      await auditSucceeded(tx, { ...entry, target: target ? target(result) : entry.target });
      return result;
    });
  } catch (err) {
    if (err instanceof AppError) await auditRefused(client, entry, err);
    throw err;
  }
}

function toAuditEvent(r: Prisma.AuditEventGetPayload<object>): AuditEventData {
  return {
    id: r.id,
    object: "audit_event",
    actor: { type: r.actorType as AuditEventData["actor"]["type"], id: r.actorId, label: r.actorLabel },
    action: r.action,
    target: r.targetType ? { type: r.targetType, id: r.targetId } : null,
    outcome: r.outcome as AuditEventData["outcome"],
    error_code: r.errorCode,
    request_id: r.requestId,
    created_at: r.createdAt.toISOString(),
  };
}

/** The store's audit log, newest first. */
export async function listAuditEvents(db: DbClient, storeId: string, query: ListAuditEventsQueryData): Promise<Page<AuditEventData>> {
  const rows = await db.auditEvent.findMany({ where: { storeId, ...afterCursor("audit_events", query) }, orderBy: NEWEST_FIRST, take: query.limit + 1 });
  return pageOf("audit_events", rows, query.limit, toAuditEvent);
}
