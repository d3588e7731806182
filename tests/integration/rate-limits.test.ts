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
import { drainBucket } from "../helpers/rate-limit";

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

  /** A fresh address's bucket drained by one burst (tests/helpers/rate-limit.ts says what it checks). */
  async function drained(capacity: number, intervalMs: number, send: (ip: string) => Promise<ApiResponse>) {
    await warmConnections();
    const ip = randomClientIp();
    return { ip, ...(await drainBucket(capacity, intervalMs, () => send(ip))) };
  }

  it("a catalog endpoint lets 30 rapid requests through, and one more per token that comes back meanwhile; the rest get 429", async () => {
    const { passed, over } = await drained(30, 200, (ip) => get("/categories", ip));
    expect(statuses(passed).every((s) => s === 200)).toBe(true);
    expectErrorEnvelope(over[0]!, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    for (const res of over) {
      expect(res.headers.get("retry-after")).toBe("1");
      expect(res.headers.get("x-ratelimit-limit")).toBe("30");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("a drained bucket reports when it is full again, and Retry-After is right", async () => {
    const { ip, over, startedAt, endedAt } = await drained(30, 200, (ip) => get("/categories", ip));
    // 30 tokens at 5 a second: full about 6 s after it was drained, which happened during the burst.
    const reset = Number(over[0]!.headers.get("x-ratelimit-reset"));
    expect(reset).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000 + 5));
    expect(reset).toBeLessThanOrEqual(Math.ceil(endedAt / 1000 + 7));
    await sleep(Number(over[0]!.headers.get("retry-after")) * 1000);
    expect((await get("/categories", ip)).status).toBe(200);
  });

  /**
   * Requests let through by a burst of `n` sent at `from` and answered by `to`, into a bucket
   * drained by a burst between `drainedFrom` and `drainedBy`, at one token per `interval` ms: at
   * least the tokens of the whole intervals between the drain and the burst (less one the drain
   * may have half used), at most those of every interval that began since the drain started.
   */
  function expectRefilled(passed: number, t: { drainedFrom: number; drainedBy: number; from: number; to: number; interval: number; n: number }) {
    expect(passed).toBeGreaterThanOrEqual(Math.min(t.n, Math.floor((t.from - t.drainedBy) / t.interval) - 1));
    expect(passed).toBeLessThanOrEqual(Math.ceil((t.to - t.drainedFrom) / t.interval) + 1);
  }

  it("refills 5 requests a second after the burst", async () => {
    const { ip, startedAt, endedAt } = await drained(30, 200, (ip) => get("/categories", ip));
    await sleep(endedAt + 1400 - Date.now());
    const from = Date.now();
    const passed = statuses(await burst(12, () => get("/categories", ip))).filter((s) => s === 200).length;
    expectRefilled(passed, { drainedFrom: startedAt, drainedBy: endedAt, from, to: Date.now(), interval: 200, n: 12 });
  });

  it("endpoints do not share buckets", async () => {
    const { ip } = await drained(30, 200, (ip) => get("/categories", ip));
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
    await drained(30, 200, (ip) => get("/categories", n++ % 2 ? `${ip}, 10.0.0.1` : ip));
    const other = await get("/categories", randomClientIp());
    expect(other.status).toBe(200);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  it("POST /cart-links lets 10 rapid requests through (one more per token that comes back meanwhile); refills 1 a second", async () => {
    const { ip, passed, over, startedAt, endedAt } = await drained(10, 1000, mint);
    expect(statuses(passed).every((s) => s === 400)).toBe(true);
    expect([...passed, ...over].every((r) => r.headers.get("x-ratelimit-limit") === "10")).toBe(true);
    expectErrorEnvelope(over[0]!, { status: 429, type: "rate_limit_error", code: "rate_limited" });
    expect(over[0]!.headers.get("retry-after")).toBe("1");
    await sleep(endedAt + 2000 - Date.now());
    const from = Date.now();
    const after = statuses(await burst(8, () => mint(ip)));
    expectRefilled(after.filter((s) => s === 400).length, { drainedFrom: startedAt, drainedBy: endedAt, from, to: Date.now(), interval: 1000, n: 8 });
    expect(after.filter((s) => s !== 400).every((s) => s === 429)).toBe(true);
  });
});
