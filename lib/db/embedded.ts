/**
 * The embedded database: PostgreSQL compiled to WebAssembly (PGlite) running inside this process,
 * used when DATABASE_URL is unset. Its files live in EMBEDDED_DATA_DIR (default `.data/pglite`),
 * so they survive restarts; the first start migrates (lib/db/migrate.ts) and seeds the catalog
 * with the seeder the entry point gave (`seedEmbeddedWith`: lib/seed/seed.ts's `seedCatalog`,
 * given by instrumentation.ts and the commands), exactly as `npm run db:migrate && npm run db:seed`
 * would on a server. lib/db imports no seed: the seed imports the domain, which imports lib/db.
 *
 * PGlite has one connection. Everything that uses it queues at one gate: a statement, or a whole
 * transaction (Prisma's interactive transactions hold the gate from BEGIN to COMMIT). Clients of
 * the wire-protocol listener (lib/db/embedded-server.ts) queue at the same gate.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite, type Results, type Transaction } from "@electric-sql/pglite";
import { ltree } from "@electric-sql/pglite/contrib/ltree";
import { fuzzystrmatch } from "@electric-sql/pglite/contrib/fuzzystrmatch";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "./generated/client";
import { serveWireProtocol, type WireServer } from "./embedded-server";
import { Gate } from "./gate";
import { migrate, pendingMigrationsBy } from "./migrate";

export const DEFAULT_EMBEDDED_DATA_DIR = ".data/pglite";

/** The folder of the embedded database: EMBEDDED_DATA_DIR, or `.data/pglite` in the project. */
export function embeddedDataDir(): string {
  // Read at run time, never traced into the build.
  return path.resolve(/*turbopackIgnore: true*/ process.env.EMBEDDED_DATA_DIR || DEFAULT_EMBEDDED_DATA_DIR);
}

export interface EmbeddedDatabase {
  /** The folder given by EMBEDDED_DATA_DIR; PostgreSQL's own files are in its `pgdata`. */
  dataDir: string;
  /** The PGlite instance, once open; use it only while holding the gate. */
  pglite(): PGlite;
  gate: Gate;
  /** Open, migrated, seeded and listening if asked (rejects with the reason when that failed). */
  ready: Promise<void>;
  /** The port of the wire-protocol listener, once ready (when one was asked for). */
  listenPort(): number | undefined;
  /** A Prisma client over the gate (what `createDb()` returns without DATABASE_URL). */
  prisma(): PrismaClient;
  /**
   * Calls `callback` with the payload of every NOTIFY on `channel`, whether the app's statements
   * or a wire client's raised it; resolves once the session listens. Returns the unsubscribe.
   */
  listen(channel: string, callback: (payload: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

type Queryable = Pick<PGlite, "query" | "exec">;

/**
 * Like node-postgres, a statement without parameters goes through the simple protocol, so that a
 * migration file (many statements, `$executeRawUnsafe(sql)`) runs the same way on both drivers.
 */
async function query<T>(on: Queryable, sql: string, params: unknown[] = [], options?: Parameters<PGlite["query"]>[2]) {
  if (params.length > 0) return on.query<T>(sql, params, options);
  const results = await on.exec(sql, options);
  return (results.at(-1) ?? { rows: [], fields: [], affectedRows: 0 }) as Results<T>;
}

/** The part of PGlite that pglite-prisma-adapter uses, each call (a whole transaction, too) taking its `turn`. */
function adapterClient(opened: () => PGlite, turn: <T>(fn: () => Promise<T>) => Promise<T>): PGlite {
  const inTransaction = (tx: Transaction) => ({
    query: (sql: string, params?: unknown[], options?: Parameters<PGlite["query"]>[2]) => query(tx, sql, params, options),
    exec: tx.exec.bind(tx),
    rollback: tx.rollback.bind(tx),
    get closed() {
      return tx.closed;
    },
  });
  const client = {
    query: (sql: string, params?: unknown[], options?: Parameters<PGlite["query"]>[2]) =>
      turn(() => query(opened(), sql, params, options)),
    exec: (sql: string, options?: Parameters<PGlite["exec"]>[1]) => turn(() => opened().exec(sql, options)),
    transaction: <T>(callback: (tx: Transaction) => Promise<T>) =>
      turn(() => opened().transaction((tx) => callback(inTransaction(tx) as unknown as Transaction))),
  };
  return client as unknown as PGlite;
}

function prismaOver(client: PGlite): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPGlite(client),
    // Transactions queue behind every other statement of the process: give them time to start.
    transactionOptions: { maxWait: 30_000, timeout: 60_000 },
  });
}

