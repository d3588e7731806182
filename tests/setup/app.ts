/**
 * Starts the app for a test run: a database of its own, migrated and seeded, and the built app
 * (`next start`) serving it on a free port. Nothing is shared with an earlier run: the database
 * is unique per run and is removed on teardown, the server is killed with its process group.
 *
 * DATABASE_URL decides where test databases live:
 * - set: on that PostgreSQL server, as `mkt_test_<pid>_<random>` databases, created through
 *   TEST_DATABASE_ADMIN_URL (default: DATABASE_URL itself), migrated and seeded here, dropped
 *   afterwards. The database DATABASE_URL names is never touched.
 * - unset: embedded. A test database is a fresh temporary folder; the app that owns it opens it
 *   in process (EMBEDDED_DATA_DIR), migrates and seeds it on its first start, and serves it to
 *   PostgreSQL clients on a loopback port (EMBEDDED_DATABASE_PORT, lib/db/embedded-server.ts).
 *   `databaseUrl` points there, so tests and extra app servers reach the same database with a
 *   connection string, as they would a server's, for as long as the owning app runs.
 *
 * Used by the vitest global setup (tests/setup/global.ts) and the Playwright global setup
 * (tests/e2e/global-setup.ts). It imports nothing from a test runner.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { timed } from "./timings";

export interface StartedApp {
  /** `http://127.0.0.1:<port>`, also the app's PUBLIC_BASE_URL. */
  baseUrl: string;
  databaseUrl: string;
  databaseName: string;
  /** File receiving the server's stdout (its one-JSON-line-per-request log). */
  serverLog: string;
  /** Process id of the server's process group leader (`npm run start`). */
  serverPid: number;
  /** Stops the server and drops the database; safe to call twice. */
  teardown: () => Promise<void>;
}

export interface StartAppOptions {
  /**
   * Migrates the fresh database. Defaults to the project's runner (lib/db/migrate.ts) in this
   * process; a caller whose module loader cannot load the generated Prisma client may pass
   * another (e.g. `npm run db:migrate` in a child process).
   */
  migrateDatabase?: (databaseUrl: string, log: (line: string) => void) => Promise<void>;
  /** Prefix of the progress lines written to stderr. */
  logPrefix?: string;
}

const ROOT = process.cwd();
/** Test databases are embedded unless DATABASE_URL names a PostgreSQL server. */
export const EMBEDDED = !process.env.DATABASE_URL;
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL || process.env.DATABASE_URL || "";
const READY_PATH = "/api/public/v1/categories";
// An embedded database's first start includes migrating and seeding it.
const READY_TIMEOUT_MS = 120_000;
const SUPERVISOR = path.join(ROOT, "tests", "setup", "supervise.mjs");

