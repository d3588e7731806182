import type { BuyerScope, Scope } from "@/lib/auth/scopes";
import type { ResourceName } from "@/lib/oauth/resources";
import type { ErrorCode } from "@/lib/errors";
import type { RateLimitPolicy } from "@/lib/ratelimit";
import type { Policy } from "./pipeline";
import { apiKeyCaller } from "./policies/api-key";
import { oauthCaller, requireTokenScopes } from "./policies/oauth-token";
import { publicCors } from "./policies/public-cors";
import { callerRateLimit, ipRateLimit } from "./policies/rate-limit";
import { requireScopes } from "./policies/scope";

/**
 * Who may call an endpoint, as the policies that check it and what its OpenAPI operation says
 * about it (security requirement, the errors the check can answer).
 */
export interface Access {
  policies: Policy[];
  /** OpenAPI security requirement: scheme name -> scopes; `[]` for a public operation. */
  security: Array<Record<string, string[]>>;
  errors: ErrorCode[];
  /**
   * The scopes the policies require of the caller (with the hierarchy), when they check any: what
   * another door onto the same operation (an agent MCP tool) must require too.
   */
  scopes?: readonly Scope[];
}

/** Anyone, from any origin: a token from this endpoint's bucket per client IP first. */
export function publicAccess(limit: RateLimitPolicy): Access {
  return { policies: [publicCors, ipRateLimit(limit)], security: [], errors: ["rate_limited"] };
}

export const API_KEY_SCHEME = "storeApiKey";

/** A store API key holding `scopes`; one bucket per key across the seller API. */
export function apiKeyAccess(scopes: readonly Scope[]): Access {
  return {
    policies: [apiKeyCaller, callerRateLimit("seller"), requireScopes(scopes)],
    security: [{ [API_KEY_SCHEME]: [...scopes] }],
    errors: ["api_key_missing", "api_key_invalid", "api_key_revoked", "api_key_expired", "api_key_in_query", "scope_missing", "store_inactive", "rate_limited"],
  };
}

export const OAUTH_SCHEME = "oauth2";

/**
 * An OAuth access token issued for `resource` (RFC 8707 audience) granting `scopes`; one bucket
 * per grant across the buyer API and the agent MCP server. `scopes` empty: any valid token (an
 * operation whose scope the domain checks last, as agentic checkout does).
 */
export function oauthAccess(resource: ResourceName, scopes: readonly BuyerScope[], documentedScopes: readonly BuyerScope[] = scopes): Access {
  return {
    policies: [oauthCaller(resource), callerRateLimit("buyer"), requireTokenScopes(scopes)],
    security: [{ [OAUTH_SCHEME]: [...documentedScopes] }],
    scopes,
    errors: ["token_missing", "invalid_token", "token_in_query", "scope_missing", "rate_limited"],
  };
}

/**
 * What the seller API answers without a caller (405s, 404s): no CORS, and a token from the
 * client address's failed-authentication bucket, so probing it costs what guessing keys costs.
 */
export function sellerFallbackAccess(): Access {
  return { policies: [ipRateLimit("auth_failure", "auth_failure")], security: [], errors: ["rate_limited"] };
}

/** The buyer API's 404s and 405s: the same as the seller API's (no CORS, the failed-authentication bucket). */
export function buyerFallbackAccess(): Access {
  return sellerFallbackAccess();
}

/** Anyone, without CORS (an authenticated surface's own description): this endpoint's bucket per client IP. */
export function ipAccess(limit: RateLimitPolicy): Access {
  return { policies: [ipRateLimit(limit)], security: [], errors: ["rate_limited"] };
}
