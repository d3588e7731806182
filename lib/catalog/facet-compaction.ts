import { db } from "@/lib/db";

/**
 * Folds the products changed since the last compaction into the facet bitmaps (migration
 * 20261126000000_facet_bitmaps), every FACET_COMPACT_INTERVAL_MS (default 2 s; 0 turns it off)
 * in every app server process (started by instrumentation.ts; scripts never run it). Counts are exact either way (a reader counts
 * pending products from their rows); compaction only keeps that part small. Instances take turns
 * through the function's advisory lock: one that finds it held skips its turn.
 */
const intervalMs = Number(process.env.FACET_COMPACT_INTERVAL_MS ?? 2_000);

const holder = globalThis as unknown as { __facetCompaction?: NodeJS.Timeout };

/** Starts the compaction timer of this process, once. */
export function ensureFacetCompaction(): void {
  if (!(intervalMs > 0) || holder.__facetCompaction) return;
  let failing = false;
  let running = false;
  holder.__facetCompaction = setInterval(() => {
    if (running) return;
    running = true;
    compactFacets()
      .then(() => {
        if (failing) console.error("facet compaction: working again");
        failing = false;
      })
      .catch((err: unknown) => {
        // The database is away (its outage is logged and answered elsewhere): say it once.
        if (!failing) console.error(`facet compaction failed, retrying every ${intervalMs} ms:`, err instanceof Error ? err.message : err);
        failing = true;
      })
      .finally(() => (running = false));
  }, intervalMs);
  holder.__facetCompaction.unref();
}

/** One compaction when anything is pending: how many products it applied (-1: another ran). */
export async function compactFacets(): Promise<number> {
  const [pending] = await db().$queryRaw<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM facet_pending) AS any`;
  if (!pending?.any) return 0;
  const [done] = await db().$queryRaw<{ n: number }[]>`SELECT compact_facet_bitmaps() AS n`;
  return done?.n ?? 0;
}
