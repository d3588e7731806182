/**
 * Runs a guide's `sh` examples as the guides promise they run: in the order shown, in one bash
 * session (so a block may use what an earlier one set), with `env`, stopping at the first error.
 */
import { spawn } from "node:child_process";

const MARK = "__example_block__";

/** The `sh` blocks of `markdown`, in order. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

export interface BlocksRun {
  exitCode: number | null;
  stderr: string;
  /** Each block's output lines, trimmed, empty ones left out. */
  outputs: string[][];
}

export async function runShellBlocks(blocks: string[], env: Record<string, string>): Promise<BlocksRun> {
  const script = ["set -euo pipefail", ...blocks.flatMap((block) => [`echo ${MARK}`, block])].join("\n");
  const result = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], { env: { ...process.env, ...env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code, out, err }));
  });
  return {
    exitCode: result.code,
    stderr: result.err,
    outputs: result.out
      .split(`${MARK}\n`)
      .slice(1)
      .map((chunk) => chunk.split("\n").map((line) => line.trim()).filter(Boolean)),
  };
}
