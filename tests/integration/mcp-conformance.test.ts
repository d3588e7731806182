/**
 * The official MCP conformance tool (@modelcontextprotocol/conformance 0.2.0 alpha) against both MCP
 * endpoints of the app, the public one and the agent one (an access token minted for it, sent by a
 * forwarding proxy: the tool cannot send a header), for both protocol revisions, 2025-11-25 and
 * 2026-07-28: every server scenario that applies to a stateless, tools-only server passes; the
 * others are listed with the reason in scripts/mcp-conformance/scenarios.ts (also run by
 * `npm run test:mcp-conformance`). The runs go side by side, each from its own client address.
 * The tool runs on this process's node, which must be 22 or later (as package.json `engines` says);
 * on an older node the file fails at once, saying so.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { ENDPOINTS, type Endpoint, ERAS, listServerScenarios, PLAN, problemsOf, runSuiteThroughForwarder, type ScenarioRun, unclassified, unsupportedNode } from "../../scripts/mcp-conformance/scenarios";
import { createHolder } from "../helpers/buyer";
import { mintAccessToken } from "../helpers/oauth-tokens";

const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as Endpoint[];
const CASES = ENDPOINT_NAMES.flatMap((endpoint) => ERAS.flatMap((era) => Object.keys(PLAN[era].run).map((scenario) => ({ endpoint, era, scenario }))));

let pool: pg.Pool;
/** `${endpoint} ${era}` -> the scenarios the tool ran in that invocation. */
const suites = new Map<string, Map<string, ScenarioRun>>();

beforeAll(async () => {
  const unsupported = unsupportedNode();
  if (unsupported) throw new Error(unsupported);
  const base = inject("BASE_URL");
  pool = new pg.Pool({ connectionString: inject("DATABASE_URL"), max: 2 });
  const holder = await createHolder(pool, "mcp-conformance");
  // One grant per revision: the agent endpoint's rate limit is per grant.
  const token = async () => (await mintAccessToken(pool, { userId: holder.id, scopes: [...BUYER_SCOPES], resource: "agent_mcp", baseUrl: base })).token;
  const jobs = await Promise.all(
    ENDPOINT_NAMES.flatMap((endpoint) => ERAS.map(async (era) => ({ endpoint, era, token: endpoint === "agent" ? await token() : undefined }))),
  );
  // Four invocations of the tool (two endpoints, two revisions), side by side.
  await Promise.all(
    jobs.map(async ({ endpoint, era, token }) => {
      const { runs } = await runSuiteThroughForwarder(base + ENDPOINTS[endpoint], era, token);
      suites.set(`${endpoint} ${era}`, runs);
    }),
  );
}, 240_000);

afterAll(async () => {
  await pool?.end();
});

describe("MCP conformance (official tool), both revisions, both endpoints", () => {
  it.each(ERAS)("every server scenario of the tool for %s is either run or listed as not applicable, with a reason", async (era) => {
    expect(await unclassified(era)).toEqual([]);
    // and the tool ran every one of them, against each endpoint
    const listed = (await listServerScenarios(era)).sort();
    for (const endpoint of ENDPOINT_NAMES) expect([...(suites.get(`${endpoint} ${era}`)?.keys() ?? [])].sort()).toEqual(listed);
    const { run, notApplicable } = PLAN[era];
    expect(Object.keys(run).length + Object.keys(notApplicable).length).toBeGreaterThan(20);
    expect(Object.keys(run).filter((s) => s in notApplicable)).toEqual([]);
    for (const reason of Object.values(notApplicable)) expect(reason.length).toBeGreaterThan(20);
  });

  it.each(CASES)("$endpoint endpoint, $era: $scenario passes", (c) => {
    const run = suites.get(`${c.endpoint} ${c.era}`)?.get(c.scenario);
    expect(problemsOf(run), run?.output.slice(-3000)).toEqual([]);
    const plan = PLAN[c.era].run[c.scenario]!;
    if (!plan.expectedWarnings) expect(run!.checks.filter((check) => check.status === "SUCCESS").length).toBeGreaterThan(0);
  });
});
