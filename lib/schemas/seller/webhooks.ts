import { z } from "../zod";
import { Cursor, Limit, Timestamp, Uuid } from "./common";
import { line } from "./listings";

/**
 * Seller webhooks (issue 34; not in decisions.md, so chosen here and described in the OpenAPI
 * document and docs/seller-api.md "Webhooks"). A store registers endpoints for event types; each
 * event is POSTed to every enabled endpoint that asked for its type, signed as the Standard
 * Webhooks specification says, with the payload `{ type, timestamp, data }` where `data` is the
 * API's own object.
 */

/** What each event type carries in `data`, and when it is sent. */
export const WEBHOOK_EVENTS = {
  "order.created": { object: "order_part", when: "An order with lines of your store was placed (its checkout committed)." },
  "order.canceled": { object: "order_part", when: "You cancelled your part of an order (by the API or the dashboard): the buyer was refunded it." },
  "order_part.shipped": { object: "order_part", when: "Your part of an order was marked shipped (by the API, the dashboard or the operator)." },
  "order_part.delivered": { object: "order_part", when: "Your part of an order was marked delivered." },
  "return.requested": { object: "return", when: "A buyer asked to return lines of yours." },
  "return.refunded": { object: "return", when: "A return of yours was refunded." },
  "listing.sold_out": { object: "listing", when: "A sale took the last unit of a listing that does not allow backorders." },
} as const;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as (keyof typeof WEBHOOK_EVENTS)[];
export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_LIMITS = {
  /** Endpoints a store may have. */
  endpointsMax: 16,
  urlMax: 2048,
  descriptionMax: 200,
  /** How long a rotated-out secret keeps signing, alongside the new one. */
  rotationOverlapHours: 24,
} as const;

const EventType = z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]], { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}` });

const Events = z
  .array(EventType, { error: "must be an array of event types" })
  .min(1, { error: "must name at least one event type" })
  .max(WEBHOOK_EVENT_TYPES.length * 2, { error: `must name at most ${WEBHOOK_EVENT_TYPES.length} event types` })
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((t) => events.includes(t)))
  .openapi({ description: `The event types to send: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")} (duplicates are ignored).` });

const Url = z.string({ error: "must be a string" }).max(WEBHOOK_LIMITS.urlMax, { error: `must be at most ${WEBHOOK_LIMITS.urlMax} characters` }).openapi({
  format: "uri",
  maxLength: WEBHOOK_LIMITS.urlMax,
  example: "https://erp.example.com/hooks/marketplace",
  description:
    "Where events are POSTed: an `https` URL whose host resolves only to public addresses (no private, loopback or link-local address), without credentials. Checked when set and again at every delivery.",
});

const Description = line(WEBHOOK_LIMITS.descriptionMax).nullable().openapi({ description: `Your note on the endpoint, 1 to ${WEBHOOK_LIMITS.descriptionMax} characters.` });

export const CreateWebhookEndpoint = z
  .object({ url: Url, events: Events, description: Description.optional() })
  .strict()
  .openapi("CreateWebhookEndpoint");
export type CreateWebhookEndpointData = z.output<typeof CreateWebhookEndpoint>;

export const UpdateWebhookEndpoint = z
  .object({
    url: Url.optional(),
    events: Events.optional(),
    description: Description.optional(),
    status: z.enum(["enabled", "disabled"], { error: "must be enabled or disabled" }).optional().openapi({
      description: "`disabled` stops deliveries to the endpoint (pending ones are skipped); `enabled` resumes them for new events and clears `disabled_reason`.",
    }),
  })
  .strict()
  .openapi("UpdateWebhookEndpoint");
export type UpdateWebhookEndpointData = z.output<typeof UpdateWebhookEndpoint>;

export const WebhookEndpoint = z
  .object({
    id: Uuid,
    object: z.literal("webhook_endpoint"),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(EventType),
    status: z.enum(["enabled", "disabled"]),
    disabled_reason: z.string().nullable().openapi({ description: "Why it is disabled: yours (`disabled` by you), or the receiver's answer 410 Gone. Null when enabled." }),
    previous_secret_expires_at: Timestamp.nullable().openapi({
      description: `After a rotation, until when the previous secret signs too (${WEBHOOK_LIMITS.rotationOverlapHours} hours); null otherwise.`,
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .openapi("WebhookEndpoint", { description: "Where your store's events are sent." });
export type WebhookEndpointData = z.output<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().openapi({
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    description: "The signing secret (`whsec_` and base64), shown only in this answer: keep it to verify `webhook-signature`.",
  }),
})
  .strict()
  .openapi("WebhookEndpointWithSecret", { description: "An endpoint with its new signing secret: the answer to its creation and to a rotation only." });
export type WebhookEndpointWithSecretData = z.output<typeof WebhookEndpointWithSecret>;

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "skipped"] as const;

export const WebhookDelivery = z
  .object({
    id: Uuid,
    object: z.literal("webhook_delivery"),
    endpoint_id: Uuid,
    event_id: Uuid.openapi({ description: "The event's id: the `webhook-id` header of every attempt, of this delivery and of its replays. Deduplicate by it." }),
    event_type: EventType,
    status: z.enum(DELIVERY_STATUSES).openapi({
      description: "`pending` (to be attempted, or retried at `next_attempt_at`), `delivered` (a 2xx answer), `failed` (the last retry failed, or the receiver answered 410), `skipped` (the endpoint was disabled before it went out).",
    }),
    attempts: z.number().int().min(0),
    last_attempt_at: Timestamp.nullable(),
    last_status: z.number().int().nullable().openapi({ description: "The receiver's HTTP status at the last attempt; null when it gave none (unreachable, timed out) or none was made." }),
    last_error: z.string().nullable().openapi({ description: "Why the last attempt failed, or why the delivery was skipped." }),
    next_attempt_at: Timestamp.nullable(),
    delivered_at: Timestamp.nullable(),
    replay_of: Uuid.nullable().openapi({ description: "The delivery this one replays; null for the first delivery of the event." }),
    created_at: Timestamp,
  })
  .strict()
  .openapi("WebhookDelivery", { description: "One event sent to one endpoint: the delivery log's line." });
export type WebhookDeliveryData = z.output<typeof WebhookDelivery>;

export const ListWebhookEndpointsQuery = z.object({ limit: Limit, cursor: Cursor });
export type ListWebhookEndpointsQueryData = z.output<typeof ListWebhookEndpointsQuery>;

export const ListWebhookDeliveriesQuery = z.object({
  limit: Limit,
  cursor: Cursor,
  endpoint_id: z.string().optional().openapi({ format: "uuid", description: "Only this endpoint's deliveries (an id that is not one of your endpoints: 404)." }),
  status: z.enum(DELIVERY_STATUSES, { error: `must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
});
export type ListWebhookDeliveriesQueryData = z.output<typeof ListWebhookDeliveriesQuery>;

export const DeletedWebhookEndpoint = z
  .object({ id: Uuid, object: z.literal("webhook_endpoint"), deleted: z.literal(true) })
  .strict()
  .openapi("DeletedWebhookEndpoint");
