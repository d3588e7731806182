import { consume, RATE_LIMITS, type RateLimitPolicy } from "@/lib/ratelimit";
import type { Policy } from "../pipeline";

/** Which endpoints of the authorization server are rate-limited per client IP, and by which bucket. */
const LIMITED: Record<string, RateLimitPolicy> = {
  "POST /oauth/register": "oauth_register",
  "POST /oauth/token": "oauth_token",
  "POST /oauth/revoke": "oauth_token",
};

/**
 * The authorization server's rate limits (registration: 10 an hour per client IP; token and
 * revocation: a burst of 30, then 5 a second). Over the limit: 429 with Retry-After and an
 * OAuth-style body `{ "error": "rate_limited", "error_description": ... }` (OAuth clients read
 * `error`, not the API envelope).
 */
export const oauthRateLimit: Policy = async (ctx, next) => {
  const policy = LIMITED[`${ctx.request.method} ${ctx.request.nextUrl.pathname.replace(/\/+$/, "")}`];
  if (!policy) return next();
  ctx.rateLimit = await consume(policy, policy, ctx.ip);
  if (ctx.rateLimit.allowed) return next();
  ctx.failure = "rate_limited";
  const { capacity, refillPerSecond } = RATE_LIMITS[policy];
  const rate = refillPerSecond >= 1 ? `${refillPerSecond} per second` : `${Math.round(refillPerSecond * 3600)} per hour`;
  return Response.json(
    { error: "rate_limited", error_description: `Too many requests from your address (a burst of ${capacity}, then ${rate}). Retry after ${ctx.rateLimit.retryAfter} s.` },
    { status: 429 },
  );
};
