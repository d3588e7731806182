/**
 * Spec section 8 and decisions.md: token buckets per client IP (first hop of X-Forwarded-For)
 * and per endpoint; each catalog endpoint 30 burst / 5 per second, POST /cart-links 10 / 1 per
 * second; X-RateLimit-* on every response; 429 with an integer Retry-After and the envelope.
 *
 * The same suite runs against both stores: an app on the in-process store (REDIS_URL unset) and,
 * when this run has Redis, an app on the Redis store. Each app gets a key prefix of its own
 * (tests/setup/app.ts), so no bucket is left over from another run.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startServer, type StartedServer } from "../setup/app";
import { api, type ApiResponse, expectErrorEnvelope, randomClientIp } from "../helpers/http";

const redisUrl = inject("REDIS_URL");
const stores = [
  { store: "in-process", env: { REDIS_URL: undefined } },
  ...(redisUrl ? [{ store: "redis", env: { REDIS_URL: redisUrl } }] : []),
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

describe.each(stores)("rate limits on the $store store", ({ env }) => {
  let server: StartedServer;
  beforeAll(async () => {
    server = await startServer({ databaseUrl: inject("DATABASE_URL"), env, logPrefix: "[rate-limits]" });
    // Load each route once, so that no burst below waits on a cold module.
    for (const path of ["/categories", "/search?q=lamp", "/products/no-such-product"]) await get(path, randomClientIp());
    await mint(randomClientIp());
  });

  /**
   * Opens the connections a burst will use (fetch keeps them alive), each request from its own
   * address: a burst on fresh connections spends most of its time in TCP set-up, spread over more
   * than one refill interval.
   */
  const warmConnections = () => burst(31, () => get("/no-such-endpoint", randomClientIp()));
  afterAll(async () => {
    // The Redis store must have answered every request itself: a fallback to in-process buckets
    // is logged on stderr.
    if (env.REDIS_URL) expect(server.stderr()).not.toContain("rate limiter");
    await server?.stop();
  });

  const get = (path: string, ip: string) => api(`${server.baseUrl}/api/public/v1${path}`, {}, { clientIp: ip });
  const mint = (ip: string) =>
    api(
      `${server.baseUrl}/api/public/v1/cart-links`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        // Valid but unknown listing: 400 no_purchasable_lines, which still spends a token.
        body: JSON.stringify({ items: [{ listing_id: "00000000-0000-4000-8000-000000000000", quantity: 1 }] }),
      },
      { clientIp: ip },
    );

  /** `n` requests at once (a burst well inside one refill interval of 200 ms). */
  const burst = (n: number, send: () => Promise<ApiResponse>) => Promise.all(Array.from({ length: n }, send));
  const statuses = (responses: ApiResponse[]) => responses.map((r) => r.status);

  // Each request takes its token before any work is done, so the tokens of a concurrent burst are
  // all taken within a few milliseconds, well inside one refill interval (200 ms), however long
  // the responses then take. Sequential requests would each give a token time to come back.

  /**
   * capacity + 1 requests at once from a fresh address. A token that comes back during the burst
   * (one every 200 ms on a catalog bucket; a loaded machine can stretch a burst that long) shows
   * as a repeated X-RateLimit-Remaining value and must account for every extra request let
   * through. Tries fresh addresses until one burst fits in one refill interval, and returns it.
   */
  async function exactBurst(capacity: number, send: (ip: string) => Promise<ApiResponse>) {
    for (let attempt = 1; attempt <= 5; attempt++) {
      await warmConnections();
      const ip = randomClientIp();
      const startedAt = Date.now();
      const responses = await burst(capacity + 1, () => send(ip));
      const remaining = responses
        .filter((r) => r.status !== 429)
        .map((r) => Number(r.headers.get("x-ratelimit-remaining")));
      const refills = remaining.length - new Set(remaining).size;
      expect(remaining.length, "requests let through").toBe(capacity + refills);
      if (refills === 0) return { ip, responses, remaining, startedAt };
    }
    throw new Error("no burst fitted in one refill interval in 5 attempts");
  }

  it("a catalog endpoint lets exactly 30 of 31 rapid requests through; the other gets 429", async () => {
    const { responses, remaining } = await exactBurst(30, (ip) => get("/categories", ip));
    expect(statuses(responses).filter((s) => s === 200)).toHaveLength(30);
    const over = responses.filter((r) => r.status === 429);
    expect(over).toHaveLength(1);
    expectErrorEnvelope(over[0]!, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    expect(over[0]!.headers.get("retry-after")).toBe("1");
    expect(over[0]!.headers.get("x-ratelimit-limit")).toBe("30");
    expect(over[0]!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over[0]!.headers.get("cache-control")).toBe("no-store");
    // The 30 that passed saw every whole-token count from 29 down to 0 exactly once.
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("every response carries the X-RateLimit headers, counting down whole tokens", async () => {
    const ip = randomClientIp();
    const before = Math.floor(Date.now() / 1000);
    const remaining: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await get("/search?q=lamp", ip);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("30");
      expect(res.headers.get("retry-after")).toBeNull();
      const reset = res.headers.get("x-ratelimit-reset")!;
      expect(reset).toMatch(/^\d+$/);
      // Full again after the missing tokens come back at 5 a second: at most a few seconds.
      expect(Number(reset)).toBeGreaterThanOrEqual(before);
      expect(Number(reset)).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);
      remaining.push(Number(res.headers.get("x-ratelimit-remaining")));
    }
    // A token may come back between two sequential requests (one every 200 ms).
    expect(remaining[0]).toBe(29);
    expect(remaining[1]).toBeLessThanOrEqual(29);
    expect(remaining[2]).toBeLessThanOrEqual(remaining[1]! + 1);

    const notFound = await get("/products/no-such-product", ip);
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("x-ratelimit-limit")).toBe("30");
    const etag = (await get("/categories", ip)).headers.get("etag")!;
    const notModified = await api(`${server.baseUrl}/api/public/v1/categories`, { headers: { "If-None-Match": etag } }, { clientIp: ip });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("a drained bucket reports when it is full again, and Retry-After is right", async () => {
    const { ip, responses } = await exactBurst(30, (ip) => get("/categories", ip));
    const over = responses.find((r) => r.status === 429)!;
    const now = Date.now() / 1000;
    // 30 tokens at 5 a second: full about 6 s after draining.
    expect(Number(over.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(Math.floor(now + 4));
    expect(Number(over.headers.get("x-ratelimit-reset"))).toBeLessThanOrEqual(Math.ceil(now + 7));
    await sleep(Number(over.headers.get("retry-after")) * 1000);
    expect((await get("/categories", ip)).status).toBe(200);
  });

  /**
   * Requests let through by a burst `elapsed` ms after a bucket was drained, at one token per
   * `interval` ms: the tokens that came back meanwhile, give or take the one that may come back
   * while the burst itself is on its way.
   */
  function expectRefilled(passed: number, elapsed: number, interval: number) {
    const expected = Math.floor(elapsed / interval);
    expect(passed).toBeGreaterThanOrEqual(expected - 1);
    expect(passed).toBeLessThanOrEqual(expected + 1);
  }

  // The bucket's clock starts when the server takes the burst's first request, a little after
  // `startedAt` (more on a loaded machine): waiting some intervals more than the assertion needs
  // keeps it true however late the server took the burst.
  it("refills about 5 requests a second after the burst", async () => {
    const { ip, startedAt } = await exactBurst(30, (ip) => get("/categories", ip));
    await sleep(startedAt + 1400 - Date.now());
    const elapsed = Date.now() - startedAt;
    const passed = statuses(await burst(10, () => get("/categories", ip))).filter((s) => s === 200).length;
    expectRefilled(passed, elapsed, 200);
    expect(passed).toBeGreaterThanOrEqual(4);
  });

  it("endpoints do not share buckets", async () => {
    const { ip } = await exactBurst(30, (ip) => get("/categories", ip));
    const [categories, search, product, link] = await Promise.all([
      get("/categories", ip),
      get("/search?q=lamp", ip),
      get("/products/no-such-product", ip),
      mint(ip),
    ]);
    expect([200, 429]).toContain(categories.status); // a token may have come back meanwhile
    expect(search.status).toBe(200);
    expect(search.headers.get("x-ratelimit-remaining")).toBe("29");
    expect(product.status).toBe(404);
    expect(product.headers.get("x-ratelimit-remaining")).toBe("29");
    expect(link.status).toBe(400);
    expect(link.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("another client IP is unaffected, and the first hop of X-Forwarded-For is the key", async () => {
    // Half of the burst comes through one more proxy: same first hop, so the same bucket.
    let n = 0;
    await exactBurst(30, (ip) => get("/categories", n++ % 2 ? `${ip}, 10.0.0.1` : ip));
    const other = await get("/categories", randomClientIp());
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  it("POST /cart-links lets exactly 10 of 11 rapid requests through; refills 1 a second", async () => {
    const { ip, responses, startedAt } = await exactBurst(10, mint);
    expect(statuses(responses).filter((s) => s === 400)).toHaveLength(10);
    expect(responses.every((r) => r.headers.get("x-ratelimit-limit") === "10")).toBe(true);
    const over = responses.find((r) => r.status === 429)!;
    expectErrorEnvelope(over, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    expect(over.headers.get("retry-after")).toBe("1");
    await sleep(startedAt + 2000 - Date.now());
    const elapsed = Date.now() - startedAt;
    const after = statuses(await burst(4, () => mint(ip)));
    expectRefilled(after.filter((s) => s === 400).length, elapsed, 1000);
    expect(after.filter((s) => s === 400).length).toBeGreaterThanOrEqual(1);
    expect(after).toContain(429);
  });
});
