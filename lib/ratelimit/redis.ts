import { createHash } from "node:crypto";
import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "ioredis";
import { logEvent } from "@/lib/log";
import { RATE_LIMITS, type RateLimitPolicy } from "./config";
import { refillIntervalMs, toDecision, type Limiter } from "./core";
import { MemoryBuckets, refilled } from "./memory";

export interface LimiterLogEntry {
  level: "warn" | "info";
  msg: string;
  error?: string;
}

export interface RedisLimiterOptions {
  url: string;
  /** Key prefix, e.g. "rl:" gives keys "rl:search:203.0.113.7". */
  prefix?: string;
  /** Where the fail-open notices go; default: one JSON line on stderr. */
  log?: (entry: LimiterLogEntry) => void;
}

/**
 * Timeouts: a dead Redis fails at once (no offline queue); a hung one costs a request 1 s at most.
 * Not shorter: on a busy event loop a reply can wait behind other work, and a spurious timeout
 * would hand the request to a fresh in-process bucket.
 */
const CONNECT_TIMEOUT_MS = 1_000;
const COMMAND_TIMEOUT_MS = 1_000;
/** After a failed call, requests skip Redis this long (bounds the cost of a hung Redis). */
const SKIP_AFTER_FAILURE_MS = 1_000;
/** At most one "Redis unreachable" line per this period. */
const WARN_EVERY_MS = 60_000;

type RatelimitRedis = ConstructorParameters<typeof Ratelimit>[0]["redis"];

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

/**
 * The two calls @upstash/ratelimit makes for a token bucket (`safeEval`: EVALSHA with its own
 * script hash, then EVAL on an error containing "NOSCRIPT"), served by ioredis against a plain
 * Redis. Upstash's scripts start with `#!lua flags=allow-key-locking`, which Redis 7 rejects, so
 * the adapter runs them without that line, under that body's own SHA.
 */
class IoredisAdapter {
  /** Upstash script hash (SHA-1 of its original text) -> the stripped body and its SHA-1. */
  private readonly scripts = new Map<string, { body: string; sha: string }>();

  constructor(private readonly client: Redis) {}

  async evalsha(hash: string, keys: string[], args: unknown[]): Promise<unknown> {
    const script = this.scripts.get(hash);
    // Unknown hash: answer NOSCRIPT so that Ratelimit falls back to eval(), which registers it.
    // A Redis that lost its script cache (restart) answers NOSCRIPT itself, with the same effect.
    if (!script) throw new Error(`NOSCRIPT No matching script ${hash} (not loaded by this adapter)`);
    return this.client.evalsha(script.sha, keys.length, ...keys, ...args.map(String));
  }

  async eval(script: string, keys: string[], args: unknown[]): Promise<unknown> {
    const body = script.replace(/^#!lua[^\n]*\n/, "");
    this.scripts.set(sha1(script), { body, sha: sha1(body) });
    return this.client.eval(body, keys.length, ...keys, ...args.map(String));
  }
}

const stderrLog = ({ level, msg, ...fields }: LimiterLogEntry) => logEvent(level, msg, fields);

/** Redis-backed buckets shared by all instances; fails open to in-process buckets (see index.ts). */
export function createRedisLimiter({ url, prefix = "rl:", log = stderrLog }: RedisLimiterOptions): Limiter {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false, // no queueing while disconnected: fail at once, decide locally
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 100, 1_000), // reconnect forever, at most 1 s apart
  });
  const adapter = new IoredisAdapter(client);
  const fallback = new MemoryBuckets();
  const ratelimits = new Map<RateLimitPolicy, Ratelimit>();

  let degraded = false;
  let lastWarnAt = -Infinity;
  let skipRedisUntil = 0;

  const markDown = (err: unknown) => {
    const now = Date.now();
    degraded = true;
    skipRedisUntil = now + SKIP_AFTER_FAILURE_MS;
    if (now - lastWarnAt < WARN_EVERY_MS) return;
    lastWarnAt = now;
    const error = err instanceof Error ? err.message || err.name : String(err);
    log({ level: "warn", msg: "rate limiter: Redis unreachable, using in-process buckets", error });
  };
  client.on("error", markDown); // connection errors: logged (throttled), never unhandled

  // Wait for the first connection once, so that a fresh process does not fail open on its first
  // requests merely because the socket was still opening (bounded by CONNECT_TIMEOUT_MS).
  const firstConnect = client.connect().catch(() => undefined);

  const ratelimitFor = (policy: RateLimitPolicy): Ratelimit => {
    let ratelimit = ratelimits.get(policy);
    if (!ratelimit) {
      ratelimit = new Ratelimit({
        redis: adapter as unknown as RatelimitRedis,
        // One token every interval: smoother than refillPerSecond tokens once a second.
        limiter: Ratelimit.tokenBucket(1, `${refillIntervalMs(policy)} ms`, RATE_LIMITS[policy].capacity),
        prefix: prefix.replace(/:$/, ""), // Ratelimit joins prefix and identifier with ":"
        ephemeralCache: false,
        analytics: false,
        timeout: 0, // ioredis' own timeouts apply; Ratelimit's would silently allow
        enableTelemetry: false,
      });
      ratelimits.set(policy, ratelimit);
    }
    return ratelimit;
  };

  return {
    async consume(policy, bucket, clientKey) {
      await firstConnect;
      const key = `${bucket}:${clientKey}`;
      if (client.status === "ready" && Date.now() >= skipRedisUntil) {
        try {
          const { success, remaining, reset } = await ratelimitFor(policy).limit(key);
          if (degraded) {
            degraded = false;
            log({ level: "info", msg: "rate limiter: Redis reachable again, using Redis buckets" });
          }
          return toDecision(policy, success, success ? remaining : -1, reset, Date.now());
        } catch (err) {
          markDown(err);
        }
      } else if (!degraded) {
        markDown(new Error(`Redis connection is ${client.status}`));
      }
      return fallback.decide(policy, key);
    },
    async peek(policy, bucket, clientKey) {
      await firstConnect;
      const key = `${bucket}:${clientKey}`;
      if (client.status === "ready" && Date.now() >= skipRedisUntil) {
        try {
          // Upstash reads the stored bucket as it is (`reset`: its last refill plus one interval);
          // the refills since then are counted here, as its limit script would.
          const { remaining, reset } = await ratelimitFor(policy).getRemaining(key);
          const now = Date.now();
          const interval = refillIntervalMs(policy);
          const { tokens, nextRefillMs } = refilled({ tokens: remaining, refilledAt: reset - interval }, RATE_LIMITS[policy].capacity, interval, now);
          return toDecision(policy, tokens >= 1, tokens, nextRefillMs, now);
        } catch (err) {
          markDown(err);
        }
      }
      return fallback.peek(policy, key);
    },
    async reachable() {
      await firstConnect;
      try {
        return (await client.ping()) === "PONG"; // fails at once while disconnected (no offline queue)
      } catch {
        return false;
      }
    },
    async close() {
      client.disconnect(); // also stops reconnecting
    },
  };
}
