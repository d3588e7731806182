/**
 * Draining a token bucket from a test, on a machine of any speed or load.
 */
import { expect } from "vitest";

interface LimitedResponse {
  status: number;
  headers: Headers;
}

export interface DrainedBucket<R> {
  responses: R[];
  /** The requests let through (not 429), in response order. */
  passed: R[];
  /** The 429s. */
  over: R[];
  /** Tokens that came back during the burst and were spent by it. */
  refills: number;
  /** Date.now() just before the first request was sent and just after the last answer came. */
  startedAt: number;
  endedAt: number;
}

/**
 * `capacity + extra` requests at once into a full bucket (a fresh client address): it is drained,
 * however long the burst takes. A token that comes back while the burst is on its way (one every
 * `intervalMs`; a loaded machine can stretch a burst over several) lets one more request through
 * and shows as a repeated X-RateLimit-Remaining value. Asserts what holds at any speed: every
 * whole-token count from capacity - 1 down to 0 was seen and none other, each repeat let exactly one
 * more request through, there were no more repeats than refill intervals began during the burst,
 * and every other request got 429. `extra` must exceed the refills a burst can meet.
 */
export async function drainBucket<R extends LimitedResponse>(
  capacity: number,
  intervalMs: number,
  send: () => Promise<R>,
  extra = 10,
): Promise<DrainedBucket<R>> {
  const startedAt = Date.now();
  const responses = await Promise.all(Array.from({ length: capacity + extra }, send));
  const endedAt = Date.now();
  const passed = responses.filter((r) => r.status !== 429);
  const over = responses.filter((r) => r.status === 429);
  const remaining = passed.map((r) => Number(r.headers.get("x-ratelimit-remaining")));
  const refills = remaining.length - new Set(remaining).size;

  expect([...new Set(remaining)].sort((a, b) => a - b), "whole-token counts seen").toEqual(Array.from({ length: capacity }, (_, i) => i));
  expect(passed.length, "requests let through").toBe(capacity + refills);
  expect(refills, "tokens that came back during the burst").toBeLessThanOrEqual(Math.ceil((endedAt - startedAt) / intervalMs) + 1);
  expect(over.length, "the rest were refused: raise `extra` if a burst meets more refills").toBeGreaterThan(0);
  expect(over.length + passed.length).toBe(responses.length);
  return { responses, passed, over, refills, startedAt, endedAt };
}
