import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { IdPath, itemEnvelope, listEnvelope } from "@/lib/schemas/seller/common";
import {
  CreateWebhookEndpoint,
  DeletedWebhookEndpoint,
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  UpdateWebhookEndpoint,
  WEBHOOK_LIMITS,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from "@/lib/schemas/seller/webhooks";

// Reading endpoints and the delivery log needs webhooks:read; changing them, webhooks:write.
const read = apiKeyAccess(["webhooks:read"]);
const write = apiKeyAccess(["webhooks:write"]);
const tags = ["Webhooks"];

export const listWebhookEndpointsEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.list",
  method: "GET",
  path: "/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  summary: "List your webhook endpoints",
  description: "Newest first. Secrets are never listed.",
  tags,
  access: read,
  query: ListWebhookEndpointsQuery,
  success: { status: 200, description: "A page of endpoints.", schema: listEnvelope(WebhookEndpoint) },
  errors: [],
});

export const createWebhookEndpointEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.create",
  method: "POST",
  path: "/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  summary: "Register a webhook endpoint",
  description:
    `From now on, every event of the types in \`events\` is POSTed to \`url\`, signed as the Standard Webhooks specification says, with the \`secret\` of this answer (shown only here). ` +
    `A store has at most ${WEBHOOK_LIMITS.endpointsMax} endpoints. The URL must be https and resolve to public addresses only: otherwise a 400 naming \`url\`.`,
  tags,
  access: write,
  body: CreateWebhookEndpoint,
  idempotent: true,
  success: { status: 201, description: "The endpoint, with its signing secret.", schema: itemEnvelope(WebhookEndpointWithSecret) },
  errors: ["webhook_endpoint_limit_reached"],
});

export const getWebhookEndpointEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.get",
  method: "GET",
  path: "/webhook-endpoints/{id}",
  operationId: "getWebhookEndpoint",
  summary: "Retrieve a webhook endpoint",
  description: "Another store's endpoint is `webhook_endpoint_not_found`, as is an id that does not exist.",
  tags,
  access: read,
  params: IdPath,
  success: { status: 200, description: "The endpoint.", schema: itemEnvelope(WebhookEndpoint) },
  errors: ["webhook_endpoint_not_found"],
});

export const updateWebhookEndpointEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.update",
  method: "PATCH",
  path: "/webhook-endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  summary: "Change a webhook endpoint",
  description:
    "Changes the fields sent. `status: disabled` stops its deliveries (pending ones are skipped); `status: enabled` resumes them for new events, also after the receiver answered 410 Gone.",
  tags,
  access: write,
  params: IdPath,
  body: UpdateWebhookEndpoint,
  idempotent: true,
  success: { status: 200, description: "The endpoint.", schema: itemEnvelope(WebhookEndpoint) },
  errors: ["webhook_endpoint_not_found"],
});

export const deleteWebhookEndpointEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.delete",
  method: "DELETE",
  path: "/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  summary: "Delete a webhook endpoint",
  description: "Nothing more is sent to it, and its delivery log goes with it.",
  tags,
  access: write,
  params: IdPath,
  idempotent: true,
  success: { status: 200, description: "What was deleted.", schema: itemEnvelope(DeletedWebhookEndpoint) },
  errors: ["webhook_endpoint_not_found"],
});

export const rotateWebhookSecretEndpoint = defineEndpoint({
  name: "seller.webhook_endpoints.rotate_secret",
  method: "POST",
  path: "/webhook-endpoints/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Rotate an endpoint's signing secret",
  description:
    `A new secret, shown only in this answer. For the next ${WEBHOOK_LIMITS.rotationOverlapHours} hours every delivery carries two signatures in \`webhook-signature\`, ` +
    "by the new secret and by the previous one, so your receiver can switch to the new one without missing an event. A second rotation within that time drops the oldest secret.",
  tags,
  access: write,
  params: IdPath,
  idempotent: true,
  success: { status: 200, description: "The endpoint, with its new signing secret.", schema: itemEnvelope(WebhookEndpointWithSecret) },
  errors: ["webhook_endpoint_not_found"],
});

export const listWebhookDeliveriesEndpoint = defineEndpoint({
  name: "seller.webhook_deliveries.list",
  method: "GET",
  path: "/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  summary: "The delivery log",
  description: "Every event sent (or to be sent) to your endpoints, newest first: its status, attempts and the receiver's last answer.",
  tags,
  access: read,
  query: ListWebhookDeliveriesQuery,
  success: { status: 200, description: "A page of deliveries.", schema: listEnvelope(WebhookDelivery) },
  errors: ["webhook_endpoint_not_found"],
});

export const getWebhookDeliveryEndpoint = defineEndpoint({
  name: "seller.webhook_deliveries.get",
  method: "GET",
  path: "/webhook-deliveries/{id}",
  operationId: "getWebhookDelivery",
  summary: "Retrieve a delivery",
  description: "Another store's delivery is `webhook_delivery_not_found`, as is an id that does not exist.",
  tags,
  access: read,
  params: IdPath,
  success: { status: 200, description: "The delivery.", schema: itemEnvelope(WebhookDelivery) },
  errors: ["webhook_delivery_not_found"],
});

export const replayWebhookDeliveryEndpoint = defineEndpoint({
  name: "seller.webhook_deliveries.replay",
  method: "POST",
  path: "/webhook-deliveries/{id}/replay",
  operationId: "replayWebhookDelivery",
  summary: "Send a delivery's event again",
  description:
    "A new delivery of the same event to the same endpoint, attempted at once and retried like any other: the same body and the same `webhook-id`, so a receiver that has the event already can tell. " +
    "Its endpoint must be enabled (otherwise 409 `webhook_endpoint_disabled`).",
  tags,
  access: write,
  params: IdPath,
  idempotent: true,
  success: { status: 201, description: "The new delivery.", schema: itemEnvelope(WebhookDelivery) },
  errors: ["webhook_delivery_not_found", "webhook_endpoint_disabled"],
});

export const WEBHOOK_ENDPOINTS: Endpoint[] = [
  listWebhookEndpointsEndpoint,
  createWebhookEndpointEndpoint,
  getWebhookEndpointEndpoint,
  updateWebhookEndpointEndpoint,
  deleteWebhookEndpointEndpoint,
  rotateWebhookSecretEndpoint,
  listWebhookDeliveriesEndpoint,
  getWebhookDeliveryEndpoint,
  replayWebhookDeliveryEndpoint,
] as Endpoint[];
