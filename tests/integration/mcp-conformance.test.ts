/**
 * The official MCP conformance runner (@modelcontextprotocol/conformance, the locally installed
 * binary) against the app's public MCP endpoint: every server scenario that applies to a
 * stateless, tools-only server passes; the others are listed with the reason in
 * scripts/mcp-conformance/scenarios.ts (also run by `npm run test:mcp-conformance`).
 */
import { describe, expect, it } from "vitest";
import {
  listServerScenarios,
  problemsOf,
  runScenario,
  SCENARIOS_NOT_APPLICABLE,
  SCENARIOS_TO_RUN,
} from "../../scripts/mcp-conformance/scenarios";
import { mcpUrl } from "../helpers/mcp";

describe("MCP conformance (official runner)", () => {
  it("every server scenario of the runner is either run or listed as not applicable, with a reason", async () => {
    const known = await listServerScenarios();
    expect(known.length).toBeGreaterThan(20);
    expect([...known].sort()).toEqual([...Object.keys(SCENARIOS_TO_RUN), ...Object.keys(SCENARIOS_NOT_APPLICABLE)].sort());
    for (const reason of Object.values(SCENARIOS_NOT_APPLICABLE)) expect(reason.length).toBeGreaterThan(20);
  });

  // One at a time: the runner's clients all come from 127.0.0.1, one rate-limit bucket.
  it.each(Object.keys(SCENARIOS_TO_RUN))("%s passes", async (scenario) => {
    const run = await runScenario(mcpUrl(), scenario);
    expect(problemsOf(run), run.output.slice(-3000)).toEqual([]);
    if (!SCENARIOS_TO_RUN[scenario]!.expectedWarnings) {
      expect(run.checks.filter((c) => c.status === "SUCCESS").length).toBeGreaterThan(0);
    }
  });
});
