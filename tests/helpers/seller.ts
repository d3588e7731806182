/**
 * Helpers for tests that write (seller API, dashboard, operator commands): an app and database of
 * their own (the suite's shared app is read-only), store API keys minted straight into the
 * database exactly as lib/auth/api-keys.ts stores them, and requests with a Bearer key.
 */
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { createTestDatabase, startServer, type StartedServer, type TestDatabase } from "../setup/app";
import { randomClientIp } from "./http";

export interface IsolatedApp {
  server: StartedServer;
  database: TestDatabase;
  pool: pg.Pool;
  baseUrl: string;
  stop: () => Promise<void>;
}

/** A fresh database (migrated and seeded) and `next start` serving it; call `stop()` in afterAll. */
export async function startIsolatedApp(label: string, env: Record<string, string | undefined> = {}): Promise<IsolatedApp> {
  const database = await createTestDatabase({ logPrefix: `[${label}]` });
  let server: StartedServer;
  try {
    server = await startServer({ database, logPrefix: `[${label}]`, env });
  } catch (err) {
    await database.drop();
    throw err;
  }
  const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 4 });
  return {
    server,
    database,
    pool,
    baseUrl: server.baseUrl,
    stop: async () => {
      await pool.end();
      await server.stop();
      await database.drop();
    },
  };
}

export async function storeIdOf(pool: pg.Pool, slug: string): Promise<string> {
  const { rows } = await pool.query<{ id: string }>("SELECT id FROM stores WHERE slug = $1", [slug]);
  if (!rows[0]) throw new Error(`no store ${slug}`);
  return rows[0].id;
}

/**
 * Waits until a sync feed (`listings` or `order_stores`, GET ?updated_since=) can hand out every
 * change of the store made so far: the feed holds a change back while any older transaction is
 * open on the server (transaction ids are server-wide), and other test files write at the same
 * moment.
 */
export async function feedSettled(pool: pg.Pool, table: "listings" | "order_stores", storeId: string): Promise<void> {
  for (;;) {
    const { rows } = await pool.query<{ settled: boolean }>(
      `SELECT coalesce(max(change_seq), 0) < pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS settled FROM ${table} WHERE store_id = $1`,
      [storeId],
    );
    if (rows[0]!.settled) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface TestKey {
  key: string;
  keyId: string;
  id: string;
}

/** A key of `storeSlug` with `scopes`, stored as the app stores keys (SHA-256 of the secret). */
export async function createTestKey(pool: pg.Pool, storeSlug: string, scopes: string[], name = "test key"): Promise<TestKey> {
  const storeId = await storeIdOf(pool, storeSlug);
  const keyId = randomBytes(8).toString("hex");
  const secret = randomBytes(32).toString("base64url");
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO api_keys (store_id, key_id, secret_hash, last4, name, scopes) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [storeId, keyId, createHash("sha256").update(secret).digest(), secret.slice(-4), name, scopes],
  );
  return { key: `mk_live_${keyId}.${secret}`, keyId, id: rows[0]!.id };
}

export interface SellerResponse<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
}

/**
 * A request to `baseUrl + path` with `Authorization: Bearer <key>` (when given) and a JSON body
 * (when `body` is given). Each request comes from its own random client address unless
 * `clientIp` is set, so failed-authentication buckets of different tests never meet.
 */
export async function sellerRequest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string; headers?: Record<string, string>; clientIp?: string } = {},
): Promise<SellerResponse<T>> {
  const headers = new Headers(options.headers);
  if (options.key !== undefined && !headers.has("authorization")) headers.set("Authorization", `Bearer ${options.key}`);
  if (!headers.has("x-forwarded-for")) headers.set("X-Forwarded-For", options.clientIp ?? randomClientIp());
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("Content-Type", "application/json");
  }
  const res = await fetch(baseUrl + path, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(25_000) });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, json, text };
}
