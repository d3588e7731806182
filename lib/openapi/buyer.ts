import { BUYER_SCOPE_TEXT, BUYER_SCOPES, effectiveScopes } from "@/lib/auth/scopes";
import { BUYER_ENDPOINTS } from "@/lib/endpoints/buyer";
import { buyerOpenApiEndpoint } from "@/lib/endpoints/buyer/openapi";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { OAUTH_SCHEME } from "@/lib/http/access";
import { IDEMPOTENCY_HEADER } from "@/lib/http/policies/idempotency";
import { RATE_LIMITS } from "@/lib/ratelimit/config";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "@/lib/schemas/seller/common";
import { buildOpenApiDocument, errorCodesOf, errorEnvelope } from "./document";

/** The scopes in the holder's words, with what each implies (lib/auth/scopes.ts). */
function scopeDescriptions(): Record<string, string> {
  return Object.fromEntries(
    BUYER_SCOPES.map((scope) => {
      const implied = [...effectiveScopes([scope])].filter((s) => s !== scope);
      return [scope, `${BUYER_SCOPE_TEXT[scope]}.${implied.length ? ` Includes ${implied.map((s) => `\`${s}\``).join(" and ")}.` : ""}`];
    }),
  );
}

const buyer = RATE_LIMITS.buyer;
const authFailure = RATE_LIMITS.auth_failure;

const DESCRIPTION = `Act for one account holder: read their profile, cart, orders and returns, change their cart, check out and request returns. This is the API an agent uses once its human has connected it; the same operations are the tools of the agent MCP server at \`/api/agent/mcp\`.

**Authentication.** OAuth 2.1: send an access token issued for this API (the resource \`/api/v1/buyer\`, RFC 8707) as \`Authorization: Bearer <token>\`, nowhere else (a token in the query string is 400 \`token_in_query\`). The authorization server's metadata is at \`/.well-known/oauth-authorization-server/oauth\`; this API's protected resource metadata (RFC 9728) at \`/.well-known/oauth-protected-resource/api/v1/buyer\`. Clients register dynamically (RFC 7591) or by a client ID metadata document, and use the authorization code flow with PKCE (S256). The holder signs in, sees your client on the consent page and grants each scope one by one; they can revoke your access at any time on \`/account/agents\`. Access tokens live 15 minutes; refresh tokens rotate (use the newest: presenting a rotated-out refresh token ends the connection); a refused refresh (\`invalid_target\`, \`invalid_scope\`) spends nothing, so the same refresh token can be retried with the granted resource. Revoking either token at the authorization server's revocation endpoint (RFC 7009) ends the whole connection, as \`/account/agents\` does: every access and refresh token of it. Every 401 carries \`WWW-Authenticate: Bearer resource_metadata="..."\`: no header is \`token_missing\`; a header that is not \`Bearer <token>\` (two tokens, Basic), or a token that is malformed, unknown, expired, revoked, issued for another resource (the agent MCP server's tokens included) or a JWT of any kind is \`invalid_token\`. Revocation takes effect on the next request.

**Scopes.** ${BUYER_SCOPES.map((s) => `\`${s}\``).join(", ")}. \`checkout\` implies \`cart:write\`, which implies \`cart:read\`; \`returns:write\` implies \`returns:read\`. Each operation names the scopes it needs (its security requirement); a token without them gets 403 \`scope_missing\` with \`WWW-Authenticate: Bearer error="insufficient_scope", scope="..."\` naming every scope the call needs, so that you can ask the holder for them. \`POST /checkout\` is checked in the order of agentic checkout's rules: the marketplace's switch, the holder's switch, the per-order and monthly limits, and the \`checkout\` scope last (see the operation).

**Ids of others.** Only the holder's own objects exist here: another holder's order, return or cart line answers 404, never 403.

**Rate limits.** One token bucket per grant (one holder's consent to one client) across this API and the agent MCP server: ${buyer.capacity} requests at once, refilled at ${buyer.refillPerSecond} per second. Failed authentications take tokens from a bucket per client IP (${authFailure.capacity} at once, ${authFailure.refillPerSecond} per second). Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; a 429 adds \`Retry-After\` (whole seconds).

**Idempotency.** Every POST, PATCH and DELETE accepts an \`${IDEMPOTENCY_HEADER}\` header (1 to 255 printable ASCII characters), scoped to the grant and kept 24 hours. A retry with the same key and body replays the first answer (status and \`data\`) with \`Idempotent-Replayed: true\` and the new request's id; the same key with another body or path is 422 \`idempotency_key_reused\`; a retry while the first request still runs is 409 \`idempotency_key_in_use\` with \`Retry-After\`. Failed requests (4xx, 5xx) are not stored: retry them with the same key after fixing them. Always send one with \`POST /checkout\`: a retry with the same key answers the order already placed and never places a second one.

**Lists and cursors.** Lists answer \`{ data, next_cursor, meta: { request_id } }\`, newest first. \`limit\` is 1 to ${LIST_LIMIT_MAX} (default ${LIST_LIMIT_DEFAULT}; anything else is 400 \`parameter_invalid\`). Pass \`next_cursor\` back unchanged as \`cursor\`; it is null on the last page.

**Objects and errors.** A single object is \`{ data, meta: { request_id } }\` (creating an order or a return answers 201, other calls 200). Money is integer cents (USD); timestamps are RFC 3339 UTC with milliseconds; stock counts are never shown (a cart line says only \`in_stock\` and \`purchasable\`). Unknown body fields are refused (400, \`param\` names them); unknown query parameters are ignored, a repeated one is 400. Every error uses one envelope, \`{ error: { type, code, message, param?, request_id } }\` (a refused checkout line adds \`listing_id\`; \`total_changed\` adds \`total_cents\`); \`code\` is a stable snake_case reason, listed per operation below. Every response carries \`X-Request-Id\`; responses are \`Cache-Control: no-store\` (this document excepted) and carry no CORS headers.

**Choices where the contract is silent.** \`POST /cart/lines\` adds to a line of the same listing, capped at 99 units as on the storefront, and refuses an offer that cannot supply the line's quantity (409, nothing changes); \`PATCH\` sets any quantity from 1 to 99 and the line then shows \`purchasable: false\` when the offer cannot supply it. A cart line's \`product_slug\` and \`title\` are null once its product is no longer publicly listed. \`/orders/{id}\` takes an order's id or its number. A checkout retried with the same \`Idempotency-Key\` while the first is still running is 409 \`idempotency_key_in_use\`; once it is done, the stored order. The agent MCP server's \`add_to_cart\`, \`checkout\` and \`request_return\` tools take the key as their \`idempotency_key\` argument, kept for the grant beside this API's keys (under one grant, the same key on a tool and on this API is 422 \`idempotency_key_reused\`); the server has no tool for \`GET /returns/{id}\` (\`list_returns\` shows every return).`;

