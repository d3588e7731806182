/**
 * `npm run worker`: a process that works the job queue (webhook deliveries) and nothing else, for
 * deployments that run the app with JOBS_WORKER=off. Needs DATABASE_URL (the embedded database
 * is one process's: there, the app runs the workers itself). Stops on SIGTERM or SIGINT after the
 * jobs in hand finish.
 */
import { checkConfig } from "../lib/config";
import { startWorkers } from "../lib/jobs/workers";
import { stopJobs } from "../lib/jobs/queue";
import { logEvent } from "../lib/log";

async function main() {
  checkConfig();
  if (!process.env.DATABASE_URL) {
    process.stderr.write("npm run worker needs DATABASE_URL: without it the app uses its embedded database, and runs the workers itself.\n");
    process.exit(1);
  }
  await startWorkers();
  logEvent("info", "worker started: working the job queue");
  const stop = async (signal: string) => {
    logEvent("info", "worker stopping", { signal });
    await stopJobs();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));
}

main().catch((err) => {
  process.stderr.write(`The worker could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
