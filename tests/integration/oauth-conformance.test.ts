/**
 * The official MCP conformance tool's authorization-server scenarios against the app's OAuth
 * server (issuer `${BASE_URL}/oauth`). Only the 0.2.0 alpha line of @modelcontextprotocol/conformance
 * has them; it is installed beside 0.1.16 (which runs the public server scenarios,
 * tests/integration/mcp-conformance.test.ts) as the alias @modelcontextprotocol/conformance-auth.
 *
 * - `authorization-server-metadata-endpoint`: RFC 8414 metadata at the path-inserted well-known URL,
 *   `issuer` equal to `--url`, S256, `client_id_metadata_document_supported`.
 * - `authorization-code-grant`: the tool prints an authorization URL and waits for a person to open
 *   it and be sent back to its callback server (http://127.0.0.1:<port>/callback). The test plays
 *   that person: the app's sign-in form and the consent form over HTTP with a cookie jar, then the
 *   redirect to the tool's callback; the tool then redeems the code (public client, PKCE S256) and
 *   checks the token response. The tool registers no client: the test registers one (RFC 7591)
 *   with that redirect URI first and passes its client_id.
 *
 * Both scenarios run in one invocation (no `--scenario`): the grant scenario reads the metadata
 * the metadata scenario found, which the tool hands over only then; `--scenario
 * authorization-code-grant` alone always fails with "Invalid authorization server metadata"
 * (asserted below, so an upgrade that changes it is noticed).
 *
 * The alpha needs Node 22 or later (it imports fs.globSync), as the project does (package.json
 * `engines`): it runs on this process's node. On an older node the tests are skipped, saying why.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { hashPassword } from "@/lib/accounts/password";
import { Browser, BUYER_SCOPES, consent, registerAgent } from "../helpers/oauth-agent";
import { freePort } from "../setup/ports";

const ENTRY = path.join(process.cwd(), "node_modules", "@modelcontextprotocol", "conformance-auth", "dist", "index.js");
const SCENARIOS = ["authorization-server-metadata-endpoint", "authorization-code-grant"];

function majorOf(version: string): number {
  return Number(/^v?(\d+)\./.exec(version.trim())?.[1] ?? 0);
}

/** The node binary for the tool (this process's), or why there is none. */
function conformanceNode(): { node: string } | { skip: string } {
  if (majorOf(process.version) >= 22) return { node: process.execPath };
  return {
    skip: `the conformance tool's 0.2.0 alpha needs Node 22 or later (fs.globSync), as this project does (package.json engines); this is Node ${process.version}`,
  };
}

interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
}

interface ToolRun {
  exitCode: number | null;
  output: string;
  /** Each scenario's checks, from its checks.json in the results directory. */
  checks: Record<string, Check[]>;
}


/**
 * Runs `conformance authorization ...`; `onAuthorizationUrl` is called once with the URL the tool
 * asks a person to open. Reads every checks.json the tool wrote under its `-o` directory.
 */