/** The codes the buyer API's operations can answer, in error-table order. */
export function buyerErrorCodes(): ErrorCode[] {
  const used = new Set([...BUYER_ENDPOINTS, buyerOpenApiEndpoint].flatMap(errorCodesOf));
  return ERROR_CODES.filter((code) => used.has(code));
}

function buildBuyerDocument() {
  return buildOpenApiDocument([...BUYER_ENDPOINTS, buyerOpenApiEndpoint], {
    title: "Marketplace buyer API",
    version: "1.0.0",
    description: DESCRIPTION,
    serverUrl: "/api/v1/buyer",
    tags: [
      { name: "Profile", description: "The account holder the token acts for." },
      { name: "Cart", description: "The holder's own cart, the one they see on the storefront." },
      { name: "Checkout", description: "Placing an order for the holder, within the limits they set." },
      { name: "Orders", description: "The holder's orders, whoever placed them." },
      { name: "Returns", description: "Returns of the holder's delivered orders." },
      { name: "Meta", description: "This description of the API." },
    ],
    errorEnvelope: errorEnvelope(buyerErrorCodes()),
    securitySchemes: {
      [OAUTH_SCHEME]: {
        type: "oauth2",
        description:
          "OAuth 2.1 authorization code flow with PKCE (S256) and the `resource` parameter (RFC 8707) set to this API's URL. " +
          "Authorization server metadata: `/.well-known/oauth-authorization-server/oauth`.",
        flows: {
          authorizationCode: {
            authorizationUrl: "/oauth/authorize",
            tokenUrl: "/oauth/token",
            refreshUrl: "/oauth/token",
            scopes: scopeDescriptions(),
          },
        },
      },
    },
  });
}

let cached: ReturnType<typeof buildBuyerDocument> | undefined;

/** The buyer API's OpenAPI 3.1 document (built once per process). */
export function buyerOpenApiDocument() {
  cached ??= buildBuyerDocument();
  return cached;
}
