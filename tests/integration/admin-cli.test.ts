/**
 * decisions.md "Accounts and operator commands": `npm run --silent admin -- …` (what that script runs,
 * and once through npm itself), run for real as a
 * child process, on a PostgreSQL database of its own (when DATABASE_URL names a server) and on a
 * fresh embedded folder (always) that an app started on it migrated and seeded, then stopped.
 * Each command prints its result as the last line of stdout and exits 0; bad input exits non-zero
 * with a one-line reason on stderr and changes nothing.
 *
 * Embedded: the folder serves one process at a time, so the commands run while no app does, and
 * the database is inspected by opening the folder in the test's own process, or, where a test
 * looks at what the app serves, through an app started for the purpose (and stopped again).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { verifyPassword } from "../../lib/accounts/password";
import { authenticateApiKey } from "../../lib/auth/api-keys";
import { createDb } from "../../lib/db";
import { openEmbedded } from "../../lib/db/embedded";
import { api } from "../helpers/http";
import { createTestOrder } from "../helpers/orders";
import { createTestDatabase, groupAlive, killGroup, startServer, type StartedServer, type TestDatabase } from "../setup/app";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * What `npm run admin` runs (package.json's `admin` script), started directly: npm itself adds
 * about a second to each of the ~70 commands per target. One test runs the command through
 * `npm run --silent admin --` as an operator types it (`viaNpm`).
 */
const ADMIN_COMMAND = ["node", "--import", "tsx", "scripts/admin.ts"];

/**
 * The operator command with `args`, with `env` over this process's environment. With the test's
 * `signal`, a test that timed out kills its command (and anything it started: its process group)
 * and starts no more, so the next test does not find the embedded folder held.
 */
