import { z } from "../zod";
import { Cursor, Limit, Timestamp, Uuid } from "./common";

/**
 * The store's audit log (issue 34; not in decisions.md, so chosen here and described in the
 * OpenAPI document and docs/seller-api.md "Audit log").
 */

export const AUDIT_ACTOR_TYPES = ["api_key", "user", "operator"] as const;
export const AUDIT_OUTCOMES = ["succeeded", "refused"] as const;

export const AuditEvent = z
  .object({
    id: Uuid,
    object: z.literal("audit_event"),
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES).openapi({ description: "`api_key` (a key of the store), `user` (an owner signed in to the dashboard) or `operator` (an operator command)." }),
        id: z.string().nullable().openapi({ description: "The key's public part (`mk_live_<key_id>`), the user's id; null for the operator." }),
        label: z.string().openapi({ description: "What to call the actor: the key's public part, the user's e-mail address, `operator`." }),
      })
      .strict(),
    action: z.string().openapi({
      example: "listings.create",
      description:
        "What was done or attempted: the API operation (`listings.create`, `inventory.batch`, `orders.ship`, `webhook_endpoints.rotate_secret`, ...), or the dashboard's and operator's equivalent (`api_keys.create`, `api_keys.revoke`, ...).",
    }),
    target: z
      .object({ type: z.string(), id: z.string().nullable() })
      .strict()
      .nullable()
      .openapi({ description: "The object acted on (`listing`, `order`, `return`, `webhook_endpoint`, `api_key`, ...) and its id, when there is one." }),
    outcome: z.enum(AUDIT_OUTCOMES),
    error_code: z.string().nullable().openapi({ description: "Why it was refused (the error envelope's `code`); null when it succeeded." }),
    request_id: z.string().nullable().openapi({ description: "The request's `X-Request-Id`; null for an operator command." }),
    created_at: Timestamp,
  })
  .strict()
  .openapi("AuditEvent", { description: "One change to your store's data, or one refused attempt at one." });
export type AuditEventData = z.output<typeof AuditEvent>;

export const ListAuditEventsQuery = z.object({ limit: Limit, cursor: Cursor });
export type ListAuditEventsQueryData = z.output<typeof ListAuditEventsQuery>;
