// Runs a command for a test process and makes sure it does not outlive it.
//
//   node tests/setup/supervise.mjs <command> [args...]
//
// Started detached (its own process group) with stdin a pipe from the test process. When that
// pipe closes, the test process is gone, however it ended (a worker killed by the runner, a
// SIGKILL, a crash: none of them runs the test's `exit` handlers), and this process kills its
// whole group, the command and everything it started included. Without it, a `next start` whose
// test died kept running, holding its port and its embedded database folder.
//
// Otherwise it is transparent: the command's output goes where this process's goes, signals to
// the group reach the command directly, and this process exits as the command does.
import { spawn } from "node:child_process";
import { constants } from "node:os";

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write("usage: node tests/setup/supervise.mjs <command> [args...]\n");
  process.exit(2);
}

const killGroup = () => {
  try {
    process.kill(-process.pid, "SIGKILL");
  } catch {
    process.exit(1);
  }
};

// A signal sent to the group reaches the command too; this process waits for it to exit. Set
// before the command starts: once it runs, its output may lead the test to signal the group at
// once, and on a loaded machine that can come before this process runs its next line.
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => {});

const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
child.on("error", (err) => {
  process.stderr.write(`supervise: ${command}: ${err.message}\n`);
  process.exit(127);
});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));

process.stdin.on("data", () => {});
process.stdin.on("end", killGroup);
process.stdin.on("close", killGroup);
process.stdin.on("error", killGroup);
