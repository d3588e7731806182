/**
 * The official MCP conformance tool (@modelcontextprotocol/conformance 0.2.0 alpha, installed as
 * @modelcontextprotocol/conformance-auth) against both MCP endpoints of the app, for both protocol
 * revisions: 2025-11-25 (initialize handshake) and 2026-07-28 (stateless, `_meta` on every request).
 * The tool picks a revision's scenarios with `--spec-version`; every server scenario it knows for a
 * revision is listed here, either as one to run or as one that does not apply to these servers,
 * with the reason. Used by `npm run test:mcp-conformance` and tests/integration/mcp-conformance.test.ts.
 *
 * The tool's `server` command has no option for a request header, so it cannot send the agent
 * endpoint's access token itself. It talks to a small forwarding proxy (`startForwarder`) that adds
 * `Authorization: Bearer <token>` and, per scenario, an `X-Forwarded-For` of its own (one
 * rate-limit bucket per scenario, so that scenarios can run side by side), and passes everything
 * else through untouched, streams included.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const ERAS = ["2025-11-25", "2026-07-28"] as const;
export type Era = (typeof ERAS)[number];

export const ENDPOINTS = { public: "/api/mcp/mcp", agent: "/api/agent/mcp" } as const;
export type Endpoint = keyof typeof ENDPOINTS;

export interface ScenarioToRun {
  /** What the scenario checks here. */
  checks: string;
  /** Checks the tool reports as WARNING for a stateless, tools-only server, and why that is right here. */
  expectedWarnings?: Record<string, string>;
  /**
   * Checks the tool reports as FAILURE although nothing is wrong (a tool bug or limitation), and
   * why. Asserted exactly: such a check that passes, or any other failure, is a problem.
   */
  knownToolFailures?: Record<string, string>;
}

const FIXTURE_TOOLS =
  "calls a fixture tool of the conformance test server (test_*), which a real server does not carry; tool results, tool errors (isError) and JSON Schema 2020-12 input schemas are covered by tests/integration/mcp.test.ts and agent-mcp.test.ts";
const NO_RESOURCES = "the servers offer tools only, no resources";
const NO_PROMPTS = "the servers offer tools only, no prompts";
const ASKS_CLIENT = "needs a fixture tool that asks the user or the client's model mid-call; no tool here does";
const INPUT_REQUIRED =
  "needs a fixture tool (test_input_required_result_*) that answers an InputRequiredResult (SEP-2322, multi-round tool calls); no tool here asks for more input, every call is answered in one response";
const DNS_REBINDING =
  "applies to servers on localhost without authentication; the public endpoint is a public internet endpoint behind a proxy that answers any Host and any Origin by design (CORS *), with public data only, so a rebound page gains nothing it could not fetch directly; the agent endpoint takes a bearer token and no cookie, which a rebound page does not have";
const NOT_TESTABLE =
  "the tool reports as FAILURE (\"Not testable\") a requirement it can only exercise through a fixture tool of its own test server";

const SHARED_NOT_APPLICABLE: Record<string, string> = {
  "completion-complete": "completions complete prompt or resource-template arguments; the servers have neither",
  "tools-call-simple-text": FIXTURE_TOOLS,
  "tools-call-image": FIXTURE_TOOLS,
  "tools-call-audio": FIXTURE_TOOLS,
  "tools-call-embedded-resource": FIXTURE_TOOLS,
  "tools-call-mixed-content": FIXTURE_TOOLS,
  "tools-call-error": FIXTURE_TOOLS,
  "json-schema-2020-12": FIXTURE_TOOLS,
  "tools-call-with-progress": "needs a fixture tool that reports progress; every tool here answers in one response",
  "resources-list": NO_RESOURCES,
  "resources-read-text": NO_RESOURCES,
  "resources-read-binary": NO_RESOURCES,
  "resources-templates-read": NO_RESOURCES,
  "prompts-list": NO_PROMPTS,
  "prompts-get-simple": NO_PROMPTS,
  "prompts-get-with-args": NO_PROMPTS,
  "prompts-get-embedded-resource": NO_PROMPTS,
  "prompts-get-with-image": NO_PROMPTS,
  "dns-rebinding-protection": DNS_REBINDING,
};

