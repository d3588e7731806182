import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { AuditEvent, ListAuditEventsQuery } from "@/lib/schemas/seller/audit";
import { listEnvelope } from "@/lib/schemas/seller/common";

export const listAuditEventsEndpoint = defineEndpoint({
  name: "seller.audit_events.list",
  method: "GET",
  path: "/audit-events",
  operationId: "listAuditEvents",
  summary: "The store's audit log",
  description:
    "Every change to your store's data, newest first: by a key of the store (each POST, PATCH and DELETE of this API), by an owner on the dashboard, or by an operator command; " +
    "every key created or revoked; and every attempt at one that was refused (a missing scope, invalid input, a state that forbids it; not rate-limit refusals). " +
    "A change's event is written in the same transaction as the change: it is listed exactly when the change happened.",
  tags: ["Audit log"],
  access: apiKeyAccess(["audit:read"]),
  query: ListAuditEventsQuery,
  success: { status: 200, description: "A page of audit events.", schema: listEnvelope(AuditEvent) },
  errors: [],
});

export const AUDIT_ENDPOINTS: Endpoint[] = [listAuditEventsEndpoint] as Endpoint[];
