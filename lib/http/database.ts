import { db, transactionWaitMs, type Prisma, type PrismaClient } from "@/lib/db";

/**
 * How a door reaches the database: the use cases of lib/<domain> take their client, and a door
 * hands them one. A route of the pipeline has it as `ctx.db` (its transaction when the endpoint
 * declares one: policies/transaction.ts); pages, form routes and MCP tools ask here. Nothing in
 * app/ imports lib/db.
 */

/** An open transaction: what a change's use case takes. */
export type Tx = Prisma.TransactionClient;

/**
 * Every transaction a door opens: under a burst, requests queue for a pooled connection rather
 * than fail (for as long as DATABASE_CONNECT_TIMEOUT_MS lets a request wait for one: lib/db's
 * `transactionWaitMs`), then it has 15 s to finish.
 */
const TRANSACTION_TIMEOUT_MS = 15_000;

/**
 * Runs `work` with the process's client, outside any transaction: reads, or a use case that opens
 * its own (lib/audit's `audited`, which writes a change and its audit event together).
 */
export function withDb<T>(work: (client: PrismaClient) => Promise<T>): Promise<T> {
  return work(db());
}

/**
 * The one way a door opens a transaction (the pipeline's policy, form routes, MCP tools): `work`
 * and nothing else writes in it, and anything thrown rolls all of it back.
 */
export function transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work, { maxWait: transactionWaitMs(), timeout: TRANSACTION_TIMEOUT_MS });
}
