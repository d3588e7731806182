import { RATE_LIMITS, type RateLimitPolicy } from "./config";

export interface RateLimitDecision {
  allowed: boolean;
  /** Bucket capacity. */
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Unix seconds (integer) when the bucket is full again. */
  resetAt: number;
  /** Whole seconds (integer >= 1) until one token is available; 0 when allowed. */
  retryAfter: number;
}

export interface Limiter {
  /** Takes one token from bucket `${bucket}:${clientKey}` under the policy's capacity/refill. */
  consume(policy: RateLimitPolicy, bucket: string, clientKey: string): Promise<RateLimitDecision>;
  /** Whether bucket `${bucket}:${clientKey}` holds a token now, taking none (`remaining`: tokens held). */
  peek(policy: RateLimitPolicy, bucket: string, clientKey: string): Promise<RateLimitDecision>;
  /** Whether the shared store answers now: Redis's PING; null for the in-process store. */
  reachable(): Promise<boolean | null>;
  /** Closes connections (Redis store); the limiter must not be used afterwards. */
  close(): Promise<void>;
}

/** Milliseconds per refilled token (rounded like @upstash/ratelimit's duration parser). */
export function refillIntervalMs(policy: RateLimitPolicy): number {
  return Math.round(1000 / RATE_LIMITS[policy].refillPerSecond);
}

/**
 * Both stores answer like the Upstash token-bucket script: `remaining` (negative when denied) and
 * `nextRefillMs`, the ms timestamp of the next single-token refill. Turn that into the headers'
 * values: the bucket is full after the missing tokens have come in, one per interval.
 */
export function toDecision(
  policy: RateLimitPolicy,
  allowed: boolean,
  remaining: number,
  nextRefillMs: number,
  now: number,
): RateLimitDecision {
  const { capacity } = RATE_LIMITS[policy];
  const left = Math.max(0, Math.floor(remaining));
  const missing = capacity - left;
  const fullAtMs = missing <= 0 ? now : nextRefillMs + (missing - 1) * refillIntervalMs(policy);
  return {
    allowed,
    limit: capacity,
    remaining: left,
    resetAt: Math.ceil(fullAtMs / 1000),
    retryAfter: allowed ? 0 : Math.max(1, Math.ceil((nextRefillMs - now) / 1000)),
  };
}
