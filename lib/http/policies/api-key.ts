import { authenticateApiKey } from "@/lib/auth/api-keys";
import { AppError } from "@/lib/errors";
import { consume } from "@/lib/ratelimit";
import type { Policy } from "../pipeline";
import { rateLimited } from "./rate-limit";
import { withDb } from "../database";

const KEY_IN_QUERY = /^(api_key|apikey|key|access_token|token)$/i;

/**
 * Caller: a store API key in `Authorization: Bearer <key>` (spec 5). A failed authentication (no
 * header, not Bearer, malformed, unknown, wrong secret, revoked) takes a token from a bucket per
 * client IP, so keys cannot be guessed fast; a request with a valid key never touches it.
 */
export const apiKeyCaller: Policy = async (ctx, next) => {
  for (const [name, value] of ctx.request.nextUrl.searchParams) {
    if (KEY_IN_QUERY.test(name) || value.includes("mk_live_")) {
      await failedAttempt(ctx.ip, ctx);
      throw new AppError("api_key_in_query", "API keys are accepted only in the Authorization header; revoke a key that was put in a URL.", name);
    }
  }
  const header = ctx.request.headers.get("authorization");
  try {
    if (header === null) throw new AppError("api_key_missing", "Send your store API key as `Authorization: Bearer mk_live_<key_id>.<secret>`.");
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw new AppError("api_key_invalid", "The Authorization header must be `Bearer <key>`.");
    ctx.principal = await withDb((client) => authenticateApiKey(client, match[1]!));
  } catch (err) {
    if (err instanceof AppError && err.status === 401) await failedAttempt(ctx.ip, ctx);
    throw err;
  }
  return next();
};

async function failedAttempt(ip: string, ctx: Parameters<Policy>[0]) {
  ctx.rateLimit = await consume("auth_failure", "auth_failure", ip);
  if (!ctx.rateLimit.allowed) throw rateLimited("auth_failure", ctx.rateLimit.retryAfter, "authenticate from your address");
}
