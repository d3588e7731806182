import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { SELLER_ENDPOINTS } from "@/lib/endpoints/seller";
import { sellerOpenApiEndpoint } from "@/lib/endpoints/seller/openapi";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { IDEMPOTENCY_HEADER } from "@/lib/http/policies/idempotency";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "@/lib/schemas/seller/common";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, WEBHOOK_LIMITS } from "@/lib/schemas/seller/webhooks";
import { DELIVERY_TIMEOUT_MS } from "@/lib/webhooks/deliver";
import { JITTER, RETRY_DELAYS_SECONDS } from "@/lib/webhooks/schedule";
import { buildOpenApiDocument, errorCodesOf, errorEnvelope } from "./document";

const seller = RATE_LIMITS.seller;
const authFailure = RATE_LIMITS.auth_failure;

const DESCRIPTION = `Manage one store's listings, stock, shipping templates, orders and returns from your own software, and hear of its events by webhooks.

**Authentication.** Send a store API key as \`Authorization: Bearer mk_live_<key_id>.<secret>\`. Store owners create keys in the seller dashboard; the full key is shown once. No header is 401 \`api_key_missing\`; a header that is not \`Bearer <key>\`, or a malformed, unknown or wrong key, is 401 \`api_key_invalid\`; a revoked key is 401 \`api_key_revoked\`; a key past the expiry it was created with is 401 \`api_key_expired\`; a key of a suspended or closed store is 403 \`store_inactive\`. Never put a key in a URL (400 \`api_key_in_query\`). A key sees only its own store: another store's ids answer 404, never 403.

**Scopes.** A key carries a subset of ${SELLER_SCOPES.map((s) => `\`${s}\``).join(", ")}. Each operation names the scope it needs (its security requirement); a key without it gets 403 \`scope_missing\` naming the scope. Scopes imply nothing: \`listings:write\` does not grant \`listings:read\`.

**Rate limits.** One token bucket per API key across the whole API: ${seller.capacity} requests at once, refilled at ${seller.refillPerSecond} per second. Failed authentications take tokens from a bucket per client IP (${authFailure.capacity} at once, ${authFailure.refillPerSecond} per second), so keys cannot be guessed fast; a request with a valid key never touches it. Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 adds \`Retry-After\` (whole seconds). These are current operating values, not a guarantee.

**Idempotency.** Every POST, PATCH and DELETE accepts an \`${IDEMPOTENCY_HEADER}\` header (1 to 255 printable ASCII characters), scoped to the API key and kept 24 hours. A retry with the same key and body replays the first answer (status and \`data\`) with \`Idempotent-Replayed: true\` and the new request's id; the same key with another body or path is 422 \`idempotency_key_reused\`; a retry while the first request still runs is 409 \`idempotency_key_in_use\` with \`Retry-After\`. Failed requests (4xx, 5xx) are not stored: retry them with the same key after fixing them.

**Lists and cursors.** Lists answer \`{ data, next_cursor, meta: { request_id } }\`, newest first unless an operation says otherwise. \`limit\` is 1 to ${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT}; anything else is 400 \`parameter_invalid\`). Pass \`next_cursor\` back unchanged as \`cursor\` for the next page; it is null on the last page. Cursors are opaque; a cursor that was not handed out is 400.

**Objects and errors.** A single object is \`{ data, meta: { request_id } }\` (create answers 201, other calls 200). Money is integer cents (USD); timestamps are RFC 3339 UTC with milliseconds. Unknown body fields are refused (400, \`param\` names them); unknown query parameters are ignored. Every error uses one envelope, \`{ error: { type, code, message, param?, request_id } }\`; \`code\` is a stable snake_case reason, listed per operation below, and \`param\` names the offending input as you sent it (\`rates[0].min_days\`). Every response carries \`X-Request-Id\`; responses are \`Cache-Control: no-store\` (this document excepted) and carry no CORS headers.`;

const WEBHOOKS_TAG = `Your systems hear of what happens to your store: register an endpoint for event types, and each event is POSTed to it as JSON \`{ type, timestamp, data }\`, \`data\` being the API's own object as it was when the change committed. Events: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\` (\`${WEBHOOK_EVENTS[t].object}\`): ${WEBHOOK_EVENTS[t].when}`).join(" ")}

**Signatures** follow the Standard Webhooks specification: \`webhook-id\` (the event's id, the same on every attempt and replay: deduplicate by it), \`webhook-timestamp\` (Unix seconds of the attempt) and \`webhook-signature\`, \`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed by the base64-decoded part of your secret after whsec_>\`; during the ${WEBHOOK_LIMITS.rotationOverlapHours} hours after a rotation, two such signatures separated by a space. Any Standard Webhooks or Svix library verifies them.

**Delivery.** An event is written in the transaction of the change it reports (a change that rolls back sends nothing) and delivered at least once. Answer 2xx within ${DELIVERY_TIMEOUT_MS / 1000} seconds to acknowledge it; anything else is retried ${RETRY_DELAYS_SECONDS.length} times, the k-th retry after ${RETRY_DELAYS_SECONDS.map(seconds).join(", ")} (each stretched by 0 to ${JITTER * 100} %), about ${Math.round(RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0) / 3600)} hours in all. An answer 410 Gone ends the delivery and disables the endpoint. Every delivery is in the log (\`GET /webhook-deliveries\`) and can be replayed.`;

function seconds(s: number): string {
  return s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${+(s / 3600).toFixed(2)} h`;
}

/** The codes the seller API's operations can answer, in error-table order. */
export function sellerErrorCodes(): ErrorCode[] {
  const used = new Set([...SELLER_ENDPOINTS, sellerOpenApiEndpoint].flatMap(errorCodesOf));
  return ERROR_CODES.filter((code) => used.has(code));
}

function buildSellerDocument() {
  return buildOpenApiDocument([...SELLER_ENDPOINTS, sellerOpenApiEndpoint], {
    title: "Marketplace seller API",
    version: "1.0.0",
    description: DESCRIPTION,
    serverUrl: "/api/v1",
    tags: [
      { name: "Listings", description: "A store's offers for products: price, condition, stock, shipping template and state." },
      { name: "Inventory", description: "Stock adjustments applied atomically in batches." },
      { name: "Shipping templates", description: "Named sets of shipping rates per region and service that listings point to." },
      {
        name: "Orders",
        description:
          "Your store's parts of marketplace orders (`order_part`): an order may hold several stores' lines, and each store sees and fulfils only its own part.",
      },
      { name: "Returns", description: "Returns buyers asked for of your lines, and your moves on them: approve, mark received, refund, reject." },
      { name: "Webhooks", description: WEBHOOKS_TAG },
      { name: "Audit log", description: "Who changed what of your store's data, and what was refused, by key, owner or operator." },
      { name: "Meta", description: "This description of the API." },
    ].filter((tag) => tag.name === "Meta" || SELLER_ENDPOINTS.some((e) => e.tags.includes(tag.name))),
    errorEnvelope: errorEnvelope(sellerErrorCodes()),
  });
}

let cached: ReturnType<typeof buildSellerDocument> | undefined;

/** The seller API's OpenAPI 3.1 document (built once per process). */
export function sellerOpenApiDocument() {
  cached ??= buildSellerDocument();
  return cached;
}
