/**
 * Starts the app for a test run: a database of its own, migrated and seeded, and the built app
 * (`next start`) serving it on a free port. Nothing is shared with an earlier run: the database
 * is unique per run and is removed on teardown, the server is killed with its process group.
 *
 * DATABASE_URL decides where test databases live:
 * - set: on that PostgreSQL server, as `mkt_test_<pid>_<random>` databases, created through
 *   TEST_DATABASE_ADMIN_URL (default: DATABASE_URL itself) and dropped afterwards. The database
 *   DATABASE_URL names is never touched.
 * - unset: embedded. A test database is a temporary folder; the app that owns it opens it in
 *   process (EMBEDDED_DATA_DIR) and serves it to PostgreSQL clients on a loopback port
 *   (EMBEDDED_DATABASE_PORT, lib/db/embedded-server.ts). `databaseUrl` points there, so tests and
 *   extra app servers reach the same database with a connection string, as they would a
 *   server's, for as long as the owning app runs.
 * Either way a vitest run migrates and seeds once, into templates (prepareTemplates), and each
 * test database is a copy of one; without templates (the Playwright suite) a database is
 * migrated and seeded where it is made (embedded: by its app on its first start).
 *
 * Used by the vitest global setup (tests/setup/global.ts) and the Playwright global setup
 * (tests/e2e/global-setup.ts). It imports nothing from a test runner.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports";
import { timed } from "./timings";

export { freePort };

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
/**
 * A starting server may go this long without printing a line or answering before its start counts
 * as hung. A start takes 1-2 s on a quiet machine and about 15 s at load 8 on two cores; a first
 * start that migrates and seeds (no template) prints as it goes.
 */
