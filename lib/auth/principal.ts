/**
 * Who is calling. Every authenticated door resolves its credential to one of these, and the scope
 * check (lib/auth/scopes.ts) reads `scopes` whatever the kind. OAuth tokens will resolve to a
 * principal of their own kind beside the API key's.
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

export type Principal = ApiKeyPrincipal;

/** The key under which a principal's rate-limit bucket and idempotency records are kept. */
export function principalKey(principal: Principal): string {
  return `${principal.kind}:${principal.apiKeyId}`;
}
