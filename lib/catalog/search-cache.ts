import { InvalidatedCache } from "@/lib/cache/invalidated-cache";
import { onCatalogChange } from "@/lib/db/changes";

/** SEARCH_COUNTS_TTL_MS: the backstop of every search cache (0 turns them off). */
const ttlMs = Number(process.env.SEARCH_COUNTS_TTL_MS ?? 30_000);

/**
 * A per-process cache of something computed from the search tables (product_search, and the
 * dictionaries its refresh fills), emptied whenever product_search changes: the `search`
 * notification (lib/db/changes.ts), so a seller's change shows on every instance within moments;
 * the TTL is the backstop while a listener reconnects. Made, and subscribed, on first use
 * (importing this opens nothing); null when SEARCH_COUNTS_TTL_MS=0.
 */
export function searchCache<V extends object>(max: number): () => InvalidatedCache<V> | null {
  let cache: InvalidatedCache<V> | null | undefined;
  return () => {
    if (cache !== undefined) return cache;
    if (!(ttlMs > 0)) return (cache = null);
    const made = new InvalidatedCache<V>({ max, ttlMs });
    onCatalogChange((change) => {
      if (change.kind === "search") made.invalidate();
    });
    return (cache = made);
  };
}