function admin(args: string[], env: Record<string, string | undefined>, signal?: AbortSignal, { viaNpm = false } = {}): Promise<Ran> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error(`admin ${args.join(" ")}: the test was aborted`));
    const [command, ...commandArgs] = viaNpm ? ["npm", "run", "--silent", "admin", "--"] : ADMIN_COMMAND;
    const child = spawn(command!, [...commandArgs, ...args], {
      cwd: process.cwd(),
      env: childEnv,
      detached: true, // its own process group, killed as one on abort
      stdio: ["ignore", "pipe", "pipe"],
    });
    const onAbort = () => killGroup(child.pid, "SIGKILL");
    signal?.addEventListener("abort", onAbort, { once: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", async (code) => {
      signal?.removeEventListener("abort", onAbort);
      // Killed: done once nothing of the group is left (the folder is free only then).
      while (signal?.aborted && groupAlive(child.pid!)) await new Promise((r) => setTimeout(r, 20));
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * How long a test of the command blocks may take before it counts as hung. Not a speed check:
 * each command is a `tsx` start and, embedded, a database open; on a loaded machine (load 10-16
 * on two cores) a test of five commands and an app start took over 300 s.
 */
const HANG_GUARD_MS = 900_000;

/** Lines of stderr that are the command's own (not the embedded database's progress lines). */
function reasonLines(stderr: string): string[] {
  return stderr.split("\n").filter((l) => l !== "" && !l.startsWith("[embedded database]"));
}

function expectResult(ran: Ran, result: string | RegExp) {
  expect(ran.code, `exit code; stderr: ${ran.stderr}`).toBe(0);
  // The result is the last line of stdout, and nothing else is printed there.
  expect(ran.stdout.endsWith("\n"), ran.stdout).toBe(true);
  const lines = ran.stdout.slice(0, -1).split("\n");
  expect(lines, "stdout").toHaveLength(1);
  if (typeof result === "string") expect(lines[0]).toBe(result);
  else expect(lines[0]).toMatch(result);
  expect(ran.stderr).not.toMatch(/^admin:/m);
  return lines[0]!;
}

function expectRefusal(ran: Ran, reason: RegExp, code = 2) {
  expect(ran.code, `exit code; stdout: ${ran.stdout}; stderr: ${ran.stderr}`).toBe(code);
  expect(ran.stdout, "nothing on stdout").toBe("");
  const lines = reasonLines(ran.stderr);
  expect(lines, "one line on stderr").toHaveLength(1);
  expect(lines[0]).toMatch(/^admin: /);
  expect(lines[0]).toMatch(reason);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = /^mk_live_([a-z0-9]{16})\.([A-Za-z0-9_-]{43})$/;

/** A database to run the commands on, and ways to look at it. */
interface Target {
  /** Environment of the command: DATABASE_URL, or the embedded folder. */
  env: Record<string, string | undefined>;
  /** Runs `fn` on the database. */
  inspect<T>(fn: (db: pg.Pool, databaseUrl: string) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Runs `fn` on the database and an app serving it; the app started for it (embedded) stops when `signal` aborts. */
  inspectApp<T>(fn: (db: pg.Pool, baseUrl: string, databaseUrl: string) => Promise<T>, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
}

/** PostgreSQL: a database of its own and an app that serves it throughout. */
async function serverTarget(): Promise<Target> {
  const database = await createTestDatabase({ embedded: false, logPrefix: "[admin-cli pg]" });
  let server: StartedServer;
  try {
    server = await startServer({ database, logPrefix: "[admin-cli pg]" });
  } catch (err) {
    await database.drop();
    throw err;
  }
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 2 });
  return {
    env: { DATABASE_URL: database.databaseUrl, EMBEDDED_DATA_DIR: undefined, EMBEDDED_DATABASE_PORT: undefined },
    inspect: (fn) => fn(pool, database.databaseUrl),
    inspectApp: (fn) => fn(pool, server.baseUrl, database.databaseUrl),
    close: async () => {
      await pool.end();
      await server.stop();
      await database.drop();
    },
  };
}

/**
 * Embedded: a folder an app migrated and seeded, then stopped (a copy of the run's template is
 * that already); inspected in this process, or by starting an app again.
 */
async function embeddedTarget(): Promise<Target> {
  const database: TestDatabase = await createTestDatabase({ embedded: true, logPrefix: "[admin-cli embedded]" });
  const dataDir = database.embedded!.dataDir;
  try {
    if (!existsSync(path.join(dataDir, "seeded"))) {
      const first = await startServer({ database, logPrefix: "[admin-cli embedded]" });
      await first.stop();
    }
  } catch (err) {
    await database.drop();
    throw err;
  }
  return {
    env: { DATABASE_URL: undefined, EMBEDDED_DATA_DIR: dataDir, EMBEDDED_DATABASE_PORT: undefined },
    inspect: async (fn) => {
      // Opened here as the app would open it (migrations checked), served on a loopback port.
      const opened = openEmbedded(dataDir, { listenPort: 0 });
      try {
        await opened.ready;
        const databaseUrl = `postgresql://postgres@127.0.0.1:${opened.listenPort()}/postgres`;
        const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
        try {
          return await fn(pool, databaseUrl);
        } finally {
          await pool.end();
        }
      } finally {
        await opened.close();
      }
    },
    inspectApp: async (fn, signal) => {
      const server = await startServer({ database, logPrefix: "[admin-cli embedded]", signal });
      const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 1 });
      try {
        return await fn(pool, server.baseUrl, database.databaseUrl);
      } finally {
        await pool.end();
        await server.stop();
      }
    },
    close: () => database.drop(),
  };
}

/** What the commands can change, to prove that a refused command changed nothing. */
async function snapshot(db: pg.Pool) {
  const q = async (sql: string) => (await db.query(sql)).rows;
  return {
    users: await q(`SELECT id, email, name, role, password_hash, updated_at FROM users ORDER BY id`),
    owners: await q(`SELECT store_id, user_id FROM store_owners ORDER BY store_id, user_id`),
    keys: await q(`SELECT key_id, name, scopes, revoked_at FROM api_keys ORDER BY key_id`),
    settings: await q(`SELECT key, value, updated_at FROM settings ORDER BY key`),
    stores: await q(`SELECT slug, status, updated_at FROM stores ORDER BY slug`),
    orders: await q(`SELECT id, status, delivered_at, updated_at FROM orders ORDER BY id`),
    parts: await q(`SELECT order_id, store_id, status, tracking_number FROM order_stores ORDER BY order_id, store_id`),
  };
}

/** How the key authenticates now: its store id, or the error code. */
async function keyAnswer(databaseUrl: string, key: string): Promise<string> {
  const client = createDb(databaseUrl);
  try {
    return (await authenticateApiKey(client, key)).storeId;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await client.$disconnect();
  }
}

/** What the public API shows of store B: the products of q=Quokkaphone and the offers' stores. */
async function publicView(baseUrl: string) {
  const search = await api(`${baseUrl}/api/public/v1/search?q=Quokkaphone&page_size=50`);
  expect(search.status).toBe(200);
  const mixed = await api(`${baseUrl}/api/public/v1/products/fixture-mixed-offers`);
  const backorder = await api(`${baseUrl}/api/public/v1/products/fixture-backorder-only`);
  expect(mixed.status).toBe(200);
  expect(backorder.status).toBe(200);
  return {
    searchSlugs: (search.json.data as any[]).map((p) => p.slug).sort(),
    mixedStores: (mixed.json.data.offers as any[]).map((o) => o.store_slug).sort(),
    backorderStores: (backorder.json.data.offers as any[]).map((o) => o.store_slug),
  };
}

const CLEANUP_LINE = /^cart_links=(\d+) carts=(\d+) idempotency_keys=(\d+) login_tokens=(\d+) oauth_records=(\d+)$/;

interface CleanupCounts {
  cart_links: number;
  carts: number;
  idempotency_keys: number;
  login_tokens: number;
}

function cleanupCounts(line: string): CleanupCounts {
  const m = CLEANUP_LINE.exec(line);
  if (!m) throw new Error(`not a cleanup summary: ${line}`);
  return { cart_links: Number(m[1]), carts: Number(m[2]), idempotency_keys: Number(m[3]), login_tokens: Number(m[4]) };
}

/** What `cleanup` would delete now, counted with SQL. */
async function cleanable(db: pg.Pool): Promise<CleanupCounts> {
  const { rows } = await db.query(`SELECT
    (SELECT count(*)::int FROM cart_links WHERE expires_at < now()) AS cart_links,
    (SELECT count(*)::int FROM carts WHERE updated_at < now() - interval '90 days') AS carts,
    (SELECT count(*)::int FROM idempotency_keys WHERE expires_at < now()) AS idempotency_keys,
    (SELECT count(*)::int FROM login_tokens WHERE expires_at < now()) AS login_tokens`);
  return rows[0];
}

interface OldData {
  /** Rows cleanup must delete, by kind, and what must stay. */
  gone: { carts: string[]; links: string[] };
  kept: { carts: string[]; links: string[]; keys: string[]; tokens: string[] };
  made: CleanupCounts;
}

/**
 * Rows with old timestamps beside fresh ones: expired cart links (with their lines, opened by a
 * fresh cart), carts idle for 91 days (anonymous and an account's, with lines, one having opened
 * a fresh link), expired idempotency keys and sign-in links; and, each time, what must stay: a
 * link still valid, carts changed 89 days ago and now, keys and sign-in links not yet expired.
 * `bulk` more of each old kind, to span several batches.
 */
async function makeOldData(db: pg.Pool, tag: string, bulk = 0): Promise<OldData> {
  const q = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)).rows;
  const [listing] = await q(`SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1`);
  const users = (await q(`SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM carts WHERE user_id IS NOT NULL) ORDER BY id LIMIT 2`)).map((r) => r.id);
  const cart = async (ago: string, userId: string | null) => {
    const [row] = await q(
      `INSERT INTO carts (token_hash, user_id, created_at, updated_at)
       VALUES (CASE WHEN $1::uuid IS NULL THEN sha256(gen_random_uuid()::text::bytea) END, $1, now() - $2::interval, now() - $2::interval) RETURNING id`,
      [userId, ago],
    );
    await q(`INSERT INTO cart_lines (cart_id, listing_id, quantity, price_cents, added_at) VALUES ($1, $2, 1, 100, now() - $3::interval)`, [row.id, listing.id, ago]);
    return row.id as string;
  };
  const link = async (expiresIn: string) => {
    const [row] = await q(
      `INSERT INTO cart_links (token_hash, expires_at, created_at) VALUES (sha256(gen_random_uuid()::text::bytea), now() + $1::interval, now() - interval '8 days') RETURNING id`,
      [expiresIn],
    );
    await q(`INSERT INTO cart_link_lines (link_id, listing_id, position, quantity, price_cents) VALUES ($1, $2, 0, 1, 100)`, [row.id, listing.id]);
    return row.id as string;
  };
  const open = (cartId: string, linkId: string) => q(`INSERT INTO cart_link_opens (cart_id, link_id) VALUES ($1, $2)`, [cartId, linkId]);

  const keptCarts = [await cart("89 days", null), await cart("1 minute", users[0])];
  const goneCarts = [await cart("91 days", null), await cart("100 days", null), await cart("91 days", users[1])];
  const keptLinks = [await link("7 days"), await link("1 hour")];
  const goneLinks = [await link("-1 second"), await link("-1 day"), await link("-30 days")];
  for (const linkId of goneLinks) await open(keptCarts[0]!, linkId);
  await open(goneCarts[2]!, keptLinks[0]!);
  await q(
    `INSERT INTO idempotency_keys (owner, key, method, path, request_hash, status, response, created_at, expires_at)
     SELECT 'cleanup-${tag}', k, 'POST', '/x', '\\x00', 200, '{}', now() - interval '2 days', now() + e::interval
     FROM (VALUES ('old-1', '-1 hour'), ('old-2', '-1 day'), ('new-1', '1 hour')) AS v(k, e)`,
  );
  await q(
    `INSERT INTO login_tokens (token_hash, email, expires_at)
     SELECT sha256(('${tag}' || e)::bytea), 'cleanup-${tag}@example.com', now() + e::interval
     FROM (VALUES ('-1 minute'), ('-2 days'), ('15 minutes')) AS v(e)`,
  );
  if (bulk > 0) {
    await q(
      `INSERT INTO idempotency_keys (owner, key, method, path, request_hash, status, response, created_at, expires_at)
       SELECT 'cleanup-${tag}', 'bulk-' || i, 'POST', '/x', '\\x00', 200, '{}', now() - interval '2 days', now() - interval '1 day'
       FROM generate_series(1, $1::int) AS i`,
      [bulk],
    );
    await q(
      `INSERT INTO carts (token_hash, created_at, updated_at)
       SELECT sha256(('${tag}-' || i)::bytea), now() - interval '120 days', now() - interval '95 days' FROM generate_series(1, $1::int) AS i`,
      [bulk],
    );
    await q(
      `INSERT INTO cart_links (token_hash, expires_at, created_at)
       SELECT sha256(('${tag}-link-' || i)::bytea), now() - interval '1 day', now() - interval '8 days' FROM generate_series(1, $1::int) AS i`,
      [bulk],
    );
    await q(
      `INSERT INTO login_tokens (token_hash, email, expires_at)
       SELECT sha256(('${tag}-token-' || i)::bytea), 'cleanup-${tag}@example.com', now() - interval '1 day' FROM generate_series(1, $1::int) AS i`,
      [bulk],
    );
  }
  const keys = (await q(`SELECT owner || '/' || key AS k FROM idempotency_keys WHERE owner = $1 AND key LIKE 'new-%'`, [`cleanup-${tag}`])).map((r) => r.k);
  const tokens = (await q(`SELECT encode(token_hash, 'hex') AS h FROM login_tokens WHERE email = $1 AND expires_at > now()`, [`cleanup-${tag}@example.com`])).map((r) => r.h);
  return {
    gone: { carts: goneCarts, links: goneLinks },
    kept: { carts: keptCarts, links: keptLinks, keys, tokens },
    made: { cart_links: 3 + bulk, carts: 3 + bulk, idempotency_keys: 2 + bulk, login_tokens: 2 + bulk },
  };
}

