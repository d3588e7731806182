/**
 * Public catalog reads from streaming replicas (DATABASE_REPLICA_URLS, comma-separated): the
 * search page and its counts, product records, the category tree, suggestions and the storefront's
 * catalog pages read through `catalogReader()`; every write, and every other read, stays on the
 * primary (`db()`). Without DATABASE_REPLICA_URLS, and always with the embedded database, the
 * reader is `db()` itself: nothing polls, nothing changes.
 *
 * With replicas, a poller (every POLL_MS, unref'd, started by the first catalog read) samples the
 * primary's `pg_current_wal_lsn()` and each replica's `pg_last_wal_replay_lsn()`. A read goes to a
 * replica (round robin) only while that replica
 *  - answered its last poll, recently, and is still a standby (in recovery);
 *  - has replayed what the primary had written DATABASE_REPLICA_MAX_LAG_MS ago (its lag is within
 *    the bound);
 *  - has replayed past every write this process made and every catalog change it heard: a write
 *    (`noteWrite`, called after a request that wrote commits) or a heard NOTIFY catalog_changes
 *    sends the process's reads to the primary until a poll that began after it has sampled the
 *    primary's position and a replica has replayed past that position. So a request that wrote
 *    reads its writes on this instance (the caches here are emptied as before, lib/db/changes.ts),
 *    and a per-process cache emptied by a change is never refilled from a replica that has not
 *    replayed that change yet.
 * Otherwise the primary answers. A read that fails on a replica (stopped, unreachable, a recovery
 * conflict, anything) marks it down until its next successful poll and is run again on the
 * primary: the client never sees a replica's failure.
 */
import { logEvent } from "@/lib/log";
import { onCatalogChange } from "./changes";
import { type CatalogClient, createDb, db, type Prisma, type PrismaClient } from "./index";

export type { CatalogClient } from "./index";

/** How often the poller samples the primary's and the replicas' WAL positions. */
export const POLL_MS = 250;
/** A poll that takes longer than this counts as failed (a replica hanging, not only refusing). */
const POLL_TIMEOUT_MS = 2_000;
/** The application_name of replica sessions: how an operator (and the tests) sees them on a standby. */
export const REPLICA_APPLICATION_NAME = "marketplace-replica-read";

/** DATABASE_REPLICA_URLS split as lib/config.ts checks it: comma-separated, blanks ignored. */
export function replicaUrls(text = process.env.DATABASE_REPLICA_URLS): string[] {
  return (text ?? "")
    .split(",")
    .map((url) => url.trim())
    .filter((url) => url.length > 0);
}

/** DATABASE_REPLICA_MAX_LAG_MS: how far behind the primary a replica may be and still serve reads. */
export function replicaMaxLagMs(): number {
  return Number(process.env.DATABASE_REPLICA_MAX_LAG_MS ?? 1_000);
}

/** A WAL position (`16/B374D848`) as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** The primary's position a replica must have replayed to be within `maxLagMs` (pure, exported for tests). */
export function lagFloor(history: readonly PrimarySample[], now: number, maxLagMs: number): bigint | null {
  if (history.length === 0) return null;
  let floor = history[0]!.lsn; // No sample is old enough yet: the oldest one (stricter).
  for (const sample of history) {
    if (sample.at <= now - maxLagMs) floor = sample.lsn;
    else break;
  }
  return floor;
}

export interface PrimarySample {
  at: number;
  lsn: bigint;
}

interface Replica {
  /** `replica 1`, `replica 2`: in logs and status, never the URL (it may hold a password). */
  name: string;
  client: PrismaClient;
  /** Answered its last poll as a standby; false after a failed poll or a failed read. */
  up: boolean;
  replayed: bigint;
  polledAt: number;
  reads: number;
  failures: number;
}

interface ReplicaSet {
  replicas: Replica[];
  history: PrimarySample[];
  /** Writes made and changes heard by this process so far. */
  marks: number;
  /** The marks covered by `writeFloor` (a poll that began after them sampled the primary). */
  settled: number;
  writeFloor: bigint;
  next: number;
  primaryReads: number;
  reader: CatalogClient;
}

// One set per process, on globalThis: route handlers, pages and MCP tools are separate bundles.
const holder = globalThis as unknown as { __replicaSet?: ReplicaSet | null };

/**
 * The client public catalog reads take (lib/http/database.ts hands it to the doors): `db()`
 * without replicas; with them, a reader that picks an eligible replica per statement.
 */
export function catalogReader(): CatalogClient {
  return replicaSet()?.reader ?? db();
}

/**
 * A request of this process wrote (called after it commits): reads go to the primary until a
 * replica has replayed past the primary's position sampled after now. Costs nothing without replicas.
 */
export function noteWrite(): void {
  const set = holder.__replicaSet;
  if (set) set.marks++;
}

