import { LRUCache } from "lru-cache";
import { RATE_LIMITS, type RateLimitPolicy } from "./config";
import { refillIntervalMs, toDecision, type Limiter, type RateLimitDecision } from "./core";

/**
 * In-process token buckets. Written here on purpose: there is no well-kept in-memory token-bucket
 * library with exactly the semantics of @upstash/ratelimit's `tokenBucket` Lua script, and both
 * stores must behave identically. This is that script's math, line for line:
 * a new bucket starts full with refilledAt = now; after `numRefills = floor((now - refilledAt) /
 * interval)` whole intervals it gains numRefills tokens (capped at capacity) and refilledAt moves
 * forward by numRefills intervals; a request takes one token or, with none left, is denied without
 * changing the bucket.
 *
 * Entries live in an LRU with a bounded entry count and a TTL of the time until the bucket is full
 * again (a missing entry IS a full bucket), so a flood of client IPs cannot grow memory without
 * bound; under such a flood the least recently used buckets are forgotten (they restart full).
 */
export interface Bucket {
  refilledAt: number;
  tokens: number;
}

export class MemoryBuckets {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(maxEntries = 100_000) {
    this.buckets = new LRUCache<string, Bucket>({ max: maxEntries });
  }

  /** Same result shape as the Lua script: remaining tokens (-1 when denied), next refill (ms). */
  take(key: string, capacity: number, intervalMs: number, now: number): { remaining: number; nextRefillMs: number } {
    const bucket = this.buckets.get(key) ?? { refilledAt: now, tokens: capacity };
    let { refilledAt, tokens } = bucket;
    if (now >= refilledAt + intervalMs) {
      const numRefills = Math.floor((now - refilledAt) / intervalMs);
      tokens = Math.min(capacity, tokens + numRefills);
      refilledAt += numRefills * intervalMs;
    }
    const nextRefillMs = refilledAt + intervalMs;
    if (tokens < 1) return { remaining: -1, nextRefillMs }; // denied: consumes nothing
    const remaining = tokens - 1;
    const msUntilFull = nextRefillMs + (capacity - remaining - 1) * intervalMs - now;
    this.buckets.set(key, { refilledAt, tokens: remaining }, { ttl: Math.max(1, Math.ceil(msUntilFull)) });
    return { remaining, nextRefillMs };
  }

  /** The bucket as take() would find it, unchanged: tokens held now and the next refill (ms). */
  look(key: string, capacity: number, intervalMs: number, now: number): { tokens: number; nextRefillMs: number } {
    const bucket = this.buckets.peek(key);
    if (!bucket) return { tokens: capacity, nextRefillMs: now + intervalMs };
    return refilled(bucket, capacity, intervalMs, now);
  }

  peek(policy: RateLimitPolicy, key: string): RateLimitDecision {
    const now = Date.now();
    const { tokens, nextRefillMs } = this.look(key, RATE_LIMITS[policy].capacity, refillIntervalMs(policy), now);
    return toDecision(policy, tokens >= 1, tokens, nextRefillMs, now);
  }

  decide(policy: RateLimitPolicy, key: string): RateLimitDecision {
    const now = Date.now();
    const { remaining, nextRefillMs } = this.take(key, RATE_LIMITS[policy].capacity, refillIntervalMs(policy), now);
    return toDecision(policy, remaining >= 0, remaining, nextRefillMs, now);
  }
}

/** A bucket's tokens after the whole intervals since its last refill (the script's math, read only). */
export function refilled(bucket: Bucket, capacity: number, intervalMs: number, now: number): { tokens: number; nextRefillMs: number } {
  const numRefills = now >= bucket.refilledAt + intervalMs ? Math.floor((now - bucket.refilledAt) / intervalMs) : 0;
  return { tokens: Math.min(capacity, bucket.tokens + numRefills), nextRefillMs: bucket.refilledAt + (numRefills + 1) * intervalMs };
}

export function createMemoryLimiter(maxEntries?: number): Limiter {
  const buckets = new MemoryBuckets(maxEntries);
  return {
    consume: async (policy, bucket, clientKey) => buckets.decide(policy, `${bucket}:${clientKey}`),
    peek: async (policy, bucket, clientKey) => buckets.peek(policy, `${bucket}:${clientKey}`),
    reachable: async () => null,
    close: async () => {},
  };
}