async function runTool(node: string, args: string[], onAuthorizationUrl?: (url: URL) => Promise<void>, timeoutMs = 40_000): Promise<ToolRun> {
  const outDir = mkdtempSync(path.join(tmpdir(), "oauth-conformance-"));
  let child: ChildProcess | undefined;
  try {
    const { exitCode, output } = await new Promise<{ exitCode: number | null; output: string }>((resolve, reject) => {
      child = spawn(node, [ENTRY, "authorization", ...args, "-o", outDir], {
        env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      let browsing: Promise<void> | undefined;
      const timer = setTimeout(() => child?.kill("SIGKILL"), timeoutMs);
      const onData = (d: Buffer) => {
        output += d;
        const url = /^(https?:\/\/\S+\/authorize\?\S+)$/m.exec(output)?.[1];
        if (url && onAuthorizationUrl && !browsing) {
          browsing = onAuthorizationUrl(new URL(url)).catch((err: unknown) => {
            output += `\n[test] the browser part failed: ${err instanceof Error ? err.message : String(err)}\n`;
            child?.kill("SIGTERM");
          });
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.on("error", reject);
      child.on("exit", (exitCode) => {
        clearTimeout(timer);
        void Promise.resolve(browsing).then(() => resolve({ exitCode, output }));
      });
    });
    const checks: Record<string, Check[]> = {};
    for (const dir of readdirSync(outDir)) {
      const scenario = SCENARIOS.find((s) => dir.startsWith(`authorization-server-${s}-`));
      const file = path.join(outDir, dir, "checks.json");
      if (scenario && existsSync(file)) checks[scenario] = JSON.parse(readFileSync(file, "utf8")) as Check[];
    }
    return { exitCode, output, checks };
  } finally {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** One line per check, for the test output. */
function listChecks(label: string, run: ToolRun): string {
  const lines = Object.entries(run.checks).flatMap(([scenario, checks]) =>
    checks.map((c) => `  ${c.status.padEnd(7)} ${scenario} / ${c.id}: ${c.description ?? ""}${c.errorMessage ? ` (${c.errorMessage})` : ""}`),
  );
  return `conformance authorization, ${label} (exit ${run.exitCode}):\n${lines.join("\n")}`;
}

const found = conformanceNode();

if ("skip" in found) {
  describe("OAuth authorization server conformance (official tool, 0.2.0 alpha)", () => {
    it(`is skipped: ${found.skip}`, (ctx) => {
      process.stderr.write(`[oauth-conformance] skipped: ${found.skip}\n`);
      ctx.skip(found.skip);
    });
  });
} else {
  const node = found.node;
  let base = "";
  let pool: pg.Pool;
  const PASSWORD = `pw-${randomBytes(8).toString("hex")}`;

  async function createHolder(): Promise<string> {
    const email = `conformance-${randomBytes(5).toString("hex")}@example.com`;
    await pool.query(`INSERT INTO users (email, name, role, password_hash) VALUES ($1, 'Conformance holder', 'shopper', $2)`, [email, await hashPassword(PASSWORD)]);
    return email;
  }

  /** Both scenarios in one run, the test as the person in the browser; answers the run and the client id. */
  async function runBoth(resource: string | undefined): Promise<ToolRun & { clientId: string }> {
    const port = await freePort();
    const agent = await registerAgent(base, { redirect_uris: [`http://127.0.0.1:${port}/callback`], client_name: "MCP conformance tool" });
    const clientId = agent.client.client_id;
    const email = await createHolder();
    // `--client-id=<id>`, one argument: a client id may begin with "-" (oidc-provider's ids are
    // nanoids, [A-Za-z0-9_-]), which as a separate argument the tool's parser reads as flags
    // ("-V…" printed the version and ran nothing, 1 run in 64).
    const args = ["--url", `${base}/oauth`, `--client-id=${clientId}`, "--port", String(port), ...(resource ? [`--resource=${resource}`] : [])];
    const run = await runTool(node, args, async (url) => {
      const browser = new Browser(base);
      await browser.signIn(email, PASSWORD);
      // The consent page lists what the request asks; the person allows all of it.
      const callback = await consent(browser, { url, codeVerifier: "", state: "" }, BUYER_SCOPES);
      expect(callback.origin).toBe(`http://127.0.0.1:${port}`);
      const res = await fetch(callback, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`the tool's callback answered ${res.status}`);
    });
    return { ...run, clientId };
  }

  beforeAll(async () => {
    base = inject("BASE_URL");
    pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
  });

  afterAll(async () => {
    await pool?.end();
  });

  describe("OAuth authorization server conformance (official tool, 0.2.0 alpha)", () => {
    it("the tool knows exactly the two authorization-server scenarios run here", () => {
      const out = execFileSync(node, [ENTRY, "list", "--authorization"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
      const listed = [...out.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
      expect(listed.sort()).toEqual([...SCENARIOS].sort());
    });

    it.each([
      ["with --resource the agent MCP server (RFC 8707, as MCP clients send it)", "/api/agent/mcp"],
      ["without --resource (the server's default resource, the agent MCP server)", undefined],
    ])("every check of both scenarios passes, %s", async (label, resourcePath) => {
      const run = await runBoth(resourcePath ? `${base}${resourcePath}` : undefined);
      console.log(listChecks(label, run));
      expect(Object.keys(run.checks).sort(), run.output.slice(-3000)).toEqual([...SCENARIOS].sort());
      const all = Object.values(run.checks).flat();
      expect(all.map((c) => c.id).sort()).toEqual(["authorization-code-grant", "authorization-server-metadata", "authorization-server-metadata-cimd"]);
      expect(
        all.filter((c) => c.status !== "SUCCESS"),
        run.output.slice(-3000),
      ).toEqual([]);
      expect(run.exitCode, run.output.slice(-3000)).toBe(0);
      // The person's consent made one connection on /account/agents with every buyer scope.
      const { rows } = await pool.query(`SELECT scopes FROM agent_connections WHERE client_id = $1`, [run.clientId]);
      expect(rows.map((r) => [...r.scopes].sort())).toEqual([[...BUYER_SCOPES].sort()]);
    });

    it("`--scenario authorization-code-grant` alone fails in the tool itself (it gets no metadata without the metadata scenario)", async () => {
      const run = await runTool(node, ["--url", `${base}/oauth`, "--scenario", "authorization-code-grant", "--client-id", "unused", "--port", String(await freePort())]);
      expect(run.checks["authorization-code-grant"]).toEqual([expect.objectContaining({ status: "FAILURE", errorMessage: "Invalid authorization server metadata" })]);
    });
  });
}
