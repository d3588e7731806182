/**
 * The official MCP conformance runner (@modelcontextprotocol/conformance, installed locally)
 * against the public MCP endpoint, scenario by scenario. Every server scenario of the runner is
 * listed here, either as one to run or as one that does not apply to this server, with the reason.
 * Used by `npm run test:mcp-conformance` and by tests/integration/mcp-conformance.test.ts.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ScenarioToRun {
  /** What the scenario checks here. */
  checks: string;
  /** Checks the runner reports as WARNING for a stateless server (sessions and SSE resumption). */
  expectedWarnings?: string[];
}

/** Scenarios that apply to a stateless, tools-only server: run, and they must not fail. */
export const SCENARIOS_TO_RUN: Record<string, ScenarioToRun> = {
  "server-initialize": { checks: "the 2025 initialize handshake, answered by the stateless fallback" },
  ping: { checks: "ping answers an empty result" },
  "tools-list": { checks: "every tool has a name, a description and an input schema" },
  "server-sse-multiple-streams": {
    checks:
      "concurrent POSTs are all answered; the runner stops with a warning because no session id is issued (by design)",
    expectedWarnings: ["server-sse-multiple-streams-session"],
  },
  "server-sse-polling": {
    checks:
      "a POST answered over SSE ends cleanly; priming events and the retry field serve resuming a session's stream, which a stateless server does not offer (warnings)",
    expectedWarnings: ["server-sse-polling-session", "server-sse-priming-event", "server-sse-retry-field"],
  },
};

const FIXTURE_TOOLS =
  "calls a fixture tool of the conformance test server (test_*), which a real server does not carry; tool results, tool errors (isError) and JSON Schema 2020-12 input schemas are covered by tests/integration/mcp.test.ts";

/** Scenarios that do not apply to this server, and why. */
export const SCENARIOS_NOT_APPLICABLE: Record<string, string> = {
  "logging-set-level": "the server offers no logging capability (deprecated in the 2026-07-28 revision)",
  "completion-complete": "completions complete prompt or resource-template arguments; the server has neither",
  "tools-call-simple-text": FIXTURE_TOOLS,
  "tools-call-image": FIXTURE_TOOLS,
  "tools-call-audio": FIXTURE_TOOLS,
  "tools-call-embedded-resource": FIXTURE_TOOLS,
  "tools-call-mixed-content": FIXTURE_TOOLS,
  "tools-call-error": FIXTURE_TOOLS,
  "json-schema-2020-12": FIXTURE_TOOLS,
  "tools-call-with-logging": "needs the logging capability and a fixture tool that logs",
  "tools-call-with-progress": "needs a fixture tool that reports progress; every tool here answers in one response",
  "tools-call-sampling": "needs a fixture tool that asks the client's model (sampling); no tool here does",
  "tools-call-elicitation": "needs a fixture tool that asks the user (elicitation); no tool here does",
  "elicitation-sep1034-defaults": "needs a fixture tool that asks the user (elicitation); no tool here does",
  "elicitation-sep1330-enums": "needs a fixture tool that asks the user (elicitation); no tool here does",
  "resources-list": "the server offers tools only, no resources",
  "resources-read-text": "the server offers tools only, no resources",
  "resources-read-binary": "the server offers tools only, no resources",
  "resources-templates-read": "the server offers tools only, no resources",
  "resources-subscribe": "the server offers tools only, no resources",
  "resources-unsubscribe": "the server offers tools only, no resources",
  "prompts-list": "the server offers tools only, no prompts",
  "prompts-get-simple": "the server offers tools only, no prompts",
  "prompts-get-with-args": "the server offers tools only, no prompts",
  "prompts-get-embedded-resource": "the server offers tools only, no prompts",
  "prompts-get-with-image": "the server offers tools only, no prompts",
  "dns-rebinding-protection":
    "applies to servers on localhost without authentication; this is a public internet endpoint behind a proxy that answers any Host and any Origin by design (CORS *), with public data only, so a rebound page gains nothing it could not fetch directly",
};

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | string;
  errorMessage?: string;
}

export interface ScenarioRun {
  scenario: string;
  exitCode: number | null;
  checks: Check[];
  output: string;
}

const ROOT = process.cwd();
// The package's own entry point, not node_modules/.bin/conformance: the 0.2.0 alpha installed beside
// it (as @modelcontextprotocol/conformance-auth, for tests/integration/oauth-conformance.test.ts)
// has a bin of the same name, and which of the two the link points at depends on install order.
const RUNNER = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const NODE20_SHIM = path.join(ROOT, "scripts", "mcp-conformance", "node20.mjs");

function runRunner(args: string[], timeoutMs = 60_000): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", NODE20_SHIM, RUNNER, ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("exit", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, output });
    });
  });
}

/** The server scenarios the installed runner knows (`conformance list --server`). */
export async function listServerScenarios(): Promise<string[]> {
  const { exitCode, output } = await runRunner(["list", "--server"]);
  if (exitCode !== 0) throw new Error(`conformance list failed:\n${output}`);
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

/** Runs one server scenario against `url` and reads the checks it recorded. */
export async function runScenario(url: string, scenario: string): Promise<ScenarioRun> {
  const outDir = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
  try {
    const { exitCode, output } = await runRunner(["server", "--url", url, "--scenario", scenario, "-o", outDir]);
    const checks: Check[] = [];
    for (const dir of readdirSync(outDir)) {
      try {
        checks.push(...(JSON.parse(readFileSync(path.join(outDir, dir, "checks.json"), "utf8")) as Check[]));
      } catch {
        // a scenario that crashed before writing its checks: the exit code says so
      }
    }
    return { scenario, exitCode, checks, output };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Problems of one run: a non-zero exit, a failed check, or a warning that was not expected. */
export function problemsOf(run: ScenarioRun): string[] {
  const expected = SCENARIOS_TO_RUN[run.scenario]?.expectedWarnings ?? [];
  const problems: string[] = [];
  if (run.exitCode !== 0) problems.push(`runner exited with ${run.exitCode}`);
  if (run.checks.length === 0) problems.push("no checks recorded");
  for (const check of run.checks) {
    if (check.status === "FAILURE") problems.push(`FAILURE ${check.id}: ${check.errorMessage ?? ""}`);
    if (check.status === "WARNING" && !expected.includes(check.id)) problems.push(`unexpected WARNING ${check.id}: ${check.errorMessage ?? ""}`);
  }
  return problems;
}
