/**
 * Scopes a caller may hold (decisions.md): a store API key carries a subset of the seller scopes;
 * an OAuth token (buyer API, agent MCP) a subset of the buyer scopes. One check serves both, with
 * the hierarchy of decisions.md: `checkout` implies `cart:write`, which implies `cart:read`;
 * `returns:write` implies `returns:read`. Seller scopes imply nothing: `listings:write` does not
 * grant `listings:read`.
 */
export const SELLER_SCOPES = ["listings:read", "listings:write", "shipping:write", "orders:read", "orders:write", "webhooks:read", "webhooks:write", "audit:read"] as const;
export const BUYER_SCOPES = ["profile:read", "cart:read", "cart:write", "orders:read", "returns:read", "returns:write", "checkout"] as const;

export type SellerScope = (typeof SELLER_SCOPES)[number];
export type BuyerScope = (typeof BUYER_SCOPES)[number];
export type Scope = SellerScope | BuyerScope;

/**
 * Each buyer scope in plain words, as the holder reads it on the consent screen and on
 * /account/agents, and as the buyer API's OpenAPI document describes it: one wording everywhere.
 */
export const BUYER_SCOPE_TEXT: Record<BuyerScope, string> = {
  "profile:read": "See your name and e-mail address",
  "cart:read": "See your cart",
  "cart:write": "Add, change and remove items in your cart",
  "orders:read": "See your orders",
  "returns:read": "See your returns",
  "returns:write": "Ask for returns of your delivered orders",
  checkout: "Place orders for you, paid with your default payment method and shipped to your default address, within your agent spending limits",
};

const IMPLIES: Partial<Record<Scope, Scope[]>> = {
  checkout: ["cart:write"],
  "cart:write": ["cart:read"],
  "returns:write": ["returns:read"],
};

/** The scopes held, with everything they imply. */
export function effectiveScopes(held: readonly string[]): Set<string> {
  const out = new Set<string>();
  const visit = (scope: string) => {
    if (out.has(scope)) return;
    out.add(scope);
    for (const implied of IMPLIES[scope as Scope] ?? []) visit(implied);
  };
  held.forEach(visit);
  return out;
}

/** The scopes of `required` that `held` does not grant (empty when the caller may proceed). */
export function missingScopes(held: readonly string[], required: readonly Scope[]): Scope[] {
  const granted = effectiveScopes(held);
  return required.filter((scope) => !granted.has(scope));
}

export function isSellerScope(value: string): value is SellerScope {
  return (SELLER_SCOPES as readonly string[]).includes(value);
}
