/**
 * `npm run test:mcp-conformance [-- <MCP endpoint URL>]`: the official conformance runner against a
 * running app (default http://localhost:3000/api/mcp/mcp), every scenario that applies to this
 * server, one at a time. Lists the scenarios that do not apply and why. Exits 1 on any failure.
 */
import { listServerScenarios, problemsOf, runScenario, SCENARIOS_NOT_APPLICABLE, SCENARIOS_TO_RUN } from "./scenarios";

async function main() {
  const url = process.argv[2] ?? "http://localhost:3000/api/mcp/mcp";
  let failed = false;

  const known = await listServerScenarios();
  const unclassified = known.filter((s) => !(s in SCENARIOS_TO_RUN) && !(s in SCENARIOS_NOT_APPLICABLE));
  if (unclassified.length > 0) {
    failed = true;
    console.log(`Scenarios of this runner not classified in scripts/mcp-conformance/scenarios.ts: ${unclassified.join(", ")}`);
  }

  console.log(`Conformance of ${url}\n`);
  for (const scenario of Object.keys(SCENARIOS_TO_RUN)) {
    const run = await runScenario(url, scenario);
    const problems = problemsOf(run);
    const counts = ["SUCCESS", "WARNING", "FAILURE"].map((s) => `${run.checks.filter((c) => c.status === s).length} ${s.toLowerCase()}`);
    console.log(`${problems.length === 0 ? "pass" : "FAIL"}  ${scenario} (${counts.join(", ")}): ${SCENARIOS_TO_RUN[scenario]!.checks}`);
    for (const problem of problems) console.log(`      ${problem}`);
    if (problems.length > 0) failed = true;
  }
  console.log("\nNot applicable to this server:");
  for (const [scenario, reason] of Object.entries(SCENARIOS_NOT_APPLICABLE)) console.log(`  ${scenario}: ${reason}`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