function databaseUrlFor(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string, adminUrl = ADMIN_URL) {
  if (!adminUrl) throw new Error("no PostgreSQL server for test databases: DATABASE_URL is unset");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Drops a database made by startApp (used when teardown runs apart from the set-up). */
export async function dropDatabase(name: string, log: (line: string) => void = () => {}, adminUrl = ADMIN_URL) {
  try {
    await adminQuery(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`, adminUrl);
    log(`dropped database ${name}`);
  } catch (err) {
    log(`could not drop database ${name}: ${String(err)}`);
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) return resolve();
      reject(
        new Error(`${cmd} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.slice(-8000)}`),
      );
    });
  });
}

/** Signals a whole process group (npm, next and its workers); falls back to the process. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Whether any process of the group is left. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function killChildGroup(child: ChildProcess | undefined, signal: NodeJS.Signals) {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  killGroup(child.pid, signal);
}

async function waitForServer(
  baseUrl: string,
  server: ChildProcess,
  stderr: () => string,
  stdout: () => string,
) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError = "";
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw new Error(
        `next start exited early (${server.signalCode ?? `exit ${server.exitCode}`}).\n` +
          `--- server stderr ---\n${stderr()}\n--- server stdout ---\n${stdout().slice(-4000)}`,
      );
    }
    try {
      const res = await fetch(baseUrl + READY_PATH, {
        signal: AbortSignal.timeout(5_000),
        headers: { "X-Forwarded-For": "10.255.255.254" },
      });
      await res.arrayBuffer();
      if (res.status === 200) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `app did not answer GET ${READY_PATH} with 200 within ${READY_TIMEOUT_MS / 1000}s (last: ${lastError}).\n` +
      `--- server stderr ---\n${stderr()}\n--- server stdout ---\n${stdout().slice(-4000)}`,
  );
}

/** The project's migration runner, in this process. */
async function migrateInProcess(databaseUrl: string, log: (line: string) => void) {
  const { createDb } = await import("../../lib/db");
  const { migrate } = await import("../../lib/db/migrate");
  const client = createDb(databaseUrl, { maintenance: true });
  try {
    await migrate(client, (line) => log(`migrate: ${line}`));
  } finally {
    await client.$disconnect();
  }
}

/** `npm run db:migrate` in a child process (for loaders that cannot import the Prisma client). */
export async function migrateInChild(databaseUrl: string, log: (line: string) => void) {
  await run("npx", ["tsx", "scripts/migrate.ts"], { ...process.env, DATABASE_URL: databaseUrl });
  log("migrate: done (scripts/migrate.ts)");
}

export interface TestDatabase {
  /** A connection string for tests and extra app servers (embedded: while its owner runs). */
  databaseUrl: string;
  /** The database's name on the server, or the embedded database's folder. */
  databaseName: string;
  /** Set for an embedded database: its folder, and the port its owning app serves it on. */
  embedded?: { dataDir: string; port: number };
  /** Drops the database (removes the folder); safe to call twice. */
  drop: () => Promise<void>;
}

export interface CreateTestDatabaseOptions extends StartAppOptions {
  /** Embedded whatever DATABASE_URL says (default: embedded when DATABASE_URL is unset). */
  embedded?: boolean;
  /** The server to create it on (default: TEST_DATABASE_ADMIN_URL or DATABASE_URL). */
  adminUrl?: string;
}

/**
 * A fresh embedded database: an empty folder, which the app started on it (startServer with
 * `database`) migrates and seeds on its first start.
 */
async function createEmbeddedDatabase(log: (line: string) => void): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `mkt_test_${process.pid}_`));
  const port = await freePort();
  log(`embedded database in ${dataDir}, served on port ${port} by its app`);
  let dropped = false;
  return {
    databaseUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    databaseName: dataDir,
    embedded: { dataDir, port },
    drop: async () => {
      if (dropped) return;
      dropped = true;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh database of its own, migrated and seeded (embedded: by the app that opens it). */
export function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const embedded = options.embedded ?? EMBEDDED;
  return timed("database", embedded ? "empty folder" : "migrated and seeded", () => makeTestDatabase(options));
}

async function makeTestDatabase(options: CreateTestDatabaseOptions): Promise<TestDatabase> {
  const log = logger(options);
  if (options.embedded ?? EMBEDDED) return createEmbeddedDatabase(log);
  const migrateDatabase = options.migrateDatabase ?? migrateInProcess;
  const databaseName = `mkt_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const adminUrl = options.adminUrl ?? ADMIN_URL;
  const databaseUrl = databaseUrlFor(adminUrl, databaseName);
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await dropDatabase(databaseName, log, adminUrl);
  };
  await adminQuery(`CREATE DATABASE "${databaseName}"`, adminUrl);
  log(`created database ${databaseName}`);
  try {
    await migrateDatabase(databaseUrl, log);
    const seedStart = Date.now();
    await run("npx", ["tsx", "prisma/seed.ts"], { ...process.env, DATABASE_URL: databaseUrl });
    log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)}s`);
  } catch (err) {
    await drop();
    throw err;
  }
  return { databaseUrl, databaseName, drop };
}

export interface StartedServer {
  /** `http://127.0.0.1:<port>`, also the app's PUBLIC_BASE_URL. */
  baseUrl: string;
  port: number;
  /** File receiving the server's stdout (its one-JSON-line-per-request log). */
  serverLog: string;
  /** Process id of the server's process group leader (`npm run start`). */
  serverPid: number;
  /** What the server wrote to stderr so far (its warnings, e.g. the rate limiter's). */
  stderr: () => string;
  /** Stops the server; safe to call twice. */
  stop: () => Promise<void>;
}

export interface StartServerOptions {
  /** Serve this database as its owner (an embedded one is opened in the app's own process). */
  database?: TestDatabase;
  /** Or connect to a database by connection string (another app's embedded one included). */
  databaseUrl?: string;
  /**
   * Environment overrides; `undefined` removes a variable. By default the server inherits this
   * process's REDIS_URL and gets a rate-limit key prefix of its own (RATE_LIMIT_PREFIX), so its
   * buckets are fresh; servers that must share buckets pass the same prefix.
   */
  env?: Record<string, string | undefined>;
  logPrefix?: string;
  /** Listen on this port (an instance restarted where it ran before); default a free one. */
  port?: number;
  /** A test's signal (vitest's `context.signal`): when it aborts, the server is stopped. */
  signal?: AbortSignal;
}

/** `next start` (the production build) on a free port, serving `database` or `databaseUrl`. */
export function startServer(options: StartServerOptions): Promise<StartedServer> {
  return timed("server", "next start", () => launchServer(options));
}

