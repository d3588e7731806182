/**
 * tests/setup/supervise.mjs: a server started for a test dies with the test process, however
 * that process ends. A parent that is SIGKILLed runs no exit handler; before the supervisor, its
 * `next start` kept running (holding its port and its embedded database folder).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const SUPERVISOR = path.join(process.cwd(), "tests", "setup", "supervise.mjs");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, what: string) {
  // A hang guard, not a speed check: the test's own timeout bounds it.
  while (!check()) await new Promise((r) => setTimeout(r, 50));
  return what;
}

/** A parent process that starts `sh -c 'sleep 600 & echo $!; wait'` under the supervisor, as startServer does. */
function startParent() {
  const script = `
    const { spawn } = require("node:child_process");
    const child = spawn(process.execPath, [${JSON.stringify(SUPERVISOR)}, "sh", "-c", "sleep 600 & echo $!; wait"], {
      detached: true,
      stdio: ["pipe", "pipe", "inherit"],
    });
    child.stdout.once("data", (d) => process.stdout.write(JSON.stringify({ group: child.pid, sleeper: Number(String(d).trim()) }) + "\\n"));
    setInterval(() => {}, 1000);
  `;
  const parent = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const started = new Promise<{ group: number; sleeper: number }>((resolve) => {
    let out = "";
    parent.stdout.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out));
    });
  });
  return { parent, started };
}

describe("test server supervisor", () => {
  it("kills the whole group when the process that started it is SIGKILLed", async () => {
    const { parent, started } = startParent();
    const { group, sleeper } = await started;
    expect(alive(group)).toBe(true);
    expect(alive(sleeper)).toBe(true);
    parent.kill("SIGKILL");
    await until(() => !alive(sleeper) && !alive(group), "the group is gone");
    expect(alive(sleeper)).toBe(false);
  }, 60_000);

  it("passes the command's exit code through and ignores a group SIGTERM until the command exits", async () => {
    const child = spawn(process.execPath, [SUPERVISOR, "sh", "-c", "trap 'exit 7' TERM; echo ready; while :; do sleep 0.05; done"], {
      detached: true,
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    process.kill(-child.pid!, "SIGTERM");
    expect(await exited).toBe(7);
  }, 60_000);
});
