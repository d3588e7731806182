/**
 * `admin -- cleanup`: deletes what has outlived its use, so that tables stay the size of what is
 * live. What goes (each with what cascades with it):
 *
 * - cart links past `expires_at` (their lines, and the record of which carts took them in);
 * - carts idle for CART_IDLE_DAYS: `carts.updated_at` older than that. Anonymous carts and
 *   account carts alike: a cart untouched for that long holds prices and stock that are long out
 *   of date, and every change to a cart (an add, a quantity, a cart link, a merge at sign-in)
 *   moves `updated_at`, so a cart in use is never idle. Its lines go with it;
 * - idempotency keys past `expires_at` (the API answers as if they were gone already);
 * - sign-in links (login tokens) past `expires_at` (they no longer sign anyone in);
 * - OAuth server records past `expires_at` (codes, tokens, grants, sessions, interactions of
 *   lib/oauth/adapter.ts, which already reads them as absent); clients have no expiry and stay.
 *
 * Safe to run at any time, twice, and two at once: it deletes in batches of BATCH rows, each batch
 * its own short transaction that first takes one transaction-scoped advisory lock, so batches of
 * two runs take turns and never delete (or count) a row twice, and never deadlock on the rows
 * that cascade; rows the app holds locked at that moment (a cart being changed) are skipped
 * (`FOR UPDATE SKIP LOCKED`) and left for the next run. Times are the database's clock.
 */
import type { Prisma, PrismaClient } from "@/lib/db";

export const CART_IDLE_DAYS = 90;
/** Rows deleted per batch (per transaction). */
export const BATCH = 1_000;
/** The advisory lock of cleanup batches (any fixed number no other code uses). */
const LOCK_KEY = 727_001_190n;

export interface CleanupCounts {
  cart_links: number;
  carts: number;
  idempotency_keys: number;
  login_tokens: number;
  oauth_records: number;
}

/** The one summary line the command prints. */
export function summaryLine(counts: CleanupCounts): string {
  return Object.entries(counts)
    .map(([table, n]) => `${table}=${n}`)
    .join(" ");
}

/** Deletes in batches until a batch comes back short; answers how many rows it deleted. */
async function drain(client: PrismaClient, batch: (tx: Prisma.TransactionClient, limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${LOCK_KEY})`;
      return batch(tx, BATCH);
    });
    total += deleted;
    if (deleted < BATCH) return total;
  }
}

/** Runs the clean-up and answers how many rows of each kind it deleted. */
export async function cleanup(client: PrismaClient): Promise<CleanupCounts> {
  const cart_links = await drain(
    client,
    (tx, limit) => tx.$executeRaw`
      WITH doomed AS (
        SELECT id FROM cart_links WHERE expires_at < now() ORDER BY expires_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      DELETE FROM cart_links t USING doomed WHERE t.id = doomed.id`,
  );
  const carts = await drain(
    client,
    (tx, limit) => tx.$executeRaw`
      WITH doomed AS (
        SELECT id FROM carts WHERE updated_at < now() - make_interval(days => ${CART_IDLE_DAYS}::int)
        ORDER BY updated_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      DELETE FROM carts t USING doomed WHERE t.id = doomed.id`,
  );
  const idempotency_keys = await drain(
    client,
    (tx, limit) => tx.$executeRaw`
      WITH doomed AS (
        SELECT owner, key FROM idempotency_keys WHERE expires_at < now() ORDER BY expires_at, owner, key LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      DELETE FROM idempotency_keys t USING doomed WHERE t.owner = doomed.owner AND t.key = doomed.key`,
  );
  const login_tokens = await drain(
    client,
    (tx, limit) => tx.$executeRaw`
      WITH doomed AS (
        SELECT token_hash FROM login_tokens WHERE expires_at < now() ORDER BY expires_at, token_hash LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      DELETE FROM login_tokens t USING doomed WHERE t.token_hash = doomed.token_hash`,
  );
  // The same rows as deleteExpiredOAuthRecords (lib/oauth/adapter.ts), in batches like the rest.
  const oauth_records = await drain(
    client,
    (tx, limit) => tx.$executeRaw`
      WITH doomed AS (
        SELECT model, id_hash FROM oauth_records WHERE expires_at <= now() ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
      )
      DELETE FROM oauth_records t USING doomed WHERE t.model = doomed.model AND t.id_hash = doomed.id_hash`,
  );
  return { cart_links, carts, idempotency_keys, login_tokens, oauth_records };
}