async function launchServer(options: StartServerOptions): Promise<StartedServer> {
  const log = logger(options);
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error(
      "No production build found (.next/BUILD_ID is missing). Run `npm run build` first " +
        "(`npm test` builds before running vitest).",
    );
  }
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const serverLog = path.join(tmpdir(), `mkt_server_${port}_${randomBytes(4).toString("hex")}.log`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    RATE_LIMIT_PREFIX: `rl-test-${randomBytes(6).toString("hex")}:`,
    PUBLIC_BASE_URL: baseUrl,
    PORT: String(port),
    NODE_ENV: "production",
    AUTH_SECRET: process.env.AUTH_SECRET ?? "test-secret-for-session-cookies-0123456789abcdef",
    NEXT_TELEMETRY_DISABLED: "1",
    // Cart links compare stock exactly only a few times per listing a day (lib/cart/links.ts);
    // the contract tests ask many times, so test servers get a budget they never spend.
    // tests/integration/stock-probing.test.ts passes `STOCK_PROBE_BUDGET: undefined` for the default.
    STOCK_PROBE_BUDGET: "1000000",
  };
  for (const [key, value] of Object.entries({ ...databaseEnv(options), ...options.env })) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  let stderr = "";
  let stdout = "";
  if (options.signal?.aborted) throw new Error("startServer: the test was aborted before the server started");
  // Through the supervisor (tests/setup/supervise.mjs), whose stdin is a pipe from this process:
  // when this process dies without stopping the server, the whole group goes with it.
  const server = spawn(process.execPath, [SUPERVISOR, "npm", "run", "start", "--", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    detached: true, // own process group, so stop() can kill npm and next together
    stdio: ["pipe", "pipe", "pipe"],
    env,
  });
  // Every call waits for the same stop: a second caller must not go on while the group lives.
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopNow());
  const stopNow = async () => {
    process.off("exit", onExit);
    options.signal?.removeEventListener("abort", onAbort);
    const exited = new Promise<void>((r) => {
      if (server.exitCode !== null || server.signalCode !== null) r();
      else server.once("exit", () => r());
    });
    const pgid = server.pid!;
    killChildGroup(server, "SIGTERM");
    const timer = setTimeout(() => killGroup(pgid, "SIGKILL"), 5_000);
    await exited;
    // npm exits at once; next-server may take a moment to close its connections. Stopped means
    // the whole group is gone (an embedded database is free for the next process only then).
    const deadline = Date.now() + 10_000;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    clearTimeout(timer);
    rmSync(serverLog, { force: true });
  };
  // If the runner exits without stopping it, do not leave the server running (a runner killed by
  // a signal runs no exit handler: the supervisor covers that).
  const onExit = () => killChildGroup(server, "SIGKILL");
  process.on("exit", onExit);
  // A test that timed out (or a cancelled run) stops its server even if its own code never gets
  // to: the next test may need the port or the embedded folder.
  const onAbort = () => void stop();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  server.stdout!.pipe(createWriteStream(serverLog));
  server.stdout!.on("data", (d) => {
    stdout += d;
    if (stdout.length > 200_000) stdout = stdout.slice(-100_000);
  });
  server.stderr!.on("data", (d) => {
    stderr += d;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  if (process.env.TEST_SERVER_LOG) {
    server.stdout!.pipe(process.stderr);
    server.stderr!.pipe(process.stderr);
  }
  try {
    await waitForServer(baseUrl, server, () => stderr, () => stdout);
  } catch (err) {
    await stop();
    throw err;
  }
  log(`app is up at ${baseUrl}`);
  return { baseUrl, port, serverLog, serverPid: server.pid!, stderr: () => stderr, stop };
}

function databaseEnv({ database, databaseUrl }: StartServerOptions): Record<string, string | undefined> {
  if (database?.embedded) {
    return {
      DATABASE_URL: undefined,
      EMBEDDED_DATA_DIR: database.embedded.dataDir,
      EMBEDDED_DATABASE_PORT: String(database.embedded.port),
    };
  }
  const url = database?.databaseUrl ?? databaseUrl;
  if (!url) throw new Error("startServer needs `database` or `databaseUrl`");
  return { DATABASE_URL: url, EMBEDDED_DATA_DIR: undefined, EMBEDDED_DATABASE_PORT: undefined };
}

/** A fresh database and the app serving it. */
export async function startApp(options: StartAppOptions = {}): Promise<StartedApp> {
  const database = await createTestDatabase(options);
  let server: StartedServer;
  try {
    server = await startServer({ database, logPrefix: options.logPrefix });
  } catch (err) {
    await database.drop();
    throw err;
  }
  return {
    baseUrl: server.baseUrl,
    databaseUrl: database.databaseUrl,
    databaseName: database.databaseName,
    serverLog: server.serverLog,
    serverPid: server.serverPid,
    teardown: async () => {
      await server.stop();
      await database.drop();
    },
  };
}

function logger(options: { logPrefix?: string }) {
  const prefix = options.logPrefix ?? "[test setup]";
  return (line: string) => process.stderr.write(`${prefix} ${line}\n`);
}
