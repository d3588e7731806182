import PgBoss from "pg-boss";
import { config } from "@/lib/config";
import type { Prisma } from "@/lib/db";
import { embeddedDatabase } from "@/lib/db/embedded";
import { logEvent } from "@/lib/log";

/**
 * Background jobs on PostgreSQL, through pg-boss (its tables live in the `pgboss` schema of the
 * app's database). A job is sent in the transaction of the change it follows (`sendInTransaction`),
 * so a rolled-back change leaves no job and a committed one is worked at least once. Workers run
 * in the app process (JOBS_WORKER=in-app, the default) or in `npm run worker` processes.
 *
 * With DATABASE_URL pg-boss has a small pool of its own; without, it works through the embedded
 * database's gate (lib/db/embedded.ts) like every other statement of the process.
 */

/** Every queue, with how its failed jobs are retried. */
export const QUEUES = {
  /**
   * One attempt at delivering an event to a receiver. A receiver's failure is not a job failure:
   * the attempt sends the next one as a new job, due when lib/webhooks/schedule.ts says. The
   * queue's retries (5·2^(k-1) to 10·2^(k-1) s) are for a job whose worker died or threw: a job
   * still active 30 s after it started (an attempt waits 10 s at most for its receiver) is
   * expired by the queue's maintenance and run again.
   */
  webhookDelivery: { name: "webhook-delivery", retryLimit: 10, retryDelay: 5, retryBackoff: true, expireInSeconds: 30, retentionDays: 7 },
  /**
   * One e-mail to send (lib/email/deliver.ts): retried with exponential backoff and jitter, the
   * k-th retry 5·2^(k-1) to 10·2^(k-1) seconds after the k-th failure, 8 retries (about 21 to 42
   * minutes in all): the first retry within seconds (a sign-in link lasts 15 minutes), the last
   * late enough to ride out an SMTP server's restart or greylisting.
   */
  email: { name: "email", retryLimit: 8, retryDelay: 5, retryBackoff: true, expireInSeconds: 120, retentionDays: 14 },
} as const satisfies Record<string, PgBoss.Queue>;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES]["name"];

/** A pg-boss connection over the embedded database: one statement (or script) per turn of its gate. */
function embeddedConnection(): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const embedded = embeddedDatabase();
      await embedded.ready;
      return embedded.gate.run(async () => {
        const pglite = embedded.pglite();
        if (values && values.length > 0) return pglite.query(text, values.map((v) => (v === undefined ? null : v)));
        const results = await pglite.exec(text);
        return results.at(-1) ?? { rows: [] };
      });
    },
  };
}

/**
 * A pg-boss connection that runs in the caller's transaction, so that the job commits, or rolls
 * back, with the change it follows.
 */
export function transactionConnection(tx: Prisma.TransactionClient): PgBoss.Db {
  return {
    async executeSql(text, values) {
      const args = values.map((v) => (v === undefined ? null : v !== null && typeof v === "object" && !(v instanceof Date) ? JSON.stringify(v) : v));
      return { rows: await tx.$queryRawUnsafe<unknown[]>(text, ...args) };
    },
  };
}

interface Holder {
  boss?: PgBoss;
  started?: Promise<PgBoss>;
}
// One instance per process, on globalThis: Next bundles this module into several chunks.
const holder = globalThis as unknown as { __marketplaceJobs?: Holder };
const state = (): Holder => (holder.__marketplaceJobs ??= {});

/**
 * No cron schedules; maintenance (which expires the jobs of a worker that died, so that they run
 * again) every 15 s rather than pg-boss's 2 min, so a crashed delivery is resumed within a minute.
 */
const BOSS_OPTIONS = { schedule: false, maintenanceIntervalSeconds: 15 } as const;

function createBoss(): PgBoss {
  const { databaseUrl } = config();
  const boss = databaseUrl
    ? new PgBoss({ connectionString: databaseUrl, max: 4, application_name: "marketplace-jobs", ...BOSS_OPTIONS })
    : new PgBoss({ db: embeddedConnection(), ...BOSS_OPTIONS });
  boss.on("error", (err) => logEvent("error", "job queue error", { error: String(err) }));
  return boss;
}

/** The process's queue, not started (enough to send jobs through another connection). */
function bossInstance(): PgBoss {
  return (state().boss ??= createBoss());
}

/**
 * Starts the queue once per process: pg-boss creates or migrates its schema, then every queue is
 * made (an existing one is kept). Sending needs the queues to exist, so app processes start it
 * at boot (instrumentation.ts) whether or not they run workers.
 */
export function startJobs(): Promise<PgBoss> {
  const s = state();
  s.started ??= (async () => {
    const boss = bossInstance();
    await boss.start();
    for (const queue of Object.values(QUEUES)) {
      const existing = await boss.getQueue(queue.name);
      if (!existing) await boss.createQueue(queue.name, queue);
      else await boss.updateQueue(queue.name, queue);
    }
    return boss;
  })();
  s.started.catch(() => (s.started = undefined));
  return s.started;
}

/** Sends a job in `tx`: it exists once `tx` commits, and never if `tx` rolls back. */
export async function sendInTransaction(tx: Prisma.TransactionClient, queue: QueueName, data: object, options: { id?: string; startAfter?: Date } = {}): Promise<void> {
  await bossInstance().send(queue, data, { ...options, db: transactionConnection(tx) });
}

export type JobHandler = (data: unknown, meta: { id: string; retryCount: number; retryLimit: number }) => Promise<void>;

/**
 * Works `queue` in this process: `handler` once per job, `batchSize` jobs at a time; a throw is a
 * failure to retry. pg-boss polls every `pollingIntervalSeconds` when the queue is empty; after a
 * full batch the worker fetches again at once, so a backlog drains as fast as its jobs run.
 */
export async function work(queue: QueueName, handler: JobHandler, { pollingIntervalSeconds = 1, batchSize = 20 } = {}): Promise<void> {
  const boss = await startJobs();
  const worker: { id?: string } = {};
  worker.id = await boss.work(queue, { includeMetadata: true, pollingIntervalSeconds, batchSize }, async (jobs) => {
    // Each job of the batch succeeds or fails on its own (a throw fails the whole batch).
    await Promise.all(
      jobs.map(async (job) => {
        try {
          await handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
          await boss.complete(queue, job.id);
        } catch (err) {
          await boss.fail(queue, job.id, { message: err instanceof Error ? err.message : String(err) });
        }
      }),
    );
    if (jobs.length === batchSize && worker.id) boss.notifyWorker(worker.id);
  });
}

/** Stops this process's workers, letting jobs in hand finish (for `npm run worker` on SIGTERM). */
export async function stopJobs(): Promise<void> {
  const s = state();
  if (!s.started) return;
  const boss = await s.started;
  await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  s.started = undefined;
}
