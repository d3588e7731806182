/**
 * Runs a guide's `sh` examples as the guides promise they run: in the order shown, in one bash
 * session (so a block may use what an earlier one set), with `env`, stopping at the first error.
 */
import { spawn } from "node:child_process";

const MARK = "__example_block__";
const PAUSE = "__example_pause__";

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

/**
 * `before[i]`, if given, runs (in this process) before block i does: the session waits for it.
 * For what a reader's terminal gets for free and a test on a busy machine does not, such as time
 * for a change to reach a feed.
 */
export async function runShellBlocks(
  blocks: string[],
  env: Record<string, string>,
  before: Record<number, () => Promise<void>> = {},
): Promise<BlocksRun> {
  const script = [
    "set -euo pipefail",
    ...blocks.flatMap((block, i) => [...(before[i] ? [`echo ${PAUSE}${i}`, "read -r _"] : []), `echo ${MARK}`, block]),
  ].join("\n");
  const result = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn("bash", ["-c", script], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      const paused = new RegExp(`${PAUSE}(\\d+)\\n`).exec(out);
      if (!paused) return;
      out = out.replace(paused[0], "");
      const hook = before[Number(paused[1])]!;
      hook().then(
        () => child.stdin.write("\n"),
        (e: unknown) => {
          err += `before block ${paused[1]}: ${String(e)}\n`;
          child.kill("SIGKILL");
        },
      );
    });
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