/** After cleanup: the old rows and what cascades with them are gone; everything fresh is whole. */
async function expectCleaned(db: pg.Pool, data: OldData) {
  const n = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows[0].n as number;
  expect(await cleanable(db)).toEqual({ cart_links: 0, carts: 0, idempotency_keys: 0, login_tokens: 0 });
  expect(await n(`SELECT count(*)::int AS n FROM carts WHERE id = ANY($1::uuid[])`, [data.gone.carts])).toBe(0);
  expect(await n(`SELECT count(*)::int AS n FROM cart_lines WHERE cart_id = ANY($1::uuid[])`, [data.gone.carts])).toBe(0);
  expect(await n(`SELECT count(*)::int AS n FROM cart_links WHERE id = ANY($1::uuid[])`, [data.gone.links])).toBe(0);
  expect(await n(`SELECT count(*)::int AS n FROM cart_link_lines WHERE link_id = ANY($1::uuid[])`, [data.gone.links])).toBe(0);
  expect(await n(`SELECT count(*)::int AS n FROM cart_link_opens WHERE link_id = ANY($1::uuid[]) OR cart_id = ANY($2::uuid[])`, [data.gone.links, data.gone.carts])).toBe(0);
  // Kept: the fresh carts with their lines, the valid links with theirs, fresh keys and tokens.
  expect(await n(`SELECT count(*)::int AS n FROM carts WHERE id = ANY($1::uuid[])`, [data.kept.carts])).toBe(data.kept.carts.length);
  expect(await n(`SELECT count(*)::int AS n FROM cart_lines WHERE cart_id = ANY($1::uuid[])`, [data.kept.carts])).toBe(data.kept.carts.length);
  expect(await n(`SELECT count(*)::int AS n FROM cart_links WHERE id = ANY($1::uuid[])`, [data.kept.links])).toBe(data.kept.links.length);
  expect(await n(`SELECT count(*)::int AS n FROM cart_link_lines WHERE link_id = ANY($1::uuid[])`, [data.kept.links])).toBe(data.kept.links.length);
  expect(data.kept.keys).toHaveLength(1);
  expect(await n(`SELECT count(*)::int AS n FROM idempotency_keys WHERE owner || '/' || key = ANY($1::text[])`, [data.kept.keys])).toBe(1);
  expect(data.kept.tokens).toHaveLength(1);
  expect(await n(`SELECT count(*)::int AS n FROM login_tokens WHERE encode(token_hash, 'hex') = ANY($1::text[])`, [data.kept.tokens])).toBe(1);
}

