import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  RATE_LIMITS,
  createLimiter,
  rateLimitHeaders,
  type Limiter,
  type LimiterLogEntry,
  type RateLimitPolicy,
} from "@/lib/ratelimit";
import { freePort } from "../setup/ports";

// Real Redis only (no mocks): the Redis half runs when REDIS_URL is set, e.g.
//   REDIS_URL=redis://127.0.0.1:6379 npx vitest run --project unit tests/unit/ratelimit
const REDIS_URL = process.env.REDIS_URL;
const PREFIX = `rl-test-${randomUUID()}:`; // this run's keys only; deleted in afterAll
const HAS_REDIS_SERVER = spawnSync("redis-server", ["--version"]).status === 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newKey = () => randomUUID();

/** Consumes until the first denial; returns how many were allowed. */
async function drain(limiter: Limiter, policy: RateLimitPolicy, bucket: string, key: string): Promise<number> {
  for (let allowed = 0; allowed <= 100; allowed++) {
    if (!(await limiter.consume(policy, bucket, key)).allowed) return allowed;
  }
  throw new Error("never denied");
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}


const isIntegerString = (value: string) => /^\d+$/.test(value);

afterAll(async () => {
  if (!REDIS_URL) return;
  const admin = new Redis(REDIS_URL);
  try {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await admin.scan(cursor, "MATCH", `${PREFIX}*`, "COUNT", 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    await admin.quit();
  }
});

const redisLog: LimiterLogEntry[] = [];
const stores = [
  { store: "memory", skip: false, make: () => createLimiter({ store: "memory" }) },
  {
    store: "redis",
    skip: !REDIS_URL,
    make: () => createLimiter({ store: "redis", url: REDIS_URL ?? "", prefix: PREFIX, log: (e) => redisLog.push(e) }),
  },
];

describe.each(stores)("$store store", ({ store, skip, make }) => {
  describe.skipIf(skip)("token bucket", () => {
    let limiter: Limiter | undefined;
    const limiterFor = () => (limiter ??= make());
    afterAll(async () => {
      await limiter?.close();
    });

    it("peek says whether a token is there, taking none, and sees the refills as consume does", async () => {
      const key = newKey();
      const full = await limiterFor().peek("cart_links", "peek", key);
      expect(full).toMatchObject({ allowed: true, remaining: RATE_LIMITS.cart_links.capacity, retryAfter: 0 });
      for (let i = 0; i < 3; i++) await limiterFor().peek("cart_links", "peek", key);
      expect(await drain(limiterFor(), "cart_links", "peek", key)).toBe(RATE_LIMITS.cart_links.capacity);
      const empty = await limiterFor().peek("cart_links", "peek", key);
      expect(empty).toMatchObject({ allowed: false, remaining: 0 });
      expect(empty.retryAfter).toBeGreaterThanOrEqual(1);
      // cart_links refills one a second.
      await waitFor("a refilled token", async () => (await limiterFor().peek("cart_links", "peek", key)).allowed, 3_000);
      expect((await limiterFor().peek("cart_links", "peek", key)).remaining).toBeGreaterThanOrEqual(1);
      expect((await limiterFor().consume("cart_links", "peek", key)).allowed).toBe(true);
    });

    it.each(["catalog", "cart_links"] as const)("allows exactly capacity rapid requests of %s, then denies", async (policy) => {
      expect(await drain(limiterFor(), policy, "search", newKey())).toBe(RATE_LIMITS[policy].capacity);
    });

    it("counts remaining down from 29 to 0, with integer reset and retry-after", async () => {
      const key = newKey();
      const { capacity, refillPerSecond } = RATE_LIMITS.catalog;
      const remaining: number[] = [];
      for (let i = 0; i < capacity; i++) {
        const d = await limiterFor().consume("catalog", "search", key);
        const now = Date.now() / 1000;
        expect(d.allowed).toBe(true);
        expect(d.limit).toBe(30);
        expect(d.retryAfter).toBe(0);
        expect(Number.isInteger(d.resetAt)).toBe(true);
        // Full again once the missing tokens have come in, one every 1/rate s (reset is rounded up).
        const missing = capacity - d.remaining;
        expect(d.resetAt).toBeGreaterThan(now + (missing - 1) / refillPerSecond - 0.1);
        expect(d.resetAt).toBeLessThanOrEqual(Math.ceil(now + missing / refillPerSecond) + 1);
        expect(Object.keys(rateLimitHeaders(d))).toEqual(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]);
        remaining.push(d.remaining);
      }
      expect(remaining).toEqual(Array.from({ length: capacity }, (_, i) => capacity - 1 - i));

      const denied = await limiterFor().consume("catalog", "search", key);
      expect(denied).toMatchObject({ allowed: false, limit: 30, remaining: 0 });
      expect(Number.isInteger(denied.retryAfter)).toBe(true);
      expect(denied.retryAfter).toBeGreaterThanOrEqual(1);
      expect(denied.retryAfter).toBeLessThanOrEqual(Math.ceil(1 / refillPerSecond) + 1);
      const headers = rateLimitHeaders(denied);
      expect(headers).toMatchObject({ "X-RateLimit-Limit": "30", "X-RateLimit-Remaining": "0" });
      expect(headers["Retry-After"]).toBe(String(denied.retryAfter));
      expect(Object.values(headers).every(isIntegerString)).toBe(true);
    });

    it("refills about 5 tokens a second for catalog", async () => {
      const key = newKey();
      expect(await drain(limiterFor(), "catalog", "search", key)).toBe(30);
      await sleep(1_000);
      const refilled = await drain(limiterFor(), "catalog", "search", key);
      expect(refilled).toBeGreaterThanOrEqual(4);
      expect(refilled).toBeLessThanOrEqual(6);
    });

    it("refills 1 token a second for cart_links, and denied requests consume nothing", async () => {
      const key = newKey();
      expect(await drain(limiterFor(), "cart_links", "cart-links", key)).toBe(10);
      for (let i = 0; i < 20; i++) {
        expect((await limiterFor().consume("cart_links", "cart-links", key)).allowed).toBe(false);
      }
      await sleep(1_100);
      // Had the 20 denials taken tokens, the bucket would still be in debt here.
      expect(await drain(limiterFor(), "cart_links", "cart-links", key)).toBe(1);
    });

    it("keeps buckets and client keys apart", async () => {
      const key = newKey();
      expect(await drain(limiterFor(), "catalog", "search", key)).toBe(30);
      expect(await limiterFor().consume("catalog", "product", key)).toMatchObject({ allowed: true, remaining: 29 });
      expect(await limiterFor().consume("catalog", "search", newKey())).toMatchObject({ allowed: true, remaining: 29 });
      expect((await limiterFor().consume("catalog", "search", key)).allowed).toBe(false);
    });

    if (store === "redis") {
      it("answered every request from Redis (never failed open)", () => {
        expect(redisLog).toEqual([]);
      });
    }
  });
});

