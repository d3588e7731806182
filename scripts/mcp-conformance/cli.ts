/**
 * `npm run test:mcp-conformance [-- <base URL>]`: the official conformance tool's server scenarios,
 * for both protocol revisions (2025-11-25 and 2026-07-28), against both MCP endpoints of a running
 * app (default http://localhost:3000): the public one (/api/mcp/mcp) and the agent one
 * (/api/agent/mcp), the latter with the access token in MCP_AGENT_TOKEN (an OAuth access token for
 * the agent MCP server, e.g. the one an MCP client got on connecting; docs/agents.md). Without it
 * the agent endpoint is not run, and the output says so. Lists the scenarios that do not apply and
 * why. Exits 1 on any failure.
 */
import { ENDPOINTS, type Endpoint, ERAS, PLAN, problemsOf, runSuiteThroughForwarder, unclassified, unsupportedNode } from "./scenarios";

async function main() {
  const unsupported = unsupportedNode();
  if (unsupported) {
    console.error(unsupported);
    process.exit(1);
  }
  // A base URL; an endpoint's URL (as this command took before) is read as its base.
  const base = (process.argv[2] ?? "http://localhost:3000").replace(/\/+$/, "").replace(/\/api\/(mcp|agent)\/mcp$/, "");
  const token = process.env.MCP_AGENT_TOKEN;
  let failed = false;

  for (const era of ERAS) {
    const missing = await unclassified(era);
    if (missing.length > 0) {
      failed = true;
      console.log(`Scenarios of the tool for ${era} not classified in scripts/mcp-conformance/scenarios.ts: ${missing.join(", ")}`);
    }
  }

  const endpoints: Endpoint[] = token ? ["public", "agent"] : ["public"];
  for (const endpoint of endpoints) {
    const url = base + ENDPOINTS[endpoint];
    console.log(`\nConformance of ${url}`);
    // One invocation of the tool per revision, both side by side.
    const suites = await Promise.all(ERAS.map((era) => runSuiteThroughForwarder(url, era, endpoint === "agent" ? token : undefined)));
    ERAS.forEach((era, i) => {
      for (const [scenario, plan] of Object.entries(PLAN[era].run)) {
        const run = suites[i]!.runs.get(scenario);
        const problems = problemsOf(run);
        const counts = ["SUCCESS", "WARNING", "FAILURE"].map((s) => `${run?.checks.filter((c) => c.status === s).length ?? 0} ${s.toLowerCase()}`);
        console.log(`${problems.length === 0 ? "pass" : "FAIL"}  ${era} ${scenario} (${counts.join(", ")}): ${plan.checks}`);
        for (const problem of problems) console.log(`      ${problem}`);
        if (problems.length > 0) failed = true;
      }
    });
  }
  if (!token) console.log(`\nNot run: ${base}${ENDPOINTS.agent} (set MCP_AGENT_TOKEN to an access token for it; the tool itself cannot send one)`);

  for (const era of ERAS) {
    console.log(`\nNot applicable to these servers (${era}):`);
    for (const [scenario, reason] of Object.entries(PLAN[era].notApplicable)) console.log(`  ${scenario}: ${reason}`);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