/** Per revision: the scenarios to run (they must not fail) and the ones that do not apply, with the reason. */
export const PLAN: Record<Era, { run: Record<string, ScenarioToRun>; notApplicable: Record<string, string> }> = {
  "2025-11-25": {
    run: {
      "server-initialize": { checks: "the initialize handshake, answered by the stateless fallback" },
      ping: { checks: "ping answers an empty result" },
      "tools-list": { checks: "every tool has a name, a description and an input schema; names follow the spec's rules" },
      "server-sse-multiple-streams": {
        checks: "concurrent POSTs are all answered",
        expectedWarnings: { "server-sse-multiple-streams-session": "no session id is issued (stateless, by design)" },
      },
      "server-sse-polling": {
        checks: "a POST answered over SSE ends cleanly",
        expectedWarnings: {
          "server-sse-polling-session": "no session id is issued (stateless, by design)",
          "server-sse-priming-event": "priming events serve resuming a session's stream, which a stateless server does not offer",
          "server-sse-retry-field": "the retry field serves resuming a session's stream, which a stateless server does not offer",
        },
      },
    },
    notApplicable: {
      ...SHARED_NOT_APPLICABLE,
      "server-session-lifecycle":
        "checks the session a server issues at initialize; the servers are stateless and issue none, by design (the tool skips it itself, INFO server-session-lifecycle-skipped)",
      "logging-set-level": "the servers offer no logging capability (removed in the 2026-07-28 revision)",
      "tools-call-with-logging": "needs the logging capability and a fixture tool that logs",
      "tools-call-sampling": ASKS_CLIENT,
      "tools-call-elicitation": ASKS_CLIENT,
      "elicitation-sep1034-defaults": ASKS_CLIENT,
      "elicitation-sep1330-enums": ASKS_CLIENT,
      "resources-subscribe": NO_RESOURCES,
      "resources-unsubscribe": NO_RESOURCES,
    },
  },
  "2026-07-28": {
    run: {
      "server-stateless": {
        checks:
          "server/discover, `_meta` validation (400 and -32602 on a missing protocol version or capabilities), unsupported versions, Mcp-Method header mismatch, 404 for removed methods (initialize, ping, logging/setLevel, resources/subscribe), subscriptions/listen",
        knownToolFailures: {
          "sep-2575-server-rejects-undeclared-capability": `${NOT_TESTABLE} (test_missing_capability)`,
          "sep-2575-missing-capability-http-400": `${NOT_TESTABLE} (test_missing_capability)`,
          "sep-2575-http-server-no-independent-requests-on-stream": `${NOT_TESTABLE} (test_streaming_elicitation)`,
          "sep-2575-server-no-log-without-loglevel": `${NOT_TESTABLE} (test_logging_tool)`,
        },
      },
      "tools-list": { checks: "every tool has a name, a description and an input schema; names follow the spec's rules; the order is deterministic" },
      "server-sse-multiple-streams": { checks: "concurrent POSTs are all answered" },
      "http-header-validation": {
        checks: "Mcp-Method and Mcp-Name headers are checked against the body: 400 and -32020 on a mismatch, names case-insensitive, values trimmed",
      },
      "input-required-result-unsupported-methods": { checks: "no InputRequiredResult is answered to methods that cannot carry one" },
    },
    notApplicable: {
      ...SHARED_NOT_APPLICABLE,
      "sep-2164-resource-not-found": `${NO_RESOURCES}: resources/read is a method the servers do not have, answered -32601 (Method not found), where the scenario expects a server with resources to answer -32602 for an unknown one`,
      caching: `asks ttlMs and cacheScope of prompts/list, resources/list, resources/templates/list and resources/read as well, which the servers do not have (-32601); tools/list's caching hints are checked by tests/integration/mcp-http.test.ts`,
      "http-custom-header-server-validation":
        "needs a tool with x-mcp-header annotations on its input schema (custom headers, SEP-2243); no tool here declares any",
      "input-required-result-basic-elicitation": INPUT_REQUIRED,
      "input-required-result-basic-sampling": INPUT_REQUIRED,
      "input-required-result-basic-list-roots": INPUT_REQUIRED,
      "input-required-result-request-state": INPUT_REQUIRED,
      "input-required-result-multiple-input-requests": INPUT_REQUIRED,
      "input-required-result-multi-round": INPUT_REQUIRED,
      "input-required-result-missing-input-response": INPUT_REQUIRED,
      "input-required-result-non-tool-request": INPUT_REQUIRED,
      "input-required-result-result-type": INPUT_REQUIRED,
      "input-required-result-tampered-state": INPUT_REQUIRED,
      "input-required-result-capability-check": INPUT_REQUIRED,
      "input-required-result-ignore-extra-params": INPUT_REQUIRED,
      "input-required-result-validate-input": INPUT_REQUIRED,
    },
  },
};

export interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED" | string;
  errorMessage?: string;
}

export interface ScenarioRun {
  era: Era;
  scenario: string;
  checks: Check[];
  /** The tool's output for the whole invocation. */
  output: string;
}

const ROOT = process.cwd();
// The package's own entry point, not node_modules/.bin/conformance: 0.1.16 is installed beside it
// with a bin of the same name, and which of the two the link points at depends on install order.
const RUNNER = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance-auth", "dist", "index.js");

/**
 * Why the tool cannot run on this node, or undefined when it can: it imports `fs.globSync`, which
 * Node 22 added (the project requires Node 22+, package.json `engines`).
 */
