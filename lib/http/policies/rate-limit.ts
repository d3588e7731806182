import { AppError } from "@/lib/errors";
import { consume, RATE_LIMITS, type RateLimitPolicy } from "@/lib/ratelimit";
import { principalKey } from "@/lib/auth/principal";
import type { Policy } from "../pipeline";

/**
 * A token from this endpoint's own bucket per client IP, taken before any work (public API).
 * `bucket` names a bucket several endpoints share instead (every way of signing in takes from one).
 */
export function ipRateLimit(policy: RateLimitPolicy, bucket?: string): Policy {
  return async (ctx, next) => {
    ctx.rateLimit = await consume(policy, bucket ?? ctx.routeName, ctx.ip);
    if (!ctx.rateLimit.allowed) throw rateLimited(policy, ctx.rateLimit.retryAfter, "this endpoint from your address");
    return next();
  };
}

/** A token from the caller's own bucket, shared by every route of the surface (after the caller policy). */
export function callerRateLimit(policy: RateLimitPolicy): Policy {
  return async (ctx, next) => {
    if (!ctx.principal) throw new Error("callerRateLimit needs a caller policy before it");
    ctx.rateLimit = await consume(policy, policy, principalKey(ctx.principal));
    if (!ctx.rateLimit.allowed) throw rateLimited(policy, ctx.rateLimit.retryAfter, "this API with this credential");
    return next();
  };
}

export function rateLimited(policy: RateLimitPolicy, retryAfter: number, what: string): AppError {
  const { capacity, refillPerSecond } = RATE_LIMITS[policy];
  return new AppError(
    "rate_limited",
    `Too many requests to ${what} (a burst of ${capacity}, then ${refillPerSecond} per second). Retry after ${retryAfter} s.`,
  );
}
