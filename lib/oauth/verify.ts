import type { OAuthPrincipal } from "@/lib/auth/principal";
import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { hashOAuthId } from "./adapter";
import { type ResourceName, resourceMetadataUrl, resourceUrl } from "./resources";

/** oidc-provider's opaque access tokens: URL-safe base64 (43 characters at 256 bits). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,512}$/;
/** First and last use on /account/agents are kept to the minute: at most one write a minute per grant. */
const TOUCH_EVERY_MS = 60_000;

/** `WWW-Authenticate` of a 401 from `resource` (RFC 6750, RFC 9728). */
export function bearerChallenge(resource: ResourceName, error?: { code: "invalid_token" | "invalid_request"; description: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(resource)}"`];
  if (error) parts.unshift(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, "")}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** `WWW-Authenticate` of a 403 for a missing scope: every scope the call needs, so a client can step up. */
export function insufficientScopeChallenge(resource: ResourceName, scopes: readonly string[]): string {
  return `Bearer error="insufficient_scope", scope="${scopes.join(" ")}", resource_metadata="${resourceMetadataUrl(resource)}"`;
}

export function invalidToken(resource: ResourceName, message: string): AppError {
  return new AppError("invalid_token", message, undefined, {
    headers: { "WWW-Authenticate": bearerChallenge(resource, { code: "invalid_token", description: message }) },
  });
}

interface TokenRow {
  payload: { accountId?: unknown; clientId?: unknown; scope?: unknown; aud?: unknown; exp?: unknown };
  grant_id: string;
  user_id: string;
  last_used_at: Date | null;
}

/**
 * The account holder and grant behind an access token for `resource`, checked on every request
 * (no cache, so a revocation takes effect on the next one): the token exists (looked up by its
 * hash), has not expired, was issued for this resource (RFC 8707 audience: a token for the other
 * resource is refused), and its grant is alive (revoked from /account/agents, by RFC 7009 or by
 * refresh-token reuse: the grant's records are gone). Anything else is 401 `invalid_token`.
 */
export async function authenticateAccessToken(client: DbClient, token: string, resource: ResourceName): Promise<OAuthPrincipal> {
  if (!TOKEN_SHAPE.test(token)) throw invalidToken(resource, "The access token is malformed.");
  const [row] = await client.$queryRaw<TokenRow[]>`
    SELECT t.payload, c.grant_id, c.user_id::text AS user_id, c.last_used_at
      FROM oauth_records t
      JOIN oauth_records g ON g.model = 'Grant' AND g.grant_id = t.grant_id AND (g.expires_at IS NULL OR g.expires_at > now())
      JOIN agent_connections c ON c.grant_id = t.grant_id AND c.revoked_at IS NULL
     WHERE t.model = 'AccessToken' AND t.id_hash = ${hashOAuthId(token)} AND t.expires_at > now()`;
  if (!row) throw invalidToken(resource, "The access token is unknown, expired or revoked.");
  const { payload } = row;
  const audience = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audience.length !== 1 || audience[0] !== resourceUrl(resource)) {
    throw invalidToken(resource, "The access token was issued for another resource.");
  }
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= Date.now() || payload.accountId !== row.user_id) {
    throw invalidToken(resource, "The access token is unknown, expired or revoked.");
  }
  if (!row.last_used_at || Date.now() - row.last_used_at.getTime() >= TOUCH_EVERY_MS) {
    await client.$executeRaw`
      UPDATE agent_connections SET last_used_at = now(), first_used_at = coalesce(first_used_at, now())
       WHERE grant_id = ${row.grant_id}`;
  }
  return {
    kind: "oauth",
    userId: row.user_id,
    grantId: row.grant_id,
    clientId: String(payload.clientId),
    scopes: typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [],
  };
}
