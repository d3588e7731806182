import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client";

export { Prisma } from "./generated/client";
export type { PrismaClient } from "./generated/client";

/**
 * The one place a database client is made. Every query in the app goes through `db()`,
 * so another driver adapter (an embedded database) can be plugged in here without
 * touching any query.
 */
export function createDb(connectionString = databaseUrl()): PrismaClient {
  const adapter = new PrismaPg({
    connectionString,
    max: Number(process.env.DATABASE_POOL_MAX ?? 10),
    // Typo tolerance of search: `q <% title` matches from this word similarity on (default 0.6
    // misses one-letter slips in long words such as "Quokkafone").
    options: `-c pg_trgm.word_similarity_threshold=${TRIGRAM_WORD_THRESHOLD}`,
  });
  return new PrismaClient({ adapter });
}

export const TRIGRAM_WORD_THRESHOLD = 0.5;

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set (see .env.example)");
  return url;
}

// One client per process; kept on globalThis so dev-mode hot reloads do not leak pools.
const holder = globalThis as unknown as { __marketplaceDb?: PrismaClient };

export function db(): PrismaClient {
  holder.__marketplaceDb ??= createDb();
  return holder.__marketplaceDb;
}
