/**
 * Token-bucket rate limiting for the public API (service-spec section 8, decisions.md "Wire
 * conventions"). Values: ./config.ts. Two stores with identical semantics:
 * - Redis (when REDIS_URL is set): @upstash/ratelimit's token bucket over ioredis, so every app
 *   instance shares one bucket per client.
 * - In-process (otherwise): the same algorithm in an LRU-bounded map, per instance.
 *
 * Fail-open choice: the rate limiter protects the API, it must never take it down. When a Redis
 * call fails or times out (ioredis: no offline queue, 1 s connect and command timeouts),
 * that request is decided by an in-process fallback bucket with the same semantics, so limits
 * still hold per instance while Redis is away (not a free-for-all, not an outage). For 1 s after a
 * failure requests go straight to the fallback, so a hung Redis costs at most one slow request per
 * second. ioredis keeps reconnecting (at most 1 s apart); once Redis answers again it is used
 * again. One JSON line on stderr says so: "Redis unreachable" at most once per 60 s, and
 * "reachable again" on recovery. Buckets counted in the fallback are not carried over to Redis.
 */
import type { RateLimitPolicy } from "./config";
import type { Limiter, RateLimitDecision } from "./core";
import { createMemoryLimiter } from "./memory";
import { createRedisLimiter, type RedisLimiterOptions } from "./redis";

export { RATE_LIMITS, type RateLimitPolicy } from "./config";
export type { Limiter, RateLimitDecision } from "./core";
export type { LimiterLogEntry, RedisLimiterOptions } from "./redis";

export type LimiterOptions =
  | { store: "memory"; /** LRU bound on buckets kept; default 100k. */ maxEntries?: number }
  | ({ store: "redis" } & RedisLimiterOptions);

export function createLimiter(options: LimiterOptions): Limiter {
  return options.store === "redis" ? createRedisLimiter(options) : createMemoryLimiter(options.maxEntries);
}

// Kept on globalThis so that dev-mode module reloads do not open another Redis connection each.
const holder = globalThis as typeof globalThis & { __rateLimiter?: Limiter };

/** The process-wide limiter: Redis store when REDIS_URL is set, else in-process. */
function defaultLimiter(): Limiter {
  const url = process.env.REDIS_URL;
  holder.__rateLimiter ??= url
    ? createLimiter({ store: "redis", url, prefix: process.env.RATE_LIMIT_PREFIX ?? "rl:" })
    : createLimiter({ store: "memory" });
  return holder.__rateLimiter;
}

/** Takes one token from bucket `${bucket}:${clientKey}` under the policy's capacity/refill. */
export function consume(policy: RateLimitPolicy, bucket: string, clientKey: string): Promise<RateLimitDecision> {
  return defaultLimiter().consume(policy, bucket, clientKey);
}

/** Whether bucket `${bucket}:${clientKey}` holds a token now, taking none. */
export function peek(policy: RateLimitPolicy, bucket: string, clientKey: string): Promise<RateLimitDecision> {
  return defaultLimiter().peek(policy, bucket, clientKey);
}

/** Whether the process-wide limiter's shared store (Redis) answers now; null without one. */
export function rateLimitStoreReachable(): Promise<boolean | null> {
  return defaultLimiter().reachable();
}

/** Closes the process-wide limiter (its Redis connection); the next consume() makes a new one. */
export async function closeDefaultLimiter(): Promise<void> {
  const limiter = holder.__rateLimiter;
  holder.__rateLimiter = undefined;
  await limiter?.close();
}

/** X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, plus Retry-After when !allowed. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(d.limit),
    "X-RateLimit-Remaining": String(d.remaining),
    "X-RateLimit-Reset": String(d.resetAt),
  };
  if (!d.allowed) headers["Retry-After"] = String(Math.max(1, d.retryAfter));
  return headers;
}