/** How long a start waits for a previous process on the same folder to finish exiting. */
const LOCK_WAIT_MS = 15_000;

function readLock(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

function lockHolder(file: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(file, "utf8").split(" ")[0]);
  } catch {
    return null;
  }
  if (!pid || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

/**
 * The process that has the embedded database in `dataDir` open, or null: lets a command refuse
 * at once, with the reason, rather than wait for the folder (e.g. while the app runs on it).
 */
export function embeddedFolderHolder(dataDir: string): number | null {
  return lockHolder(path.join(dataDir, "lock"));
}

/**
 * PGlite keeps no lock on its files, and two processes writing one data directory destroy it:
 * a process takes this lock file (its pid) before it opens the folder, and a second one waits a
 * little for the first to exit (a restart), then gives up while the first one lives.
 */
async function takeLock(dataDir: string): Promise<() => void> {
  const file = path.join(dataDir, "lock");
  const deadline = Date.now() + LOCK_WAIT_MS;
  const token = `${process.pid} ${randomUUID()}`;
  for (;;) {
    const holder = lockHolder(file);
    if (holder === null) {
      // Created only if absent, so two processes starting at once cannot both take it; a lock
      // left by a process that is gone is removed first.
      try {
        writeFileSync(file, token, { flag: "wx" });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
        // Empty: another process has just created it and is writing its pid.
        if (readLock(file) !== "" && lockHolder(file) === null) rmSync(file, { force: true });
        else await new Promise((r) => setTimeout(r, 20));
        continue;
      }
    }
    if (Date.now() > deadline) {
      throw new Error(
        `The embedded database in ${dataDir} is open in another process (pid ${holder}). It serves one process ` +
          "at a time: stop that process, or set EMBEDDED_DATA_DIR to another folder, or DATABASE_URL to a PostgreSQL server.",
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return () => {
    try {
      if (readFileSync(file, "utf8") === token) rmSync(file);
    } catch {
      /* already gone */
    }
  };
}

function log(line: string) {
  process.stderr.write(`[embedded database] ${line}\n`);
}

/** Fills a database on its first start; returns what it wrote, counted by kind (`products` among them). */
export type Seeder = (client: PrismaClient) => Promise<Record<string, number>>;

export interface OpenOptions {
  /** Also serve PostgreSQL clients on this loopback port (0: any free one); see embedded-server.ts. */
  listenPort?: number;
  /**
   * Seeds the folder on its first start (no `seeded` marker yet). Without one, a first start only
   * migrates and leaves the seeding to the next start that has a seeder.
   */
  seed?: Seeder;
}

/** Opens the embedded database in `dataDir`, creating, migrating and seeding it on first use. */
export function openEmbedded(dataDir: string, { listenPort, seed }: OpenOptions = {}): EmbeddedDatabase {
  // `next build` must never open the data directory (its workers are separate processes).
  if (process.env.NEXT_PHASE === "phase-production-build") {
    throw new Error("the database was used while building: pages that read it must be dynamic");
  }
  const seededMarker = path.join(dataDir, "seeded");
  const gate = new Gate();
  let pglite: PGlite | undefined;
  let unlock = () => {};
  let wire: WireServer | undefined;
  const opened = () => {
    if (!pglite) throw new Error("the embedded database is not open yet");
    return pglite;
  };

  // LISTEN subscribers by channel. PGlite's own listeners hear what the app's statements raise;
  // the wire listener hands over what its clients' statements raise (it bypasses PGlite's parsing).
  const subscribers = new Map<string, Set<(payload: string) => void>>();
  const listening = new Map<string, Promise<void>>();
  const dispatch = (channel: string, payload: string) => {
    for (const callback of subscribers.get(channel) ?? []) {
      try {
        callback(payload);
      } catch (err) {
        log(`a listener on ${channel} failed: ${String(err)}`);
      }
    }
  };

  const ready = gate.run(async () => {
    mkdirSync(dataDir, { recursive: true });
    unlock = await takeLock(dataDir);
    pglite = new PGlite(path.join(dataDir, "pgdata"), {
      extensions: { ltree, pg_trgm, unaccent, fuzzystrmatch },
      // lib/db/index.ts SESSION_SETTINGS, as settings of the one session there is. PGlite runs
      // no parallel workers anyway, and WebAssembly has no timer to cancel a statement with, so
      // only random_page_cost applies.
      postgresqlconf: ["random_page_cost = 1.1"],
    });
    await pglite.waitReady;
    const started = Date.now();
    const session = pglite;
    // Every start but the first finds the folder migrated and seeded: one query on the session
    // says so, and that is all. Migrating goes through a Prisma client of its own and a
    // transaction, which cost about as much CPU as the first request's own work (which waits).
    const pending = await pendingMigrationsBy(<T,>(sql: string) => session.query<T>(sql).then((r) => r.rows));
    const seeded = existsSync(seededMarker);
    if (pending.length === 0 && (seeded || !seed)) {
      log(`opened ${dataDir}: migrated${seeded ? " and seeded" : ""} already`);
    } else {
      const setup = prismaOver(adapterClient(opened, (fn) => fn()));
      const applied = await migrate(setup);
      // PGlite learns array types (to send `listing_condition[]` parameters) when it opens; a
      // migration may have just made some.
      if (applied.length > 0) await pglite.refreshArrayTypes();
      if (!seeded && seed) {
        log(`first start in ${dataDir}: seeding the catalog ...`);
        const counts = await seed(setup);
        writeFileSync(seededMarker, `${new Date().toISOString()} ${JSON.stringify(counts)}\n`);
        log(`migrated and seeded in ${((Date.now() - started) / 1000).toFixed(1)}s (${counts.products} products)`);
      } else if (applied.length > 0) {
        log(`applied ${applied.join(", ")}`);
      }
      // A server ends without closing the database (Next exits on SIGTERM): without a checkpoint
      // the next start would first replay all the write-ahead log of the seed (about 30 MB).
      await pglite.exec("CHECKPOINT");
    }
    if (listenPort !== undefined) {
      wire = await serveWireProtocol(pglite, gate, { port: listenPort, onNotification: dispatch });
      const server = wire;
      pglite.onNotification((channel, payload) => server.forward(channel, payload));
      log(`PostgreSQL clients may connect to postgresql://postgres@127.0.0.1:${wire.port}/postgres`);
    }
  });
  ready.catch((err) => {
    unlock();
    log(`could not open ${dataDir}: ${String(err)}`);
  });

  const turn = async <T>(fn: () => Promise<T>) => {
    await ready;
    return gate.run(fn);
  };
  let closing: Promise<void> | undefined;
  return {
    dataDir,
    pglite: opened,
    gate,
    ready,
    prisma: () => prismaOver(adapterClient(opened, turn)),
    listenPort: () => wire?.port,
    listen: async (channel, callback) => {
      const callbacks = subscribers.get(channel) ?? new Set();
      subscribers.set(channel, callbacks);
      callbacks.add(callback);
      let started = listening.get(channel);
      if (!started) {
        started = turn(() => opened().listen(channel, (payload) => dispatch(channel, payload))).then(() => {});
        listening.set(channel, started);
        started.catch(() => listening.delete(channel));
      }
      try {
        await started;
      } catch (err) {
        callbacks.delete(callback);
        throw err;
      }
      return () => {
        callbacks.delete(callback);
      };
    },
    close: () =>
      (closing ??= (async () => {
        await ready.catch(() => {});
        await wire?.close();
        await gate.run(async () => pglite?.close());
        unlock();
      })()),
  };
}

// One per process (kept on globalThis so that dev-mode reloads reuse it), with the seeder its entry
// point gave.
const holder = globalThis as unknown as { __marketplaceEmbedded?: EmbeddedDatabase; __marketplaceSeeder?: Seeder };

/**
 * Gives this process's embedded database its seeder, before anything opens it: the entry points
 * (instrumentation.ts, the commands of scripts/ and prisma/seed.ts) give lib/seed's `seedCatalog`.
 */
export function seedEmbeddedWith(seed: Seeder): void {
  holder.__marketplaceSeeder = seed;
}

export function embeddedDatabase(): EmbeddedDatabase {
  const port = process.env.EMBEDDED_DATABASE_PORT;
  holder.__marketplaceEmbedded ??= openEmbedded(embeddedDataDir(), {
    listenPort: port ? Number(port) : undefined,
    seed: holder.__marketplaceSeeder,
  });
  return holder.__marketplaceEmbedded;
}

/**
 * Opens the embedded database when a server process starts (instrumentation.ts, which gives the
 * catalog seed for a first start); a process that cannot open it (another process has the
 * folder) exits with the reason rather than answering every request with an error.
 */
export async function openAtStartup(seed: Seeder): Promise<void> {
  seedEmbeddedWith(seed);
  try {
    await embeddedDatabase().ready;
  } catch {
    process.exit(1); // openEmbedded has logged why
  }
}
