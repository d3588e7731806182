/**
 * Runs once when a server process starts, before it takes requests. The configuration is checked
 * first (a missing secret stops the app with a message naming it). Without DATABASE_URL the app
 * uses the embedded database: it is opened now (and migrated and seeded on its first start), so
 * that the first request does not wait for that. `next build` never opens it. Then the server's
 * background work starts: folding changed products into the facet bitmaps.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { checkConfig } = await import("./lib/config");
  checkConfig();
  if (!process.env.DATABASE_URL) {
    const { openAtStartup } = await import("./lib/db/embedded");
    await openAtStartup();
  }
  const { ensureFacetCompaction } = await import("./lib/catalog/facet-compaction");
  ensureFacetCompaction();
}
