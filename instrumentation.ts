/**
 * Runs once when a server process starts, before it takes requests. The configuration is checked
 * first (a missing secret stops the app with a message naming it). Without DATABASE_URL the app
 * uses the embedded database: it is opened now (and migrated and seeded on its first start), so
 * that the first request does not wait for that. `next build` never opens it. Then the server's
 * background work starts: folding changed products into the facet bitmaps, and the job queue
 * (its workers a few seconds later).
 */

/** The workers begin once the first requests after a start have been answered (lib/jobs/workers.ts). */
const WORKERS_START_DELAY_MS = 3_000;

export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { checkConfig } = await import("./lib/config");
  checkConfig();
  if (!process.env.DATABASE_URL) {
    const { openAtStartup } = await import("./lib/db/embedded");
    // The seed's code is loaded only on a first start, when there is a catalog to make.
    await openAtStartup(async (client) => (await import("./lib/seed/seed")).seedCatalog(client));
  }
  const { ensureFacetCompaction } = await import("./lib/catalog/facet-compaction");
  ensureFacetCompaction();
  // The job queue: its schema and queues exist before the first request sends a job; the
  // workers run here unless JOBS_WORKER=off leaves them to `npm run worker`.
  const { config } = await import("./lib/config");
  const { startJobs } = await import("./lib/jobs/queue");
  await startJobs();
  if (config().jobsInApp) {
    const { startWorkersAfter } = await import("./lib/jobs/workers");
    startWorkersAfter(WORKERS_START_DELAY_MS);
  }
}
