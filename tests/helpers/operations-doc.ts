/**
 * docs/operations.md "tested as written": the JSON log lines it quotes (one per line in its code
 * blocks, `…` standing for a value that varies) are compared with what the apps of the fault tests
 * really printed: the same `level` and `msg`, the same field names.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

export const OPERATIONS_DOC = path.join(process.cwd(), "docs", "operations.md");

export function operationsDoc(): string {
  return readFileSync(OPERATIONS_DOC, "utf8");
}

/** Every JSON log line quoted in the doc's code blocks. */
export function quotedLogLines(): Record<string, unknown>[] {
  const blocks = [...operationsDoc().matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split("\n"))
    .filter((line) => line.startsWith('{"level"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The JSON lines of a log (other lines, such as Next's own, are skipped). */
export function jsonLines(log: string): Record<string, unknown>[] {
  return log
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/**
 * Each quoted line whose `msg` passes `which` appears in `log` with the same level, msg and field
 * names (and, for fields the doc gives a value other than `…`, the same value).
 */
export function expectQuotedLinesIn(log: string, which: (msg: string) => boolean) {
  const seen = jsonLines(log);
  const quoted = quotedLogLines().filter((line) => which(String(line.msg)));
  expect(quoted.length, "docs/operations.md quotes these log lines").toBeGreaterThan(0);
  for (const line of quoted) {
    const fixed = Object.fromEntries(Object.entries(line).filter(([, value]) => value !== "…"));
    const match = seen.find((entry) => Object.entries(fixed).every(([key, value]) => entry[key] === value));
    expect(match, `a log line like ${JSON.stringify(line)}`).toBeDefined();
    expect(Object.keys(match!).sort(), `fields of ${JSON.stringify(line)}`).toEqual(Object.keys(line).sort());
  }
}
