import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { PrismaClient } from "./generated/client";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

/** The migrations of prisma/migrations, in the order they apply. */
async function migrationNames(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * Applies prisma/migrations/<stamp>_<name>/migration.sql in order and records each in
 * `_prisma_migrations` exactly as `prisma migrate deploy` would, so either tool can take over.
 * Runs under an advisory lock, each migration in its own transaction; safe to run twice.
 */
export async function migrate(client: PrismaClient, log: (line: string) => void = () => {}) {
  const names = await migrationNames();

  await client.$executeRawUnsafe(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);

  const applied: string[] = [];
  await client.$transaction(
    async (tx) => {
      // Serialises concurrent runners (several app instances starting at once).
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(7263540012)`);
      const done = new Set(
        (
          await tx.$queryRawUnsafe<{ migration_name: string }[]>(
            `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
          )
        ).map((r) => r.migration_name),
      );
      for (const name of names) {
        if (done.has(name)) continue;
        const sql = await readFile(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8");
        const checksum = createHash("sha256").update(sql).digest("hex");
        await tx.$executeRawUnsafe(sql);
        await tx.$executeRaw`INSERT INTO "_prisma_migrations"
          (id, checksum, finished_at, migration_name, applied_steps_count)
          VALUES (${randomUUID()}, ${checksum}, now(), ${name}, 1)`;
        applied.push(name);
        log(`applied ${name}`);
      }
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
  if (applied.length === 0) log("database is up to date");
  return applied;
}

/** Migrations of prisma/migrations not yet applied to the database (all of them on an empty one). */
export async function pendingMigrations(client: PrismaClient): Promise<string[]> {
  return pendingMigrationsBy(<T,>(sql: string) => client.$queryRawUnsafe<T[]>(sql));
}

/**
 * The same, asked through any way of running a query: the embedded database asks its PGlite
 * session directly, so that a start on an up-to-date folder makes no Prisma client for it.
 */
export async function pendingMigrationsBy(query: <T>(sql: string) => Promise<T[]>): Promise<string[]> {
  const names = await migrationNames();
  const [table] = await query<{ exists: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS exists`);
  if (!table?.exists) return names;
  const done = new Set(
    (
      await query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
    ).map((r) => r.migration_name),
  );
  return names.filter((name) => !done.has(name));
}
