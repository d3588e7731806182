/**
 * When a failed webhook delivery is attempted again (every channel: seller endpoints and commerce
 * platforms). The k-th retry comes `RETRY_DELAYS_SECONDS[k-1]` after the k-th failed attempt,
 * stretched by a random jitter of 0 to 20 % so that receivers that failed together are not
 * retried together: 30 s, 1, 2, 4, 8, 16, 32 min, 1 h 04, 2 h 08, 4 h 16, 8 h 32, then 12 h five
 * times. 17 attempts in all; the last comes 77 to 92.5 hours after the first, then the delivery
 * is failed for good (it can still be replayed).
 */

const BASE_SECONDS = 30;
const CAP_SECONDS = 12 * 3600;
const RETRIES = 16;
export const JITTER = 0.2;

export const RETRY_DELAYS_SECONDS: readonly number[] = Array.from({ length: RETRIES }, (_, k) => Math.min(BASE_SECONDS * 2 ** k, CAP_SECONDS));

/** Attempts in all: the first and every retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * When the next attempt is due after the `attempts`-th attempt (1-based) failed at `failedAt`, or
 * null when that was the last. `random` is in [0, 1).
 */
export function nextAttemptAt(attempts: number, failedAt: Date, random: number = Math.random()): Date | null {
  const delay = RETRY_DELAYS_SECONDS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(failedAt.getTime() + Math.round(delay * (1 + JITTER * random) * 1000));
}