const READY_STALL_MS = 30_000;
/** However much it prints, a start that has not answered by then has failed. */
const READY_CAP_MS = 90_000;
/** Lines of the server's output quoted when its start fails. */
const LOG_TAIL_LINES = 40;
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
  output: { stderr: () => string; stdout: () => string; lastOutputAt: () => number },
) {
  const started = Date.now();
  let lastAnswer = "none yet";
  let lastChange = started;
  const failure = (why: string) =>
    new Error(
      `the app at ${baseUrl} did not start: ${why}; it was waiting for GET ${READY_PATH} to answer 200 ` +
        `(last answer: ${lastAnswer}).\n` +
        `--- last lines of the server's stderr ---\n${tail(output.stderr())}\n` +
        `--- last lines of its stdout ---\n${tail(output.stdout())}`,
    );
  for (;;) {
    if (server.exitCode !== null || server.signalCode !== null) {
      throw failure(`next start exited early (${server.signalCode ?? `exit ${server.exitCode}`})`);
    }
    let answer: string;
    try {
      const res = await fetch(baseUrl + READY_PATH, {
        signal: AbortSignal.timeout(5_000),
        headers: { "X-Forwarded-For": "10.255.255.254" },
      });
      await res.arrayBuffer();
      if (res.status === 200) return;
      answer = `HTTP ${res.status}`;
    } catch (err) {
      answer = String((err as Error).cause ?? err);
    }
    const now = Date.now();
    if (answer !== lastAnswer) lastChange = now;
    lastAnswer = answer;
    const progress = Math.max(lastChange, output.lastOutputAt());
    if (now - progress > READY_STALL_MS) throw failure(`no output and no new answer for ${READY_STALL_MS / 1000} s`);
    if (now - started > READY_CAP_MS) throw failure(`not ready after ${READY_CAP_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function tail(text: string, lines = LOG_TAIL_LINES): string {
  const all = text.trimEnd().split("\n");
  return (all.length > lines ? [`(${all.length - lines} earlier lines)`, ...all.slice(-lines)] : all).join("\n") || "(nothing)";
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
  /** Seeded with the catalog (default), or only migrated, for a test that brings its own. */
  seeded?: boolean;
}

/**
 * The run's template databases, made once by prepareTemplates (the vitest global setup) and named
 * in TEST_TEMPLATES, which the workers inherit. A test database of the run's kind is a copy of
 * one: a folder copied (embedded) or `CREATE DATABASE ... TEMPLATE` (a server), instead of
 * migrating and seeding it again. Without them (the Playwright suite) every database is made anew.
 */
interface Templates {
  embedded: boolean;
  /** The server the template databases are on (server mode). */
  adminUrl: string;
  /** Folder (embedded) or database name: migrated and seeded. */
  seeded: string;
  /** Folder (embedded) or database name: migrated, no catalog. */
  migrated: string;
}

const TEMPLATES_ENV = "TEST_TEMPLATES";

function templateFor(embedded: boolean, adminUrl: string, seeded: boolean): string | undefined {
  const raw = process.env[TEMPLATES_ENV];
  if (!raw) return undefined;
  const templates = JSON.parse(raw) as Templates;
  if (templates.embedded !== embedded || (!embedded && templates.adminUrl !== adminUrl)) return undefined;
  return seeded ? templates.seeded : templates.migrated;
}

/** An embedded database that has been written says so in this file: the app does not seed it. */
const SEEDED_MARKER = "seeded";

/** Opens an embedded database in this process until it is migrated (and seeded, unless marked so), then closes it. */
async function settleEmbedded(dataDir: string) {
  const { openEmbedded } = await import("../../lib/db/embedded");
  const { seedCatalog } = await import("../../lib/seed/seed");
  const database = openEmbedded(dataDir, { seed: seedCatalog });
  try {
    await database.ready;
  } finally {
    await database.close();
  }
}

/**
 * Makes the run's templates (a migrated database, and a copy of it seeded) and names them in
 * TEST_TEMPLATES for this process and the workers it starts. Returns what removes them.
 */
export async function prepareTemplates(options: StartAppOptions = {}): Promise<() => Promise<void>> {
  const log = logger(options);
  if (EMBEDDED) {
    const root = mkdtempSync(path.join(tmpdir(), `mkt_tpl_${process.pid}_`));
    const migrated = path.join(root, "migrated");
    const seeded = path.join(root, "seeded");
    try {
      await timed("database", "template: migrated", async () => {
        mkdirSync(migrated);
        writeFileSync(path.join(migrated, SEEDED_MARKER), "template: migrated, no catalog\n");
        await settleEmbedded(migrated);
      });
      await timed("database", "template: seeded", async () => {
        cpSync(migrated, seeded, { recursive: true });
        rmSync(path.join(seeded, SEEDED_MARKER));
        await settleEmbedded(seeded);
      });
    } catch (err) {
      rmSync(root, { recursive: true, force: true });
      throw err;
    }
    log(`embedded templates in ${root}`);
    process.env[TEMPLATES_ENV] = JSON.stringify({ embedded: true, adminUrl: "", seeded, migrated } satisfies Templates);
    return async () => {
      delete process.env[TEMPLATES_ENV];
      rmSync(root, { recursive: true, force: true });
    };
  }
  const base = `mkt_tpl_${process.pid}_${randomBytes(4).toString("hex")}`;
  const migrated = `${base}_migrated`;
  const seeded = `${base}_seeded`;
  const drop = async () => {
    delete process.env[TEMPLATES_ENV];
    await dropDatabase(seeded, log);
    await dropDatabase(migrated, log);
  };
  try {
    await timed("database", "template: migrated", async () => {
      await adminQuery(`CREATE DATABASE "${migrated}"`);
      await (options.migrateDatabase ?? migrateInProcess)(databaseUrlFor(ADMIN_URL, migrated), log);
    });
    await timed("database", "template: seeded", async () => {
      await adminQuery(`CREATE DATABASE "${seeded}" TEMPLATE "${migrated}"`);
      await run("npx", ["tsx", "prisma/seed.ts"], { ...process.env, DATABASE_URL: databaseUrlFor(ADMIN_URL, seeded) });
    });
  } catch (err) {
    await drop();
    throw err;
  }
  log(`template databases ${migrated} and ${seeded}`);
  process.env[TEMPLATES_ENV] = JSON.stringify({ embedded: false, adminUrl: ADMIN_URL, seeded, migrated } satisfies Templates);
  return drop;
}

/**
 * A fresh embedded database: a copy of the run's template, or an empty folder, which the app
 * started on it (startServer with `database`) migrates and seeds on its first start.
 */
async function createEmbeddedDatabase(log: (line: string) => void, seeded: boolean, template: string | undefined): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `mkt_test_${process.pid}_`));
  if (template) cpSync(template, dataDir, { recursive: true });
  else if (!seeded) writeFileSync(path.join(dataDir, SEEDED_MARKER), "migrated, no catalog\n");
  const port = await freePort();
  log(`embedded database in ${dataDir}${template ? " (a copy of the template)" : ""}, served on port ${port} by its app`);
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

/**
 * A fresh database of its own, migrated and seeded (or only migrated, `seeded: false`): a copy of
 * the run's template when there is one; otherwise made here (embedded: by the app that opens it).
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const log = logger(options);
  const embedded = options.embedded ?? EMBEDDED;
  const seeded = options.seeded ?? true;
  const adminUrl = options.adminUrl ?? ADMIN_URL;
  const template = templateFor(embedded, adminUrl, seeded);
  const label = template ? "copy of a template" : embedded ? "empty folder" : seeded ? "migrated and seeded" : "migrated";
  return timed("database", label, async () => {
    if (embedded) return createEmbeddedDatabase(log, seeded, template);
    const migrateDatabase = options.migrateDatabase ?? migrateInProcess;
    const databaseName = `mkt_test_${process.pid}_${randomBytes(4).toString("hex")}`;
    const databaseUrl = databaseUrlFor(adminUrl, databaseName);
    let dropped = false;
    const drop = async () => {
      if (dropped) return;
      dropped = true;
      await dropDatabase(databaseName, log, adminUrl);
    };
    if (template) {
      await adminQuery(`CREATE DATABASE "${databaseName}" TEMPLATE "${template}"`, adminUrl);
      log(`created database ${databaseName} from ${template}`);
      return { databaseUrl, databaseName, drop };
    }
    await adminQuery(`CREATE DATABASE "${databaseName}"`, adminUrl);
    log(`created database ${databaseName}`);
    try {
      await migrateDatabase(databaseUrl, log);
      if (seeded) {
        const seedStart = Date.now();
        await run("npx", ["tsx", "prisma/seed.ts"], { ...process.env, DATABASE_URL: databaseUrl });
        log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(1)}s`);
      }
    } catch (err) {
      await drop();
      throw err;
    }
    return { databaseUrl, databaseName, drop };
  });
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
    // Tests read e-mailed links from outbox_emails; tests/integration/account-security.test.ts
    // passes `OUTBOX_KEEPS_LINKS: undefined` to see production's own behaviour.
    OUTBOX_KEEPS_LINKS: "on",
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
  // The server keeps idle connections longer than the tests' fetch (undici, 4 s) does, so that it
  // never closes a socket the client is just reusing ("other side closed" under a loaded machine).
  const args = ["-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"];
  const server = spawn(process.execPath, [SUPERVISOR, "npm", "run", "start", "--", ...args], {
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
    // KEEP_SERVER_LOG=1 keeps the app's log ($TMPDIR/mkt_server_<port>_*.log) to read after a failure.
    if (!process.env.KEEP_SERVER_LOG) rmSync(serverLog, { force: true });
  };
  // If the runner exits without stopping it, do not leave the server running (a runner killed by
  // a signal runs no exit handler: the supervisor covers that).
  const onExit = () => killChildGroup(server, "SIGKILL");
  process.on("exit", onExit);
  // A test that timed out (or a cancelled run) stops its server even if its own code never gets
  // to: the next test may need the port or the embedded folder.
  const onAbort = () => void stop();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  let lastOutputAt = Date.now();
  server.stdout!.pipe(createWriteStream(serverLog));
  server.stdout!.on("data", (d) => {
    lastOutputAt = Date.now();
    stdout += d;
    if (stdout.length > 200_000) stdout = stdout.slice(-100_000);
  });
  server.stderr!.on("data", (d) => {
    lastOutputAt = Date.now();
    stderr += d;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  if (process.env.TEST_SERVER_LOG) {
    server.stdout!.pipe(process.stderr);
    server.stderr!.pipe(process.stderr);
  }
  try {
    await waitForServer(baseUrl, server, { stderr: () => stderr, stdout: () => stdout, lastOutputAt: () => lastOutputAt });
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
