/**
 * Where a test run's time goes. The helpers that make databases and start servers record how
 * long each took, for the test file that asked; tests/setup/timing-reporter.ts adds the files'
 * own durations and prints the table at the end of `npm test`.
 *
 * A record is a JSON line appended to a file of this process's own in TEST_TIMINGS_DIR (the
 * reporter sets it before any worker starts, so workers inherit it). Without it (the Playwright
 * suite, a script) nothing is recorded. Imports nothing from a test runner.
 */
import { appendFileSync } from "node:fs";
import path from "node:path";

/** What the time went on: making a database (copy, or migrate and seed) or starting an app server. */
export type TimingKind = "database" | "server";

export interface TimingRecord {
  /** The test file (its path as vitest names it), or "(global setup)". */
  file: string;
  kind: TimingKind;
  /** What was made, e.g. "copy of the seeded template" or "next start". */
  label: string;
  ms: number;
}

export const GLOBAL_SETUP = "(global setup)";

// Each test file imports its own copy of this module (vitest isolates files); the setup file
// (tests/setup/per-file.ts) names the file before its hooks run.
let currentFile = GLOBAL_SETUP;

export function setTimingFile(file: string) {
  currentFile = file;
}

/** Runs `work` and records how long it took, whether it succeeded or not. */
export async function timed<T>(kind: TimingKind, label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    record({ file: currentFile, kind, label, ms: performance.now() - started });
  }
}

function record(entry: TimingRecord) {
  const dir = process.env.TEST_TIMINGS_DIR;
  if (!dir) return;
  try {
    appendFileSync(path.join(dir, `${process.pid}.jsonl`), JSON.stringify(entry) + "\n");
  } catch {
    /* the reporter's folder is gone (the run is ending): the figure is lost, the test is not */
  }
}
