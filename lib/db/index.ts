import { PrismaPg } from "@prisma/adapter-pg";
import { embeddedDatabase } from "./embedded";
import { type Prisma, PrismaClient } from "./generated/client";

export { Prisma } from "./generated/client";
export type { PrismaClient } from "./generated/client";

/**
 * What a public catalog read needs of a client: raw queries. `db()`, a transaction and the
 * replica reader (lib/db/replicas.ts `catalogReader`) all have it.
 */
export interface CatalogClient {
  $queryRaw<T = unknown>(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<T>;
}

/** A client or the caller's open transaction: what every use case takes. */
export type DbClient = Prisma.TransactionClient | PrismaClient;

/**
 * The one place a database client is made. Every query in the app goes through `db()`.
 * With a connection string (DATABASE_URL), a PostgreSQL server through node-postgres; without
 * one, the embedded database of this process (lib/db/embedded.ts). The same queries run on both.
 */
export function createDb(
  connectionString = process.env.DATABASE_URL,
  {
    maintenance = false,
    poolMax = Number(process.env.DATABASE_POOL_MAX ?? 10),
    connectTimeoutMs = connectionWaitMs(),
    applicationName,
  }: {
    maintenance?: boolean;
    poolMax?: number;
    /** A replica's reader waits less than a request would (lib/db/replicas.ts): the primary answers instead. */
    connectTimeoutMs?: number;
    /** Names the sessions in pg_stat_activity (replica reads do). */
    applicationName?: string;
  } = {},
): PrismaClient {
  if (!connectionString) return embeddedDatabase().prisma();
  const settings: Record<string, string> = { ...SESSION_SETTINGS };
  // Migrations, seeds and benchmark set-up legitimately run long statements.
  if (maintenance) settings.statement_timeout = "0";
  const adapter = new PrismaPg({
    connectionString,
    max: poolMax,
    // A request waits this long for a connection (the server down, or every pooled connection
    // busy), then fails: 503 service_unavailable (lib/db/unavailable.ts), never a hang.
    connectionTimeoutMillis: connectTimeoutMs,
    ...(applicationName ? { application_name: applicationName } : {}),
    options: Object.entries(settings)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(" "),
  });
  // Every transaction waits to start as long as a request may wait for a connection (below).
  return new PrismaClient({ adapter, transactionOptions: { maxWait: transactionWaitMs() } });
}

/** DATABASE_CONNECT_TIMEOUT_MS: how long a request waits for a connection (0: as long as it takes). */
function connectionWaitMs(): number {
  return Number(process.env.DATABASE_CONNECT_TIMEOUT_MS ?? 5_000);
}

/** The longest wait a timer can express (setTimeout's limit, about 24 days): "as long as it takes". */
const UNBOUNDED_MS = 2_147_483_647;

/**
 * How long a transaction may wait to start (Prisma's `maxWait`): longer than a connection's wait,
 * so that the connection's timeout decides (a 503 naming the database), and as long as it takes
 * when DATABASE_CONNECT_TIMEOUT_MS is 0. The embedded database queues every transaction at its
 * one connection; the same wait applies there.
 */
export function transactionWaitMs(): number {
  const wait = connectionWaitMs();
  return wait === 0 ? UNBOUNDED_MS : wait + 5_000;
}

/**
 * Ends a script's use of the database: disconnects `client` and, without DATABASE_URL, closes the
 * embedded database (its process would not exit otherwise).
 */
export async function closeDb(client: PrismaClient): Promise<void> {
  await client.$disconnect();
  if (!process.env.DATABASE_URL) await embeddedDatabase().close();
}

/** Settings of every database session the app opens (measured with `npm run bench`). */
export const SESSION_SETTINGS = {
  // Many short queries at once: a parallel worker's start-up cost more than it saved.
  max_parallel_workers_per_gather: "0",
  // The working set lives in memory or on SSD: random reads cost about as much as sequential
  // ones, so index probes win over whole-table scans for small match sets.
  random_page_cost: "1.1",
  // Short statements: compiling one with JIT (planned cost above jit_above_cost, as a text page
  // whose unused fallback branch is costed at ranking every match) took longer than running it
  // (a two-word page at a million products: 67 ms with JIT, 15 ms without).
  jit: "off",
  // No request waits on one statement for longer than this (maintenance clients lift it).
  statement_timeout: "15s",
} as const;

// One client per process; kept on globalThis so dev-mode hot reloads do not leak pools.
const holder = globalThis as unknown as { __marketplaceDb?: PrismaClient };

export function db(): PrismaClient {
  holder.__marketplaceDb ??= createDb();
  return holder.__marketplaceDb;
}
