import { missingScopes, type BuyerScope } from "@/lib/auth/scopes";
import { AppError } from "@/lib/errors";
import { consume } from "@/lib/ratelimit";
import { authenticateAccessToken, bearerChallenge, insufficientScopeChallenge, invalidToken } from "@/lib/oauth/verify";
import type { ResourceName } from "@/lib/oauth/resources";
import type { Policy, RequestCtx } from "../pipeline";
import { rateLimited } from "./rate-limit";
import { withDb } from "../database";

const TOKEN_IN_QUERY = /^(access_token|token|bearer|api_key|apikey|key)$/i;

/**
 * Caller: an OAuth access token for `resource` in `Authorization: Bearer <token>` (RFC 6750 section
 * 2.1 only: never the query string or a form body). A failed authentication takes a token from the
 * client address's failed-authentication bucket, as a bad API key does. Every 401 carries
 * `WWW-Authenticate` pointing at the resource's RFC 9728 metadata; a scope refused further in
 * (by the scope policy or the domain) goes out as 403 with an `insufficient_scope` challenge.
 */
export function oauthCaller(resource: ResourceName): Policy {
  return async (ctx, next) => {
    try {
      for (const name of ctx.request.nextUrl.searchParams.keys()) {
        if (TOKEN_IN_QUERY.test(name)) {
          throw new AppError("token_in_query", "Access tokens are accepted only in the Authorization header.", name, {
            headers: { "WWW-Authenticate": bearerChallenge(resource, { code: "invalid_request", description: "Send the token in the Authorization header." }) },
          });
        }
      }
      const header = ctx.request.headers.get("authorization");
      if (header === null) {
        throw new AppError("token_missing", "Send an OAuth access token as `Authorization: Bearer <token>`; WWW-Authenticate points at how to get one.", undefined, {
          headers: { "WWW-Authenticate": bearerChallenge(resource) },
        });
      }
      const match = /^Bearer +(\S+) *$/i.exec(header);
      if (!match) throw invalidToken(resource, "The Authorization header must be `Bearer <token>`.");
      ctx.principal = await withDb((client) => authenticateAccessToken(client, match[1]!, resource));
    } catch (err) {
      if (err instanceof AppError && (err.status === 401 || err.code === "token_in_query")) await failedAttempt(ctx);
      throw err;
    }
    try {
      return await next();
    } catch (err) {
      throw withScopeChallenge(err, resource);
    }
  };
}

/** The token must grant every scope of `required` (with the hierarchy of lib/auth/scopes.ts). */
export function requireTokenScopes(required: readonly BuyerScope[]): Policy {
  return (ctx, next) => {
    const held = ctx.principal?.kind === "oauth" ? ctx.principal.scopes : [];
    const missing = missingScopes(held, required);
    if (missing.length > 0) {
      throw new AppError("scope_missing", `This operation needs the scope ${missing.map((s) => `'${s}'`).join(" and ")}, which this token was not granted.`, undefined, {
        requiredScopes: required,
      });
    }
    return next();
  };
}

/** A `scope_missing` (from a policy or the domain) with the challenge naming every scope the call needs. */
function withScopeChallenge(err: unknown, resource: ResourceName): unknown {
  if (!(err instanceof AppError) || err.code !== "scope_missing" || !err.requiredScopes) return err;
  return new AppError(err.code, err.message, err.param, {
    extra: err.extra,
    headers: { ...err.headers, "WWW-Authenticate": insufficientScopeChallenge(resource, err.requiredScopes) },
    requiredScopes: err.requiredScopes,
  });
}

async function failedAttempt(ctx: RequestCtx) {
  ctx.rateLimit = await consume("auth_failure", "auth_failure", ctx.ip);
  if (!ctx.rateLimit.allowed) throw rateLimited("auth_failure", ctx.rateLimit.retryAfter, "authenticate from your address");
}
