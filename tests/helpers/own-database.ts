/**
 * A database of a test file's own, migrated and empty (no seed), embedded or on the PostgreSQL
 * server as the run is: for tests that bring their own small catalog and write to it freely. It is
 * a copy of the run's migrated template (tests/setup/app.ts createTestDatabase), opened here: an
 * embedded one in this process.
 */
import { createDb, type PrismaClient } from "@/lib/db";
import { openEmbedded } from "@/lib/db/embedded";
import { createTestDatabase } from "../setup/app";

export async function ownDatabase(label: string): Promise<{ client: PrismaClient; drop: () => Promise<void> }> {
  const database = await createTestDatabase({ seeded: false, logPrefix: `[${label}]` });
  if (database.embedded) {
    // Migrated when it opens, if it is not a copy of a migrated template.
    const embedded = openEmbedded(database.embedded.dataDir);
    try {
      await embedded.ready;
    } catch (err) {
      await database.drop();
      throw err;
    }
    return {
      client: embedded.prisma(),
      drop: async () => {
        await embedded.close();
        await database.drop();
      },
    };
  }
  const own = createDb(database.databaseUrl, { maintenance: true });
  return {
    client: own,
    drop: async () => {
      await own.$disconnect();
      await database.drop();
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
