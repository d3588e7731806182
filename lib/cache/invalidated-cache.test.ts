import { describe, expect, it } from "vitest";
import { InvalidatedCache } from "./invalidated-cache";

/** A load whose answers the test releases by hand. */
function controlledLoad() {
  const pending: Array<(value: { n: number }) => void> = [];
  let calls = 0;
  const load = () => {
    calls++;
    return new Promise<{ n: number }>((resolve) => pending.push(resolve));
  };
  return { load, pending, calls: () => calls };
}

describe("InvalidatedCache", () => {
  it("shares one computation between concurrent fetches and keeps its value", async () => {
    const c = controlledLoad();
    const cache = new InvalidatedCache<{ n: number }>({ max: 10, ttlMs: 60_000 });
    const a = cache.fetch("k", c.load);
    const b = cache.fetch("k", c.load);
    await Promise.resolve();
    c.pending[0]!({ n: 1 });
    expect(await a).toEqual({ n: 1 });
    expect(await b).toEqual({ n: 1 });
    expect(await cache.fetch("k", c.load)).toEqual({ n: 1 });
    expect(c.calls()).toBe(1);
  });

  it("a computation under way when invalidated answers its callers but is not kept", async () => {
    const c = controlledLoad();
    const cache = new InvalidatedCache<{ n: number }>({ max: 10, ttlMs: 60_000 });
    const a = cache.fetch("k", c.load);
    const b = cache.fetch("k", c.load);
    await Promise.resolve();
    cache.invalidate();
    c.pending[0]!({ n: 1 });
    // No caller sees an error (lru-cache rejects aborted fetches unless told otherwise).
    expect(await a).toEqual({ n: 1 });
    expect(await b).toEqual({ n: 1 });
    expect(cache.size).toBe(0);
    const next = cache.fetch("k", c.load);
    await Promise.resolve();
    expect(c.calls()).toBe(2);
    c.pending[1]!({ n: 2 });
    expect(await next).toEqual({ n: 2 });
  });

  it("invalidate empties what was kept", async () => {
    const c = controlledLoad();
    const cache = new InvalidatedCache<{ n: number }>({ max: 10, ttlMs: 60_000 });
    const a = cache.fetch("k", c.load);
    await Promise.resolve();
    c.pending[0]!({ n: 1 });
    await a;
    expect(cache.size).toBe(1);
    cache.invalidate();
    expect(cache.size).toBe(0);
  });
});
