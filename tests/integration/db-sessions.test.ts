/**
 * Every database session the app opens runs with SESSION_SETTINGS (lib/db/index.ts): the planner
 * and executor settings the benchmarks were measured with. On PostgreSQL only (the embedded
 * database takes random_page_cost from its configuration and has no workers, JIT or timer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_SETTINGS, type PrismaClient } from "@/lib/db";
import { ownDatabase } from "../helpers/own-database";

describe.skipIf(!process.env.DATABASE_URL)("database sessions", () => {
  let client: PrismaClient;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ client, drop } = await ownDatabase("sessions"));
  }, 120_000);
  afterAll(async () => drop?.());

  it("run with the app's settings (a maintenance session lifts only the statement timeout)", async () => {
    const names = Object.keys(SESSION_SETTINGS);
    const rows = await client.$queryRaw<{ name: string; setting: string; unit: string | null }[]>`
      SELECT name, setting, unit FROM pg_settings WHERE name = ANY(${names}::text[]) ORDER BY name`;
    expect(rows.map((r) => r.name)).toEqual([...names].sort());
    const shown = Object.fromEntries(rows.map((r) => [r.name, r.setting]));
    expect(shown).toEqual({
      max_parallel_workers_per_gather: "0",
      random_page_cost: "1.1",
      jit: "off",
      statement_timeout: "0",
    });
  });
});
