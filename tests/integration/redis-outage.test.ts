/**
 * Redis going away must not take the API down (decisions: fail open): an app whose Redis stops
 * mid-test keeps answering, and the limiter uses Redis again by itself once it is back. The test
 * runs its own redis-server on a free port (skipped where there is no redis-server binary).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort, startServer, type StartedServer } from "../setup/app";
import { api, randomClientIp } from "../helpers/http";
import { expectQuotedLinesIn } from "../helpers/operations-doc";

function hasRedisServer(): boolean {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const probe = new Redis({ port, lazyConnect: true, retryStrategy: () => 50, maxRetriesPerRequest: 0 });
  probe.on("error", () => {});
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    try {
      if ((await probe.ping()) === "PONG") break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  probe.disconnect();
  return child;
}

async function stopRedis(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!hasRedisServer())("when Redis goes away", () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let server: StartedServer;
  const prefix = `rl-outage-${process.pid}:`;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    server = await startServer({
      databaseUrl: inject("DATABASE_URL"),
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_PREFIX: prefix },
      logPrefix: "[redis outage]",
    });
  });
  afterAll(async () => {
    await server?.stop();
    await stopRedis(redis);
  });

  const search = (ip: string) => api(`${server.baseUrl}/api/public/v1/search?q=lamp`, {}, { clientIp: ip });
  const keysInRedis = async (ip: string) => {
    const client = new Redis({ port, maxRetriesPerRequest: 0 });
    try {
      return await client.keys(`${prefix}*${ip}`);
    } finally {
      client.disconnect();
    }
  };

  it("keeps serving while Redis is down, logs it once, and uses Redis again when it is back", async () => {
    // Up: the bucket lives in Redis. On a loaded machine the app's first connection may take
    // longer than the limiter waits for it (1 s), and its first requests fall back meanwhile
    // (logging it): ask from fresh addresses until one is counted in Redis.
    const deadline = Date.now() + 30_000;
    let counted = false;
    while (!counted) {
      const before = randomClientIp();
      expect((await search(before)).status).toBe(200);
      counted = (await keysInRedis(before)).length === 1;
      if (!counted && Date.now() > deadline) throw new Error("the app never counted a request in Redis");
      if (!counted) await sleep(250);
    }

    // Down: every request still answers, without waiting on Redis, with the rate-limit headers.
    await stopRedis(redis);
    for (let i = 0; i < 10; i++) {
      const started = Date.now();
      const res = await search(randomClientIp());
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("30");
      // Not a speed check: a request that waited on the dead Redis would take ioredis's timeouts
      // several times over, or hang; 10 s catches that however loaded the machine is.
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    // Still limited meanwhile, per instance: the in-process buckets take over. One warning in all
    // (at most one a minute), whether it came now or while the first connection was opening.
    const during = randomClientIp();
    const burst = await Promise.all(Array.from({ length: 40 }, () => search(during)));
    expect(burst.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const warnings = server.stderr().split("\n").filter((l) => l.includes("Redis unreachable"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: "warn" });

    // Back (empty, as after a restart): the limiter finds it again by itself.
    redis = await startRedis(port);
    const after = randomClientIp();
    const resumeBy = Date.now() + 30_000;
    let resumed = false;
    while (!resumed && Date.now() < resumeBy) {
      expect((await search(after)).status).toBe(200);
      resumed = (await keysInRedis(after)).length === 1;
      if (!resumed) await sleep(250);
    }
    expect(resumed).toBe(true);
    expect(server.stderr()).toContain("Redis reachable again");
    // And it limits there: a fresh address drains its Redis bucket.
    const fresh = randomClientIp();
    const statuses = (await Promise.all(Array.from({ length: 40 }, () => search(fresh)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(await keysInRedis(fresh)).toHaveLength(1);

    // docs/operations.md quotes these two lines as the server printed them.
    expectQuotedLinesIn(server.stderr(), (msg) => msg.startsWith("rate limiter:"));
  });
});
