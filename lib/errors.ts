/**
 * Errors the domain raises, and the one table that gives each code its status and type
 * (decisions.md "Wire conventions"). Domain modules know nothing of HTTP: they throw an AppError
 * with a stable code; lib/http turns it into the envelope. A new code is a new line here.
 */

export const ERROR_TYPES = [
  "invalid_request_error",
  "authentication_error",
  "permission_error",
  "not_found_error",
  "method_not_allowed_error",
  "conflict_error",
  "state_error",
  "idempotency_error",
  "rate_limit_error",
  "payment_error",
  "api_error",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface ErrorDefinition {
  status: number;
  type: ErrorType;
  /** When it happens, in a line: shown in the OpenAPI documents. */
  description: string;
}

export const ERROR_TABLE = {
  // Any surface
  parameter_invalid: { status: 400, type: "invalid_request_error", description: "A parameter or field is invalid; `param` names it." },
  parameter_missing: { status: 400, type: "invalid_request_error", description: "A required field is missing; `param` names it." },
  body_invalid_json: { status: 400, type: "invalid_request_error", description: "The body is not valid JSON." },
  body_too_large: { status: 413, type: "invalid_request_error", description: "The body is larger than 1 MiB." },
  content_type_invalid: { status: 415, type: "invalid_request_error", description: "The body is not sent as `application/json`." },
  route_not_found: { status: 404, type: "not_found_error", description: "No endpoint at this path." },
  method_not_allowed: { status: 405, type: "method_not_allowed_error", description: "The endpoint does not serve this method." },
  rate_limited: { status: 429, type: "rate_limit_error", description: "Too many requests; retry after `Retry-After` seconds." },
  internal_error: { status: 500, type: "api_error", description: "Something failed on the service's side; the body carries no internals." },
  service_unavailable: {
    status: 503,
    type: "api_error",
    description:
      "The service cannot reach its database right now (restarting, overloaded or out of connections). Retry after `Retry-After` seconds; retry a write with the same Idempotency-Key.",
  },

  // Public catalog and cart links
  no_purchasable_lines: { status: 400, type: "invalid_request_error", description: "No line of the cart link can be bought now; `rejected` lists them." },
  picture_too_large: { status: 413, type: "invalid_request_error", description: "An uploaded picture is larger than 10 MiB; `param` names the field." },
  product_not_found: { status: 404, type: "not_found_error", description: "No such product (creating a seller listing: 400, naming `product_id` or `gtin`)." },
  help_article_not_found: { status: 404, type: "not_found_error", description: "No published help article has this slug." },

  // Callers: store API keys
  api_key_missing: { status: 401, type: "authentication_error", description: "No `Authorization: Bearer <key>` header." },
  api_key_invalid: { status: 401, type: "authentication_error", description: "The key is malformed, unknown or its secret is wrong, or the header is not `Bearer <key>`." },
  api_key_revoked: { status: 401, type: "authentication_error", description: "The key was revoked." },
  api_key_expired: { status: 401, type: "authentication_error", description: "The key is past the expiry date it was created with." },
  api_key_in_query: { status: 400, type: "invalid_request_error", description: "A key was sent in the query string; send it only in the Authorization header (and revoke it: URLs are logged)." },
  scope_missing: {
    status: 403,
    type: "permission_error",
    description: "The key or token lacks a scope this operation needs; the message names it (for a token, `WWW-Authenticate` says `error=\"insufficient_scope\"` and lists every scope needed).",
  },
  store_inactive: { status: 403, type: "permission_error", description: "The key's store is suspended or closed." },

  // Callers: OAuth access tokens (buyer API, agent MCP)
  token_missing: { status: 401, type: "authentication_error", description: "No `Authorization: Bearer <access token>` header; `WWW-Authenticate` points at the resource metadata." },
  invalid_token: {
    status: 401,
    type: "authentication_error",
    description: "The access token is malformed, unknown, expired, revoked or issued for the other resource, or the header is not `Bearer <token>`; `WWW-Authenticate` says `error=\"invalid_token\"`.",
  },
  agent_connection_not_found: { status: 404, type: "not_found_error", description: "No live connected agent of this account has that grant id." },
  agent_approval_not_found: { status: 404, type: "not_found_error", description: "No approval request of this account has that id (the holder's page /account/agents/approvals/{id})." },
  agent_approval_closed: { status: 409, type: "state_error", description: "The approval request was already answered, or has expired (15 minutes after the agent asked)." },
  consent_request_gone: { status: 404, type: "not_found_error", description: "The authorization request is over (answered, expired or started in another browser)." },
  consent_already_answered: { status: 409, type: "conflict_error", description: "This authorization request was already answered." },
  consent_wrong_account: { status: 403, type: "permission_error", description: "The consent form was shown to another account than the one signed in now." },
  token_in_query: { status: 400, type: "invalid_request_error", description: "An access token was sent in the query string; send it only in the Authorization header." },

  // Idempotency
  idempotency_key_reused: { status: 422, type: "idempotency_error", description: "The Idempotency-Key was used with another body or path." },
  idempotency_key_in_use: { status: 409, type: "idempotency_error", description: "A request with this Idempotency-Key is still running; retry after `Retry-After`." },

  // Seller API
  listing_not_found: { status: 404, type: "not_found_error", description: "No listing of this store has that id." },
  shipping_template_not_found: { status: 404, type: "not_found_error", description: "No shipping template of this store has that id." },
  api_key_not_found: { status: 404, type: "not_found_error", description: "No key of this store has that id." },
  webhook_endpoint_not_found: { status: 404, type: "not_found_error", description: "No webhook endpoint of this store has that id." },
  webhook_delivery_not_found: { status: 404, type: "not_found_error", description: "No webhook delivery of this store has that id." },
  webhook_endpoint_limit_reached: { status: 409, type: "conflict_error", description: "The store already has the most webhook endpoints it may (16); delete one first." },
  webhook_endpoint_disabled: { status: 409, type: "conflict_error", description: "The endpoint is disabled: enable it before replaying to it." },
  category_not_found: { status: 400, type: "invalid_request_error", description: "No active category has that slug." },
  brand_not_found: { status: 400, type: "invalid_request_error", description: "No brand has that slug." },
  gtin_taken: { status: 409, type: "conflict_error", description: "Another product already has this GTIN; attach to it with `gtin`." },
  sku_taken: { status: 409, type: "conflict_error", description: "Another listing of this store has this SKU." },
  listing_incomplete: { status: 400, type: "invalid_request_error", description: "The listing cannot be published yet; `param` names the first missing field." },
  invalid_transition: { status: 409, type: "state_error", description: "The listing's state does not allow this move; the message names the current state." },
  listing_archived: { status: 409, type: "state_error", description: "An archived listing is read-only." },
  stale_quantity: { status: 409, type: "conflict_error", description: "`expected_quantity` differs from the quantity held; `param` names the adjustment." },
  quantity_negative: { status: 400, type: "invalid_request_error", description: "The adjustment would take the quantity below zero; `param` names it." },

  // A buyer's saved addresses and payment methods (/account)
  address_not_found: { status: 404, type: "not_found_error", description: "No saved address of this account has that id." },
  address_limit_reached: { status: 409, type: "conflict_error", description: "The account already holds the most saved addresses it may (10); delete one first." },
  payment_method_not_found: { status: 404, type: "not_found_error", description: "No saved payment method of this account has that id." },

  // A buyer's cart (buyer API, agent MCP)
  cart_line_not_found: { status: 404, type: "not_found_error", description: "The holder's cart has no line for this listing." },
  cart_full: { status: 409, type: "conflict_error", description: "The cart already holds the most different offers it may (100); remove a line first." },

  // Checkout, orders and returns (buyer API, storefront, seller desk)
  cart_empty: { status: 400, type: "invalid_request_error", description: "There is nothing to buy: the cart has no lines." },
  insufficient_stock: { status: 409, type: "conflict_error", description: "A line asks for more units than the offer has now; `param` names the line and `listing_id` the offer." },
  listing_unavailable: { status: 409, type: "conflict_error", description: "A line's offer can no longer be bought (inactive, unlisted or gone); `param` names the line and `listing_id` the offer." },
  cart_changed: { status: 409, type: "conflict_error", description: "The cart's lines or quantities differ from the ones the buyer was shown (changed elsewhere); nothing was placed." },
  total_changed: { status: 409, type: "conflict_error", description: "The total differs from `expected_total_cents`; `total_cents` carries the new total." },
  agentic_checkout_disabled: { status: 403, type: "permission_error", description: "The marketplace does not let agents place orders (setting `agentic_checkout` is off)." },
  agentic_purchasing_off: { status: 403, type: "permission_error", description: "The account holder has not turned on \"Let agents place orders\" on /account/agents." },
  per_order_limit_exceeded: { status: 403, type: "permission_error", description: "The order's total is above the holder's per-order limit for agents." },
  monthly_limit_exceeded: { status: 403, type: "permission_error", description: "The order's total is above what is left of the holder's monthly limit for agents." },
  payment_declined: { status: 402, type: "payment_error", description: "The payment method was declined; nothing was placed and no stock was taken." },
  shipping_address_missing: { status: 400, type: "invalid_request_error", description: "The account has no default shipping address; its holder sets one on /account." },
  payment_method_missing: { status: 400, type: "invalid_request_error", description: "The account has no default payment method; its holder sets one on /account." },
  ucp_version_unsupported: { status: 400, type: "invalid_request_error", description: "The UCP-Agent's version is newer than the UCP release this business implements (2026-01-11)." },
  acp_api_version_unsupported: { status: 400, type: "invalid_request_error", description: "ACP: the API-Version header is missing or names a version this seller does not speak (2026-04-17)." },
  acp_idempotency_key_missing: { status: 400, type: "idempotency_error", description: "ACP: a POST without an Idempotency-Key." },
  acp_session_not_cancelable: { status: 405, type: "state_error", description: "ACP: the checkout session is completed or canceled already." },
  checkout_session_not_found: { status: 404, type: "not_found_error", description: "No checkout session of this caller has that id." },
  checkout_session_closed: {
    status: 409,
    type: "state_error",
    description: "The checkout session is completed, canceled or expired (the message says which): it cannot change any more; start a new one.",
  },
  order_not_found: { status: 404, type: "not_found_error", description: "No order of this caller has that id." },
  order_transition_invalid: { status: 409, type: "state_error", description: "The order (or the store's part of it) is not in a state that allows this move; the message names its state." },
  order_not_returnable: { status: 409, type: "state_error", description: "Only a delivered order can be returned, within 30 days of delivery." },
  return_not_found: { status: 404, type: "not_found_error", description: "No return of this caller has that id." },
  return_transition_invalid: { status: 409, type: "state_error", description: "The return is not in a state that allows this move; the message names its state." },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** The codes the public catalog API can answer (its OpenAPI document lists only these). */
export const PUBLIC_ERROR_CODES = [
  "parameter_invalid",
  "parameter_missing",
  "body_invalid_json",
  "body_too_large",
  "content_type_invalid",
  "no_purchasable_lines",
  "product_not_found",
  "help_article_not_found",
  "route_not_found",
  "method_not_allowed",
  "rate_limited",
  "internal_error",
  "service_unavailable",
] as const satisfies readonly ErrorCode[];

/** Lines of a cart-link request that could not be accepted (spec 4.4). */
export interface RejectedLine {
  listing_id: string;
  reason: "unavailable" | "insufficient_stock";
}

export interface AppErrorOptions {
  /** Extra fields of `error` in the envelope (`rejected`, `total_cents`, ...). */
  extra?: Record<string, unknown>;
  /** Response headers the error needs (`WWW-Authenticate`, `Retry-After`). */
  headers?: Record<string, string>;
  /**
   * A 400 `invalid_request_error` instead of the code's own status: a reference inside a request
   * body that resolves to nothing (decisions.md: creating a listing for an unknown GTIN is a 400
   * `product_not_found`, while retrieving an unknown product is a 404).
   */
  asInvalidRequest?: boolean;
  /**
   * Every scope the refused call needs (a `scope_missing` raised by the domain, such as agentic
   * checkout's last check): an OAuth surface names them in its `insufficient_scope` challenge.
   */
  requiredScopes?: readonly string[];
}

export class AppError extends Error {
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly asInvalidRequest: boolean;
  readonly requiredScopes?: readonly string[];

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = "AppError";
    this.extra = options.extra;
    this.headers = options.headers;
    this.asInvalidRequest = options.asInvalidRequest ?? false;
    this.requiredScopes = options.requiredScopes;
  }

  get status(): number {
    return this.asInvalidRequest ? 400 : ERROR_TABLE[this.code].status;
  }

  get type(): ErrorType {
    return this.asInvalidRequest ? "invalid_request_error" : ERROR_TABLE[this.code].type;
  }
}
