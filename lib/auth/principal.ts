import type { Role } from "@/lib/accounts/users";

/**
 * Who is calling. Every authenticated door resolves its credential to one of these, and the scope
 * check (lib/auth/scopes.ts) reads `scopes` of the kinds that carry them.
 */
export interface ApiKeyPrincipal {
  kind: "api_key";
  /** The key's row id (api_keys.id): the rate-limit and idempotency scope. */
  apiKeyId: string;
  /** The `<key_id>` part of the key. */
  keyId: string;
  storeId: string;
  scopes: string[];
}

/** A person signed in with a session cookie (HTML form posts and pages). */
export interface UserPrincipal {
  kind: "user";
  userId: string;
  role: Role;
}

/**
 * An agent holding an OAuth access token an account holder granted (buyer API, agent MCP). It acts
 * for `userId` with the scopes the holder ticked on the consent screen, nothing more.
 */
export interface OAuthPrincipal {
  kind: "oauth";
  /** The account holder the token acts for. */
  userId: string;
  /** The grant (one holder's consent to one client): the rate-limit bucket and the unit of revocation. */
  grantId: string;
  /** The OAuth client (the agent) the token was issued to. */
  clientId: string;
  /** The scopes granted, as issued (the hierarchy is applied by the scope check). */
  scopes: string[];
}

export type Principal = ApiKeyPrincipal | UserPrincipal | OAuthPrincipal;

/** The key under which a principal's rate-limit bucket and idempotency records are kept. */
export function principalKey(principal: Principal): string {
  switch (principal.kind) {
    case "api_key":
      return `api_key:${principal.apiKeyId}`;
    case "user":
      return `user:${principal.userId}`;
    case "oauth":
      return `oauth_grant:${principal.grantId}`;
  }
}

/**
 * The store an API-key caller acts for. Seller routes sit behind `apiKeyAccess`, so their caller
 * is always a key; anything else reaching one is a wiring mistake, not a client error.
 */
export function storeIdOf(principal: Principal): string {
  if (principal.kind !== "api_key") throw new Error(`a store API key is required here, not a ${principal.kind} principal`);
  return principal.storeId;
}

/**
 * The agent an OAuth caller is. Buyer routes and agent MCP tools sit behind an OAuth access
 * policy, so their caller is always a token; anything else reaching one is a wiring mistake.
 */
export function oauthPrincipalOf(principal: Principal): OAuthPrincipal {
  if (principal.kind !== "oauth") throw new Error(`an OAuth access token is required here, not a ${principal.kind} principal`);
  return principal;
}