function plus(a: CleanupCounts, b: CleanupCounts): CleanupCounts {
  return {
    cart_links: a.cart_links + b.cart_links,
    carts: a.carts + b.carts,
    idempotency_keys: a.idempotency_keys + b.idempotency_keys,
    login_tokens: a.login_tokens + b.login_tokens,
  };
}

const TARGETS = [
  { label: "a PostgreSQL database (DATABASE_URL)", make: serverTarget, embedded: false, enabled: Boolean(process.env.DATABASE_URL) },
  { label: "an embedded folder (app stopped)", make: embeddedTarget, embedded: true, enabled: true },
];

for (const { label, make: makeTarget, embedded, enabled } of TARGETS) {
  describe.runIf(enabled)(`operator commands on ${label}`, () => {
    let target: Target;
    // The running test's signal: aborted when it times out. A test that timed out kills its
    // commands and its app and starts no more; the next one starts once they are gone.
    let signal: AbortSignal | undefined;
    const running = new Set<Promise<unknown>>();
    const track = <T>(work: Promise<T>): Promise<T> => {
      running.add(work);
      void work.finally(() => running.delete(work)).catch(() => {});
      return work;
    };
    const run = (...args: string[]) => track(admin(args, target.env, signal));
    const inspect = <T>(fn: (db: pg.Pool, databaseUrl: string) => Promise<T>) => track(target.inspect(fn, signal));
    const inspectApp = <T>(fn: (db: pg.Pool, baseUrl: string, databaseUrl: string) => Promise<T>) =>
      track(target.inspectApp(fn, signal));

    beforeAll(async () => {
      target = await makeTarget();
    }, HANG_GUARD_MS);
    beforeEach((context) => {
      signal = context.signal;
    });
    afterEach(async () => {
      await Promise.allSettled([...running]);
    });
    afterAll(async () => {
      await target?.close();
    });

    let ownerId = "";
    let keyId = "";
    let fullKey = "";

    it("user create: creates users (roles, --store ownership), prints the id; again resets the password", async () => {
      const owner = expectResult(
        await run("user", "create", "--email", " New.Owner@Example.COM ", "--password", "first-pass-1", "--name", "New Owner", "--store", "fixture-store-a"),
        UUID,
      );
      const shopper = expectResult(await run("user", "create", "--email", "shopper1@example.com", "--password", "shopper-pass"), UUID);
      const adminId = expectResult(
        await run("user", "create", "--email", "admin1@example.com", "--password", "admin-pass-1", "--role", "admin"),
        UUID,
      );
      const both = expectResult(
        await run("user", "create", "--email", "owner-of-b@example.com", "--password", "owner-pass-b", "--role", "store_owner", "--store", "fixture-store-b"),
        UUID,
      );
      // The same e-mail again: the same account, a new password, the rest kept.
      expectResult(await run("user", "create", "--email", "new.owner@example.com", "--password", "second-pass-2"), owner);
      expect(new Set([owner, shopper, adminId, both]).size).toBe(4);
      ownerId = owner;

      await inspect(async (db) => {
        const users = (
          await db.query(
            `SELECT u.id, u.email, u.name, u.role, u.password_hash,
               coalesce((SELECT array_agg(s.slug ORDER BY s.slug) FROM store_owners o JOIN stores s ON s.id = o.store_id WHERE o.user_id = u.id), '{}') AS stores
             FROM users u WHERE u.id = ANY($1::uuid[])`,
            [[owner, shopper, adminId, both]],
          )
        ).rows;
        const byId = new Map(users.map((u) => [u.id, u]));
        expect(byId.get(owner)).toMatchObject({ email: "new.owner@example.com", name: "New Owner", role: "store_owner", stores: ["fixture-store-a"] });
        expect(byId.get(shopper)).toMatchObject({ email: "shopper1@example.com", name: null, role: "shopper", stores: [] });
        expect(byId.get(adminId)).toMatchObject({ email: "admin1@example.com", role: "admin", stores: [] });
        expect(byId.get(both)).toMatchObject({ role: "store_owner", stores: ["fixture-store-b"] });
        const hash = byId.get(owner)!.password_hash as string;
        expect(hash).toMatch(/^scrypt\$/);
        expect(await verifyPassword("second-pass-2", hash)).toBe(true);
        expect(await verifyPassword("first-pass-1", hash)).toBe(false);
        expect(await verifyPassword("shopper-pass", byId.get(shopper)!.password_hash)).toBe(true);
      });
    }, HANG_GUARD_MS);

    it("key create prints the full key once; only its hash and last 4 characters are stored; key revoke prints revoked", async () => {
      fullKey = expectResult(
        await run("key", "create", "--store", "fixture-store-b", "--scopes", "shipping:write,listings:read", "--name", "Feed sync"),
        KEY,
      );
      const [, id, secret] = KEY.exec(fullKey)!;
      keyId = id!;
      const defaultNamed = expectResult(await run("key", "create", "--store", "fixture-store-a", "--scopes", "listings:read", "--expires-in", "30"), KEY);
      const revokedId = KEY.exec(defaultNamed)![1]!;
      expectResult(await run("key", "revoke", revokedId), "revoked");
      // Revoking again is fine, and says so the same way.
      expectResult(await run("key", "revoke", revokedId), "revoked");

      await inspect(async (db) => {
        const rows = (
          await db.query(
            `SELECT k.key_id, k.name, k.scopes, k.last4, k.secret_hash, k.revoked_at, s.slug
             FROM api_keys k JOIN stores s ON s.id = k.store_id ORDER BY k.created_at`,
          )
        ).rows;
        expect(rows.map((r) => [r.key_id, r.slug, r.name, r.scopes, r.revoked_at === null])).toEqual([
          [keyId, "fixture-store-b", "Feed sync", ["listings:read", "shipping:write"], true],
          [revokedId, "fixture-store-a", "Operator key", ["listings:read"], false],
        ]);
        const expiry = await db.query(`SELECT key_id, round(extract(epoch FROM expires_at - created_at) / 86400)::int AS days FROM api_keys ORDER BY created_at`);
        expect(expiry.rows.map((r) => [r.key_id, r.days])).toEqual([
          [keyId, null],
          [revokedId, 30],
        ]);
        const row = rows[0]!;
        expect(row.last4).toBe(secret!.slice(-4));
        expect(Buffer.from(row.secret_hash).equals(createHash("sha256").update(secret!).digest())).toBe(true);
        // Neither the key nor its secret is anywhere in the database.
        const tables = (
          await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
        ).rows.map((r) => r.table_name as string);
        expect(tables).toContain("api_keys");
        for (const table of tables) {
          for (const needle of [fullKey, secret!]) {
            const found = await db.query(`SELECT count(*)::int AS n FROM "${table}" t WHERE t::text LIKE $1`, [`%${needle}%`]);
            expect(found.rows[0].n, `${table} holds the key`).toBe(0);
          }
        }
      });
    }, HANG_GUARD_MS);

    it("setting set agentic_checkout on|off prints the new value (typed as an operator does: npm run --silent admin -- …)", async () => {
      expectResult(await track(admin(["setting", "set", "agentic_checkout", "on"], target.env, signal, { viaNpm: true })), "on");
      const on = await inspect(async (db) => (await db.query(`SELECT value FROM settings WHERE key = 'agentic_checkout'`)).rows);
      expect(on).toEqual([{ value: true }]);
      expectResult(await run("setting", "set", "agentic_checkout", "off"), "off");
      const off = await inspect(async (db) => (await db.query(`SELECT value FROM settings WHERE key = 'agentic_checkout'`)).rows);
      expect(off).toEqual([{ value: false }]);
    }, HANG_GUARD_MS);

    it("store set-status: suspended takes the store's offers off search and product pages at once; active brings them back", async () => {
      const before = await inspectApp(async (_db, baseUrl) => publicView(baseUrl));
      expect(before.searchSlugs).toContain("fixture-backorder-only");
      expect(before.mixedStores).toContain("fixture-store-b");
      expect(before.backorderStores).toEqual(["fixture-store-b"]);

      expectResult(await run("store", "set-status", "fixture-store-b", "suspended"), "suspended");
      const suspended = await inspectApp(async (db, baseUrl, databaseUrl) => ({
        status: (await db.query(`SELECT status::text FROM stores WHERE slug = 'fixture-store-b'`)).rows[0].status,
        storeId: (await db.query(`SELECT id FROM stores WHERE slug = 'fixture-store-b'`)).rows[0].id,
        view: await publicView(baseUrl),
        key: await keyAnswer(databaseUrl, fullKey),
      }));
      expect(suspended.status).toBe("suspended");
      expect(suspended.view.searchSlugs).not.toContain("fixture-backorder-only");
      expect(suspended.view.searchSlugs).toContain("fixture-mixed-offers"); // store A still offers it
      expect(suspended.view.mixedStores).not.toContain("fixture-store-b");
      expect(suspended.view.mixedStores.length).toBeGreaterThan(0);
      expect(suspended.view.backorderStores).toEqual([]);
      // The store's keys (fullKey is store B's) are refused while it is not active.
      expect(suspended.key).toBe("store_inactive");

      expectResult(await run("store", "set-status", "fixture-store-b", "closed"), "closed");
      expectResult(await run("store", "set-status", "fixture-store-b", "active"), "active");
      const restored = await inspectApp(async (_db, baseUrl, databaseUrl) => ({
        view: await publicView(baseUrl),
        key: await keyAnswer(databaseUrl, fullKey),
      }));
      expect(restored.view).toEqual(before);
      expect(restored.key).toBe(suspended.storeId);
    }, HANG_GUARD_MS);

    it("order mark ORDER shipped|delivered: every placed part ships, then every shipped part is delivered; prints the new status", async () => {
      const order = await inspect((db) =>
        createTestOrder(db, {
          userId: null,
          email: "guest@example.com",
          parts: [
            { store: "fixture-store-a", lines: [{ quantity: 1 }] },
            { store: "fixture-store-b", lines: [{ quantity: 2 }] },
          ],
        }),
      );
      expectRefusal(await run("order", "mark", order.number, "delivered"), /is placed: mark it shipped first/);
      expectResult(await run("order", "mark", order.number.toLowerCase(), "shipped", "--tracking", "1Z-OPS-1"), "shipped");
      expectRefusal(await run("order", "mark", order.id, "shipped"), /is shipped/);
      expectResult(await run("order", "mark", order.id, "delivered"), "delivered");
      const state = await inspect(async (db) => ({
        order: (await db.query(`SELECT status::text, delivered_at IS NOT NULL AS delivered FROM orders WHERE id = $1`, [order.id])).rows[0],
        parts: (await db.query(`SELECT status::text, tracking_number FROM order_stores WHERE order_id = $1`, [order.id])).rows,
        events: (await db.query(`SELECT count(*)::int AS n FROM order_events WHERE order_id = $1`, [order.id])).rows[0].n,
        mails: (await db.query(`SELECT count(*)::int AS n FROM outbox_emails WHERE subject = $1`, [`Your order ${order.number} has shipped`])).rows[0].n,
      }));
      expect(state.order).toEqual({ status: "delivered", delivered: true });
      expect(state.parts).toEqual([
        { status: "delivered", tracking_number: "1Z-OPS-1" },
        { status: "delivered", tracking_number: "1Z-OPS-1" },
      ]);
      // placed; each part shipped, the order shipped; each part delivered, the order delivered.
      expect(state.events).toBe(7);
      expect(state.mails).toBe(2);
    }, HANG_GUARD_MS);

    it("user create --demo-buyer: a default US address and the saved test card as the default method; twice adds nothing", async () => {
      const id = expectResult(await run("user", "create", "--email", "demo.buyer@example.com", "--password", "buyer-pass-1", "--name", "Bo Buyer", "--demo-buyer"), UUID);
      expectResult(await run("user", "create", "--email", "demo.buyer@example.com", "--password", "buyer-pass-2", "--demo-buyer"), id);
      // The seed's shopper is a demo buyer already: running it on that account adds nothing either.
      expectResult(await run("user", "create", "--email", "demo-shopper@example.com", "--password", "demo-password", "--demo-buyer"), UUID);
      await inspect(async (db) => {
        const addresses = (
          await db.query(
            `SELECT u.email, a.full_name, a.line1, a.line2, a.city, a.state, a.postal_code, a.country, a.is_default
             FROM addresses a JOIN users u ON u.id = a.user_id WHERE u.email IN ('demo.buyer@example.com', 'demo-shopper@example.com') ORDER BY u.email`,
          )
        ).rows;
        expect(addresses).toEqual([
          { email: "demo-shopper@example.com", full_name: "Dana Shopper", line1: "100 Market Street", line2: "Apt 4", city: "San Francisco", state: "CA", postal_code: "94105", country: "US", is_default: true },
          { email: "demo.buyer@example.com", full_name: "Bo Buyer", line1: "100 Market Street", line2: "Apt 4", city: "San Francisco", state: "CA", postal_code: "94105", country: "US", is_default: true },
        ]);
        const methods = (
          await db.query(
            `SELECT u.email, p.provider, p.provider_ref, p.brand, p.last4, p.is_default
             FROM payment_methods p JOIN users u ON u.id = p.user_id WHERE u.email IN ('demo.buyer@example.com', 'demo-shopper@example.com') ORDER BY u.email`,
          )
        ).rows;
        expect(methods).toEqual(
          ["demo-shopper@example.com", "demo.buyer@example.com"].map((email) => ({
            email, provider: "test", provider_ref: "test_card", brand: "Test card", last4: "4242", is_default: true,
          })),
        );
        const [user] = (await db.query(`SELECT password_hash FROM users WHERE id = $1`, [id])).rows;
        expect(await verifyPassword("buyer-pass-2", user.password_hash)).toBe(true);
      });
    }, HANG_GUARD_MS);

    it("cleanup deletes expired cart links, idle carts, expired idempotency keys and sign-in links, counting each; again deletes nothing", async () => {
      const { data, before } = await inspect(async (db) => {
        const before = await cleanable(db);
        return { data: await makeOldData(db, "once"), before };
      });
      const first = await run("cleanup");
      expect(cleanupCounts(expectResult(first, CLEANUP_LINE))).toEqual(plus(before, data.made));
      expect(expectResult(await run("cleanup"), CLEANUP_LINE)).toBe("cart_links=0 carts=0 idempotency_keys=0 login_tokens=0 oauth_records=0");
      await inspect((db) => expectCleaned(db, data));
    }, HANG_GUARD_MS);

    it("two cleanups at once: neither fails, nothing is counted twice, nothing fresh is deleted", async () => {
      // Enough old rows for several batches of each kind.
      const { data, before } = await inspect(async (db) => {
        const before = await cleanable(db);
        return { data: await makeOldData(db, "twice", 2_500), before };
      });
      const both = await Promise.all([run("cleanup"), run("cleanup")]);
      let total: CleanupCounts = { cart_links: 0, carts: 0, idempotency_keys: 0, login_tokens: 0 };
      let succeeded = 0;
      for (const ran of both) {
        if (embedded && ran.code === 1) {
          // The embedded folder serves one process at a time: the other run says so and does nothing.
          expectRefusal(ran, /embedded database in .* is open in another process \(pid \d+\)/, 1);
          continue;
        }
        total = plus(total, cleanupCounts(expectResult(ran, CLEANUP_LINE)));
        succeeded += 1;
      }
      expect(succeeded).toBeGreaterThanOrEqual(embedded ? 1 : 2);
      expect(total).toEqual(plus(before, data.made));
      await inspect((db) => expectCleaned(db, data));
    }, HANG_GUARD_MS);

    it("bad input: a one-line reason, a non-zero exit, nothing changed", async () => {
      // "db": refused once the database is open (the others are refused before it is opened).
      const cases: Array<[string[], RegExp, "db"?]> = [
        [[], /no command given/],
        [["frobnicate"], /unknown command 'frobnicate'/],
        [["user", "delete"], /unknown command 'user delete'/],
        [["user", "create", "--password", "long-enough-1"], /--email is required/],
        [["user", "create", "--email", "x@example.com"], /--password is required/],
        [["user", "create", "--email"], /--email needs a value/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--bogus", "1"], /unknown flag '--bogus'/],
        [["user", "create", "--email", "x@example.com", "--email", "y@example.com", "--password", "long-enough-1"], /--email is given 2 times/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "extra"], /unexpected argument 'extra'/],
        [["user", "create", "--email", "not-an-email", "--password", "long-enough-1"], /--email: .*e-mail/],
        [["user", "create", "--email", "x@example.com", "--password", "short"], /--password: .*8 to 200/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--name", "two\nlines"], /--name: /],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--role", "superuser"], /--role is one of shopper, store_owner, admin/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--role", "shopper", "--store", "fixture-store-a"], /--role: /],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--demo-buyer=yes"], /--demo-buyer takes no value/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--demo-buyer", "--demo-buyer"], /--demo-buyer is given 2 times/],
        [["cleanup", "now"], /unexpected argument 'now'/],
        [["cleanup", "--force"], /unknown flag '--force'/],
        [["user", "create", "--email", "x@example.com", "--password", "long-enough-1", "--store", "no-such-store"], /--store: no store has the slug 'no-such-store'/i, "db"],
        // An existing account with a bad --store keeps its password.
        [["user", "create", "--email", "new.owner@example.com", "--password", "third-pass-3", "--store", "no-such-store"], /--store: no store has the slug/i, "db"],
        [["key", "create", "--store", "fixture-store-a"], /--scopes is required/],
        [["key", "create", "--scopes", "listings:read"], /--store is required/],
        [["key", "create", "--store", "fixture-store-a", "--scopes", "listings:read,orders:admin"], /--scopes: Unknown scope 'orders:admin'/],
        [["key", "create", "--store", "fixture-store-a", "--scopes", "listings:read", "--expires-in", "0"], /--expires-in: .*1 to 3,650 days/],
        [["key", "create", "--store", "fixture-store-a", "--scopes", "listings:read", "--expires-in", "1y"], /--expires-in: /],
        [["key", "create", "--store", "fixture-store-a", "--scopes", ""], /--scopes: /],
        [["key", "create", "--store", "no-such-store", "--scopes", "listings:read"], /--store: no store has the slug 'no-such-store'/i, "db"],
        [["key", "create", "--store", "fixture-store-a", "--scopes", "listings:read", "--name", "n".repeat(101)], /--name: /, "db"],
        [["key", "revoke"], /KEY_ID is missing/],
        [["key", "revoke", "not-a-key-id"], /KEY_ID is the 16 characters/],
        [["key", "revoke", "0000000000000000"], /no API key has the key id '0000000000000000'/, "db"],
        [["key", "revoke", "0000000000000000", "more"], /unexpected argument 'more'/],
        [["setting", "set", "dark_mode", "on"], /unknown setting 'dark_mode'/],
        [["setting", "set", "agentic_checkout", "yes"], /agentic_checkout is on or off, not 'yes'/],
        [["setting", "set", "agentic_checkout"], /VALUE is missing/],
        [["store", "set-status", "no-such-store", "suspended"], /SLUG: no store has the slug 'no-such-store'/i, "db"],
        [["store", "set-status", "fixture-store-a", "paused"], /STATUS is one of active, suspended, closed/],
        [["store", "set-status", "fixture-store-a"], /STATUS is missing/],
        [["order", "mark"], /ORDER is missing/],
        [["order", "mark", "M-10001"], /STATUS is missing/],
        [["order", "mark", "not-an-order", "shipped"], /ORDER is an order's id or number/],
        [["order", "mark", "M-10001", "lost"], /STATUS is shipped or delivered, not 'lost'/],
        [["order", "mark", "M-10001", "delivered", "--tracking", "X1"], /--tracking goes with shipped only/],
        [["order", "mark", "M-10001", "shipped", "--tracking", "9".repeat(10_000)], /--tracking: .*at most 64/],
        [["order", "mark", "M-99999999", "shipped"], /ORDER: no order has the id or number 'M-99999999'/, "db"],
      ];
      // Those refused before the database is opened run side by side, eight at a time.
      const before = await inspect(async (db) => snapshot(db));
      const parsed = cases.filter(([, , db]) => !db);
      for (let i = 0; i < parsed.length; i += 8) {
        const batch = parsed.slice(i, i + 8);
        const ran = await Promise.all(batch.map(([args]) => run(...args)));
        batch.forEach(([, reason], k) => expectRefusal(ran[k]!, reason));
      }
      for (const [args, reason] of cases.filter(([, , db]) => db)) {
        expectRefusal(await run(...args), reason);
      }
      const after = await inspect(async (db) => snapshot(db));
      expect(after).toEqual(before);
      const owner = before.users.find((u) => u.id === ownerId);
      expect(await verifyPassword("second-pass-2", owner!.password_hash)).toBe(true);
    }, 2 * HANG_GUARD_MS);

    it("--help prints the usage of every command", async () => {
      const ran = await run("--help");
      expect(ran.code).toBe(0);
      for (const command of ["user create", "key create", "key revoke", "setting set", "store set-status", "order mark", "cleanup", "--demo-buyer"]) {
        expect(ran.stdout).toContain(command);
      }
    }, HANG_GUARD_MS);

    if (embedded) {
      it("refuses at once, in one line, while the app runs on the folder", async () => {
        const { ran, settings } = await inspect(async (db) => ({
          ran: await run("setting", "set", "agentic_checkout", "on"),
          settings: (await db.query(`SELECT value FROM settings WHERE key = 'agentic_checkout'`)).rows,
        }));
        expectRefusal(ran, /embedded database in .* is open in another process \(pid \d+\); stop the app first/, 1);
        expect(settings).toEqual([{ value: false }]);
      }, HANG_GUARD_MS);
    } else {
      it("says to migrate first on a database without the tables", async () => {
        const name = `mkt_test_${process.pid}_empty`;
        const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || process.env.DATABASE_URL!;
        const adminDb = new pg.Client({ connectionString: adminUrl });
        await adminDb.connect();
        try {
          await adminDb.query(`DROP DATABASE IF EXISTS "${name}"`);
          await adminDb.query(`CREATE DATABASE "${name}"`);
          const url = new URL(adminUrl);
          url.pathname = `/${name}`;
          const ran = await admin(["setting", "set", "agentic_checkout", "on"], { DATABASE_URL: url.toString() });
          expectRefusal(ran, /not up to date: .*run npm run db:migrate first/, 1);
        } finally {
          await adminDb.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
          await adminDb.end();
        }
      }, HANG_GUARD_MS);
    }
  });
}

describe("operator commands without a database", () => {
  it("an unreachable DATABASE_URL is one line and exit 1", async () => {
    const ran = await admin(["setting", "set", "agentic_checkout", "on"], { DATABASE_URL: "postgresql://postgres@127.0.0.1:9/none" });
    expectRefusal(ran, /cannot use the database of DATABASE_URL: /, 1);
  }, HANG_GUARD_MS);
});