describe.skipIf(!REDIS_URL)("Redis store", () => {
  const url = REDIS_URL ?? "";
  const opened: Limiter[] = [];
  const open = (options: { url: string; log?: (e: LimiterLogEntry) => void }) => {
    const limiter = createLimiter({ store: "redis", prefix: PREFIX, ...options });
    opened.push(limiter);
    return limiter;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((l) => l.close()));
  });

  it("keeps the bucket in Redis under the prefix, with an expiry", async () => {
    const key = newKey();
    await open({ url }).consume("catalog", "search", key);
    const admin = new Redis(url);
    try {
      expect(await admin.hget(`${PREFIX}search:${key}`, "tokens")).toBe("29");
      expect(await admin.pttl(`${PREFIX}search:${key}`)).toBeGreaterThan(0);
    } finally {
      await admin.quit();
    }
  });

  it("shares one bucket between two instances (two connections)", async () => {
    const [a, b] = [open({ url }), open({ url })];
    const key = newKey();
    for (let i = 0; i < 15; i++) expect((await a.consume("catalog", "search", key)).allowed).toBe(true);
    for (let i = 0; i < 15; i++) expect((await b.consume("catalog", "search", key)).allowed).toBe(true);
    expect((await a.consume("catalog", "search", key)).allowed).toBe(false);
    expect((await b.consume("catalog", "search", key)).allowed).toBe(false);
  });

  it("fails open to in-process buckets, quickly, logging once", async () => {
    const log: LimiterLogEntry[] = [];
    const limiter = open({ url: `redis://127.0.0.1:${await freePort()}`, log: (e) => log.push(e) });
    const key = newKey();
    const allowed: boolean[] = [];
    for (let i = 0; i < 35; i++) {
      const started = Date.now();
      allowed.push((await limiter.consume("catalog", "search", key)).allowed);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
    // Still limited, per instance: 30 allowed, then denied.
    expect(allowed.filter(Boolean)).toHaveLength(30);
    expect(allowed[29]).toBe(true);
    expect(allowed[30]).toBe(false);
    await sleep(1_500); // reconnect attempts keep failing meanwhile
    expect((await limiter.consume("catalog", "product", key)).allowed).toBe(true);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ level: "warn", msg: "rate limiter: Redis unreachable, using in-process buckets" });
    expect(log[0]?.error).toBeTruthy();
  });

  describe.skipIf(!HAS_REDIS_SERVER)("with its own redis-server", () => {
    let child: ChildProcess | undefined;
    let admin: Redis | undefined;
    afterEach(async () => {
      admin?.disconnect();
      admin = undefined;
      await stop(child);
      child = undefined;
    });

    async function stop(proc: ChildProcess | undefined): Promise<void> {
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once("exit", resolve));
      proc.kill("SIGKILL");
      await exited;
    }

    it("recovers when Redis comes up, and fails open again when it goes away", async () => {
      const port = await freePort();
      const log: LimiterLogEntry[] = [];
      const limiter = open({ url: `redis://127.0.0.1:${port}`, log: (e) => log.push(e) });

      // Down from the start: allowed by the in-process bucket.
      expect((await limiter.consume("catalog", "search", newKey())).allowed).toBe(true);
      expect(log.map((e) => e.level)).toEqual(["warn"]);

      child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: "ignore",
      });
      admin = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1, retryStrategy: () => 100 });
      admin.on("error", () => {}); // refused until the server listens
      const probeAdmin = admin;
      await waitFor("redis-server", async () => (await probeAdmin.ping().catch(() => "")) === "PONG");

      // The limiter reconnects by itself and goes back to Redis.
      await waitFor("the limiter to use Redis again", async () => {
        const key = newKey();
        await limiter.consume("catalog", "probe", key);
        return (await probeAdmin.exists(`${PREFIX}probe:${key}`)) === 1;
      });
      expect(log.at(-1)).toMatchObject({ level: "info", msg: "rate limiter: Redis reachable again, using Redis buckets" });

      const key = newKey();
      expect(await drain(limiter, "catalog", "search", key)).toBe(30);
      expect(await probeAdmin.hget(`${PREFIX}search:${key}`, "tokens")).toBe("0");

      // Redis goes away again: requests are allowed (this key's in-process bucket is fresh), fast.
      admin.disconnect();
      admin = undefined;
      await stop(child);
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        expect((await limiter.consume("catalog", "search", key)).allowed).toBe(true);
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      // The second outage falls inside the 60 s window: no second warning.
      expect(log.filter((e) => e.level === "warn")).toHaveLength(1);
    });
  });
});
