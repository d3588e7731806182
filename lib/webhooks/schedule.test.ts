import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JITTER, MAX_ATTEMPTS, nextAttemptAt, RETRY_DELAYS_SECONDS } from "./schedule";

describe("the webhook retry schedule", () => {
  it("doubles from 30 s up to 12 h, and retries for at least 72 hours", () => {
    expect(RETRY_DELAYS_SECONDS.slice(0, 4)).toEqual([30, 60, 120, 240]);
    expect(Math.max(...RETRY_DELAYS_SECONDS)).toBe(12 * 3600);
    expect(RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(72 * 3600);
    expect(MAX_ATTEMPTS).toBe(RETRY_DELAYS_SECONDS.length + 1);
  });

  it("the next attempt comes the attempt's delay after the failure, stretched by 0 to 20 %; none after the last", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ATTEMPTS + 3 }), fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (attempts, failedAt, random) => {
        const next = nextAttemptAt(attempts, failedAt, random);
        if (attempts >= MAX_ATTEMPTS) {
          expect(next).toBeNull();
          return;
        }
        const delay = RETRY_DELAYS_SECONDS[attempts - 1]! * 1000;
        const offset = next!.getTime() - failedAt.getTime();
        expect(offset).toBeGreaterThanOrEqual(delay);
        expect(offset).toBeLessThanOrEqual(Math.round(delay * (1 + JITTER)));
      }),
    );
  });
});