export function unsupportedNode(): string | undefined {
  const major = Number(/^v(\d+)\./.exec(process.version)?.[1] ?? 0);
  if (major >= 22) return undefined;
  return `the MCP conformance tool needs Node 22 or later (it imports fs.globSync), as this project does (package.json engines); this is Node ${process.version}`;
}

function runTool(args: string[], timeoutMs = 60_000): Promise<{ exitCode: number | null; output: string }> {
  const unsupported = unsupportedNode();
  if (unsupported) return Promise.reject(new Error(unsupported));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, ...args], {
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

/** The server scenarios the tool runs for one revision (`conformance list --server --spec-version`). */
export async function listServerScenarios(era: Era): Promise<string[]> {
  const { exitCode, output } = await runTool(["list", "--server", "--spec-version", era]);
  if (exitCode !== 0) throw new Error(`conformance list failed:\n${output}`);
  return [...output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
}

/** Scenarios of the tool for `era` that this file does not classify (none, when it is up to date). */
export async function unclassified(era: Era): Promise<string[]> {
  const { run, notApplicable } = PLAN[era];
  return (await listServerScenarios(era)).filter((s) => !(s in run) && !(s in notApplicable));
}

/**
 * Runs every server scenario the tool has for one revision (`--suite all`: the 2026-07-28 scenarios
 * are in its draft suite, which the default "active" suite leaves out) against `url`, in one
 * invocation, and reads the checks each scenario recorded. Answers the runs by scenario; the exit
 * code is the invocation's (non-zero here, as the scenarios that do not apply fail).
 */
export async function runSuite(url: string, era: Era): Promise<{ runs: Map<string, ScenarioRun>; exitCode: number | null; output: string }> {
  const outDir = mkdtempSync(path.join(tmpdir(), "mcp-conformance-"));
  try {
    const { exitCode, output } = await runTool(["server", "--url", url, "--suite", "all", "--spec-version", era, "-o", outDir], 120_000);
    const runs = new Map<string, ScenarioRun>();
    for (const dir of readdirSync(outDir)) {
      // `server-<scenario>-<ISO timestamp>`
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1];
      if (!scenario) continue;
      let checks: Check[] = [];
      try {
        checks = JSON.parse(readFileSync(path.join(outDir, dir, "checks.json"), "utf8")) as Check[];
      } catch {
        // a scenario that crashed before writing its checks: no checks is a problem of its own
      }
      runs.set(scenario, { era, scenario, checks, output });
    }
    return { runs, exitCode, output };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/**
 * Problems of one scenario's run: no run at all, no check, a failed check that is not a known tool
 * failure, a known tool failure that did not happen, or a warning that was not expected.
 */
export function problemsOf(run: ScenarioRun | undefined): string[] {
  if (!run) return ["the tool did not run it"];
  const plan = PLAN[run.era].run[run.scenario];
  const expectedWarnings = Object.keys(plan?.expectedWarnings ?? {});
  const knownFailures = Object.keys(plan?.knownToolFailures ?? {});
  const problems: string[] = [];
  if (run.checks.length === 0) problems.push("no checks recorded");
  for (const check of run.checks) {
    if (check.status === "FAILURE" && !knownFailures.includes(check.id)) problems.push(`FAILURE ${check.id}: ${check.errorMessage ?? ""}`);
    if (check.status === "WARNING" && !expectedWarnings.includes(check.id)) problems.push(`unexpected WARNING ${check.id}: ${check.errorMessage ?? ""}`);
  }
  for (const id of knownFailures) {
    const statuses = run.checks.filter((c) => c.id === id).map((c) => c.status);
    if (statuses.length === 0 || statuses.some((s) => s !== "FAILURE")) {
      problems.push(`known tool failure ${id} is now ${statuses.join(", ") || "absent"}: the tool changed, update scripts/mcp-conformance/scenarios.ts`);
    }
  }
  return problems;
}

export interface Forwarder {
  /** The URL to give the tool: the same path as the target, on the forwarder. */
  url: string;
  close(): Promise<void>;
}

/**
 * A forwarding proxy on 127.0.0.1: every request goes to `target` (same method, path, headers and
 * body, streamed both ways) with `Authorization: Bearer <token>` added when a token is given, and
 * from a client address of its own (`X-Forwarded-For`, a fresh one per request: the public
 * endpoint's rate limit is per address, and the tool is not what it is for). The Host header becomes the target's,
 * as the access token's audience is the target URL.
 */
export async function startForwarder(target: string, options: { token?: string } = {}): Promise<Forwarder> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: to.host, "x-forwarded-for": `10.${[...randomBytes(3)].join(".")}` };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`forwarder: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs a revision's suite against `target` through a forwarder (with the token when there is one). */
export async function runSuiteThroughForwarder(target: string, era: Era, token?: string): Promise<Awaited<ReturnType<typeof runSuite>>> {
  const forwarder = await startForwarder(target, { token });
  try {
    return await runSuite(forwarder.url, era);
  } finally {
    await forwarder.close();
  }
}
