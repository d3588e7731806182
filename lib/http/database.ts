import { type CatalogClient, db, transactionWaitMs, type Prisma, type PrismaClient } from "@/lib/db";
import { catalogReader, noteWrite } from "@/lib/db/replicas";

export type { CatalogClient } from "@/lib/db";

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
export async function transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db().$transaction(work, { maxWait: transactionWaitMs(), timeout: TRANSACTION_TIMEOUT_MS });
  // Committed: this process's catalog reads go to the primary until a replica has replayed it.
  noteWrite();
  return result;
}

/**
 * Runs a public catalog read (search, product record, categories, suggestions, the storefront's
 * catalog pages) with the catalog reader: a streaming replica when DATABASE_REPLICA_URLS names
 * one that is close enough behind and has replayed this process's writes, else the primary
 * (lib/db/replicas.ts). Nothing that writes, and nothing private, reads through it.
 */
export function withCatalogReader<T>(work: (client: CatalogClient) => Promise<T>): Promise<T> {
  return work(catalogReader());
}
