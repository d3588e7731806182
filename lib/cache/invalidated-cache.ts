import { LRUCache } from "lru-cache";

/**
 * A per-process cache of computed values that a change notification empties at once, the TTL
 * only a backstop. Concurrent fetches of one key share one computation. A computation that was
 * under way when the cache was emptied still answers its callers (it read a consistent snapshot,
 * from just before the change), but is not kept: the change may have committed after it read.
 */
export class InvalidatedCache<V extends object> {
  readonly #entries: LRUCache<string, V, unknown>;
  /** Invalidations so far. */
  #generation = 0;

  constructor({ max, ttlMs }: { max: number; ttlMs: number }) {
    this.#entries = new LRUCache<string, V, unknown>({
      max,
      ttl: ttlMs,
      // clear() aborts fetches in flight; without this their callers would get an error.
      ignoreFetchAbort: true,
      fetchMethod: (_key, _stale, { context }) => (context as () => Promise<V>)(),
    });
  }

  /** The kept value of `key`, or the one `load` computes (shared with concurrent callers). */
  async fetch(key: string, load: () => Promise<V>): Promise<V> {
    const generation = this.#generation;
    const value = await this.#entries.fetch(key, { context: load });
    if (generation !== this.#generation) this.#entries.delete(key);
    return value!;
  }

  invalidate(): void {
    this.#generation++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
