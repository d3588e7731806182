/**
 * A database of a test file's own, migrated and empty (no seed), embedded or on the PostgreSQL
 * server as the run is: for tests that bring their own small catalog and write to it freely.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDb, type PrismaClient } from "@/lib/db";
import { openEmbedded, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { timed } from "../setup/timings";

export function ownDatabase(label: string): Promise<{ client: PrismaClient; drop: () => Promise<void> }> {
  return timed("database", "migrated", () => makeOwnDatabase(label));
}

async function makeOwnDatabase(label: string): Promise<{ client: PrismaClient; drop: () => Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `mkt_${label}_`));
    // Migrated, not seeded: the test brings its own catalog.
    writeFileSync(path.join(dataDir, "seeded"), `${label} test\n`);
    const embedded: EmbeddedDatabase = openEmbedded(dataDir);
    await embedded.ready;
    return {
      client: embedded.prisma(),
      drop: async () => {
        await embedded.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL || process.env.DATABASE_URL;
  const name = `mkt_${label}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const own = createDb(url.toString(), { maintenance: true });
  await migrate(own);
  return {
    client: own,
    drop: async () => {
      await own.$disconnect();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Deterministic pseudo-random numbers for such a catalog (not a property's own randomness): next(n) in [0, n). */
export function lcg(seed: number) {
  let x = seed >>> 0;
  return (n: number) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % n;
  };
}