/** What an operator (and the tests) can know of the replicas: never their URLs. */
export function replicaStatus(): Array<{ name: string; up: boolean; eligible: boolean; reads: number; failures: number }> | null {
  const set = holder.__replicaSet;
  if (!set) return null;
  const now = Date.now();
  return set.replicas.map((r) => ({ name: r.name, up: r.up, eligible: eligible(set, r, now), reads: r.reads, failures: r.failures }));
}

function replicaSet(): ReplicaSet | null {
  if (holder.__replicaSet !== undefined) return holder.__replicaSet;
  const urls = process.env.DATABASE_URL ? replicaUrls() : [];
  if (urls.length === 0) return (holder.__replicaSet = null);
  const set: ReplicaSet = {
    replicas: urls.map((url, i) => ({
      name: `replica ${i + 1}`,
      client: createDb(url, {
        // DATABASE_POOL_MAX per replica, as for the primary.
        // A replica that does not answer is skipped soon: the primary answers instead.
        connectTimeoutMs: 1_000,
        applicationName: REPLICA_APPLICATION_NAME,
      }),
      up: false,
      replayed: 0n,
      polledAt: 0,
      reads: 0,
      failures: 0,
    })),
    history: [],
    // Nothing is known before the first poll: the primary answers until then.
    marks: 1,
    settled: 0,
    writeFloor: 0n,
    next: 0,
    primaryReads: 0,
    reader: { $queryRaw: (query, ...values) => read(set, query, values) },
  };
  holder.__replicaSet = set;
  // Every catalog change heard is a point the next reads must not go back before.
  onCatalogChange(() => {
    set.marks++;
  });
  poll(set);
  return set;
}

function eligible(set: ReplicaSet, replica: Replica, now: number): boolean {
  if (!replica.up || now - replica.polledAt > Math.max(replicaMaxLagMs(), POLL_MS * 4)) return false;
  if (set.settled !== set.marks || replica.replayed < set.writeFloor) return false;
  const floor = lagFloor(set.history, now, replicaMaxLagMs());
  return floor !== null && replica.replayed >= floor;
}

function pick(set: ReplicaSet): Replica | null {
  const now = Date.now();
  for (let i = 0; i < set.replicas.length; i++) {
    const replica = set.replicas[(set.next + i) % set.replicas.length]!;
    if (eligible(set, replica, now)) {
      set.next = (set.next + i + 1) % set.replicas.length;
      return replica;
    }
  }
  return null;
}

async function read<T>(set: ReplicaSet, query: TemplateStringsArray | Prisma.Sql, values: unknown[]): Promise<T> {
  const replica = pick(set);
  if (replica) {
    try {
      const rows = await replica.client.$queryRaw<T>(query, ...values);
      replica.reads++;
      return rows;
    } catch (err) {
      // Whatever failed there, the primary answers: a query that fails on it too fails as it would have.
      markDown(replica, "a read failed", err);
    }
  }
  set.primaryReads++;
  return db().$queryRaw<T>(query, ...values);
}

function markDown(replica: Replica, why: string, err: unknown) {
  replica.failures++;
  if (!replica.up) return;
  replica.up = false;
  logEvent("warn", "database replica: skipped, reads go to the primary until it answers again", {
    replica: replica.name,
    why,
    error: String(err).slice(0, 300),
  });
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${POLL_TIMEOUT_MS} ms`)), POLL_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function pollOnce(set: ReplicaSet): Promise<void> {
  const marks = set.marks;
  const [primary] = await withTimeout(db().$queryRaw<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`);
  const now = Date.now();
  const lsn = parseLsn(primary!.lsn);
  set.history.push({ at: now, lsn });
  // Keep the newest sample older than the bound and everything since.
  const maxLag = replicaMaxLagMs();
  while (set.history.length > 1 && set.history[1]!.at <= now - maxLag) set.history.shift();
  // Writes made and changes heard before this poll began are behind this position.
  if (marks !== set.settled && lsn > set.writeFloor) set.writeFloor = lsn;
  set.settled = marks;
  await Promise.all(
    set.replicas.map(async (replica) => {
      try {
        const [row] = await withTimeout(
          replica.client.$queryRaw<{ lsn: string | null; standby: boolean }[]>`
            SELECT pg_last_wal_replay_lsn()::text AS lsn, pg_is_in_recovery() AS standby`,
        );
        if (!row?.standby || row.lsn === null) throw new Error("not a standby (promoted, or not a replica)");
        replica.replayed = parseLsn(row.lsn);
        replica.polledAt = Date.now();
        if (!replica.up) logEvent("info", "database replica: serving catalog reads", { replica: replica.name });
        replica.up = true;
      } catch (err) {
        markDown(replica, "its poll failed", err);
      }
    }),
  );
}

function poll(set: ReplicaSet) {
  const tick = () => {
    pollOnce(set)
      .catch(() => {
        // The primary did not answer: nothing can say how far behind a replica is.
        set.history = [];
      })
      .finally(() => setTimeout(tick, POLL_MS).unref());
  };
  tick();
}
