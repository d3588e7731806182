/**
 * Prints where a vitest run's time went, per test file: the time its helpers spent making
 * databases and starting app servers (tests/setup/timings.ts records them) and the rest, spent in
 * its tests. The whole table is written to test-results/timings.json; the slowest files are
 * printed after vitest's own summary. docs/test-timings.md keeps the figures of runs compared.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Reporter, TestModule, Vitest } from "vitest/node";
import { GLOBAL_SETUP, type TimingRecord } from "./timings";

const PRINTED_FILES = 25;
const OUTPUT = path.join("test-results", "timings.json");

interface FileTiming {
  file: string;
  /** Loading the file and its imports, its hooks and tests (vitest's own figures), seconds. */
  total: number;
  database: number;
  server: number;
  /** total - database - server: what the file's own hooks and tests took besides. */
  tests: number;
  /** Number of databases made and servers started. */
  databases: number;
  servers: number;
}

export default class TimingReporter implements Reporter {
  #dir = "";
  #root = process.cwd();
  #started = 0;

  onInit(vitest: Vitest) {
    this.#root = vitest.config.root;
    this.#started = performance.now();
    this.#dir = mkdtempSync(path.join(tmpdir(), "mkt_timings_"));
    // Set before the global setup and the workers start: both inherit it.
    process.env.TEST_TIMINGS_DIR = this.#dir;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const wall = (performance.now() - this.#started) / 1000;
    const records = this.#records();
    rmSync(this.#dir, { recursive: true, force: true });
    const byFile = new Map<string, FileTiming>();
    const entry = (file: string) => {
      let timing = byFile.get(file);
      if (!timing) {
        timing = { file, total: 0, database: 0, server: 0, tests: 0, databases: 0, servers: 0 };
        byFile.set(file, timing);
      }
      return timing;
    };
    for (const testModule of testModules) {
      const d = testModule.diagnostic();
      entry(this.#relative(testModule.moduleId)).total =
        (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
    }
    for (const r of records) {
      const timing = entry(r.file === GLOBAL_SETUP ? r.file : this.#relative(r.file));
      timing[r.kind] += r.ms / 1000;
      if (r.kind === "database") timing.databases++;
      else timing.servers++;
      // The global setup runs outside every file: its time is its own.
      if (r.file === GLOBAL_SETUP) timing.total += r.ms / 1000;
    }
    const files = [...byFile.values()].map((t) => ({ ...t, tests: Math.max(0, t.total - t.database - t.server) }));
    files.sort((a, b) => b.total - a.total);
    const sum = (key: "total" | "database" | "server" | "tests" | "databases" | "servers") =>
      files.reduce((s, f) => s + f[key], 0);

    mkdirSync(path.dirname(path.join(this.#root, OUTPUT)), { recursive: true });
    writeFileSync(
      path.join(this.#root, OUTPUT),
      JSON.stringify({ wallSeconds: wall, workers: this.#workers(testModules), files }, null, 2) + "\n",
    );

    const s = (n: number) => n.toFixed(1).padStart(7);
    const lines = [
      "",
      `Where the time went (seconds; ${files.length} files, ${this.#workers(testModules)} workers at most, ${wall.toFixed(0)} s in all):`,
      `${"file".padEnd(52)}   total   dbs     servers  tests`,
      ...files
        .slice(0, PRINTED_FILES)
        .map(
          (f) =>
            `${f.file.padEnd(52)} ${s(f.total)} ${s(f.database)}${`(${f.databases})`.padEnd(4)} ${s(f.server)}${`(${f.servers})`.padEnd(4)}${s(f.tests)}`,
        ),
      files.length > PRINTED_FILES ? `... ${files.length - PRINTED_FILES} more in ${OUTPUT}` : "",
      `${"sum over files".padEnd(52)} ${s(sum("total"))} ${s(sum("database"))}${`(${sum("databases")})`.padEnd(4)} ${s(sum("server"))}${`(${sum("servers")})`.padEnd(4)}${s(sum("tests"))}`,
      "",
    ];
    process.stdout.write(lines.join("\n") + "\n");
  }

  #workers(testModules: ReadonlyArray<TestModule>) {
    return Math.max(0, ...testModules.map((m) => m.diagnostic().concurrencyId ?? 0));
  }

  #relative(file: string) {
    return path.relative(this.#root, file) || file;
  }

  #records(): TimingRecord[] {
    const out: TimingRecord[] = [];
    let names: string[] = [];
    try {
      names = readdirSync(this.#dir);
    } catch {
      return out;
    }
    for (const name of names) {
      for (const line of readFileSync(path.join(this.#dir, name), "utf8").split("\n")) {
        if (line) out.push(JSON.parse(line) as TimingRecord);
      }
    }
    return out;
  }
}
