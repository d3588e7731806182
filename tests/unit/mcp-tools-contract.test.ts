/**
 * The MCP tools contract (issue 32, "a stable, discoverable contract"): both servers' `tools/list`,
 * as the SDK answers it, against the committed snapshot tests/unit/mcp-tools.snapshot.json (per
 * tool: name, title, input property names and required list, output schema presence,
 * annotations, and the MCP Apps view it links or its app-only visibility).
 *
 * - Renaming or removing a tool or an input field fails, update or not: clients send those names.
 *   Keep the old name as a deprecated alias instead (lib/mcp/deprecations.ts: `{ kind, tool, old,
 *   new, since }`, the old name described "Deprecated: use <new>.").
 * - Any other difference (a new tool or field, a title, a required list, annotations) fails until
 *   the snapshot is updated deliberately:
 *     UPDATE_TOOLS_SNAPSHOT=1 npx vitest run tests/unit/mcp-tools-contract.test.ts
 *   which rewrites the file only when nothing was renamed or removed; review and commit the diff.
 * - Retiring a deprecated name for good is a hand edit of the snapshot (delete its entry), so it
 *   shows in review.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { AGENT_SURFACE } from "@/lib/mcp/agent";
import { DEPRECATIONS, deprecationNote } from "@/lib/mcp/deprecations";
import { createMcpServer, PUBLIC_SURFACE, type McpSurface } from "@/lib/mcp/server";

const SNAPSHOT = "tests/unit/mcp-tools.snapshot.json";
const SERVERS: Record<string, McpSurface> = { public: PUBLIC_SURFACE, agent: AGENT_SURFACE };

interface ToolContract {
  name: string;
  title?: string;
  input: { properties: string[]; required: string[] };
  output: boolean;
  annotations?: Record<string, unknown>;
  /** MCP Apps: the view the tool links and who may call it (`_meta.ui`). */
  ui?: Record<string, unknown>;
}
type Contract = Record<string, ToolContract[]>;

/** `tools/list` of `surface`, through the SDK as a client sees it. */
async function listTools(surface: McpSurface): Promise<any[]> {
  const server = createMcpServer({ requestId: "contract", noteError: () => {} }, surface);
  const client = new Client({ name: "tools-contract", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
  }
}

function contractOf(tool: any): ToolContract {
  return {
    name: tool.name,
    title: tool.title,
    input: { properties: Object.keys(tool.inputSchema.properties ?? {}).sort(), required: [...(tool.inputSchema.required ?? [])].sort() },
    output: tool.outputSchema !== undefined,
    annotations: tool.annotations,
    ...(tool._meta?.ui ? { ui: tool._meta.ui } : {}),
  };
}

const listed: Record<string, any[]> = {};
async function live(): Promise<Contract> {
  const contract: Contract = {};
  for (const [server, surface] of Object.entries(SERVERS)) {
    listed[server] ??= await listTools(surface);
    contract[server] = listed[server].map(contractOf).sort((a, b) => a.name.localeCompare(b.name));
  }
  return contract;
}

/** Every tool and input field of `before` that `after` no longer has, as sentences. */
function breakingChanges(before: Contract, after: Contract): string[] {
  const problems: string[] = [];
  for (const [server, tools] of Object.entries(before)) {
    for (const tool of tools) {
      const now = after[server]?.find((t) => t.name === tool.name);
      if (!now) {
        problems.push(`${server} server: tool '${tool.name}' was removed or renamed`);
        continue;
      }
      for (const field of tool.input.properties) {
        if (!now.input.properties.includes(field)) problems.push(`${server} server: input field '${tool.name}.${field}' was removed or renamed`);
      }
    }
  }
  return problems;
}

describe("tools/list of both servers against the committed snapshot", () => {
  it("renames no tool or input field and removes none (a rename keeps the old name as a deprecated alias)", async () => {
    const current = await live();
    if (!existsSync(SNAPSHOT) && process.env.UPDATE_TOOLS_SNAPSHOT === "1") return;
    if (!existsSync(SNAPSHOT)) throw new Error(`${SNAPSHOT} is missing: run UPDATE_TOOLS_SNAPSHOT=1 npx vitest run tests/unit/mcp-tools-contract.test.ts`);
    const problems = breakingChanges(JSON.parse(readFileSync(SNAPSHOT, "utf8")), current);
    expect(
      problems,
      `Clients send these names. Keep each old name as a deprecated alias (lib/mcp/deprecations.ts), or, to retire one deliberately, delete it from ${SNAPSHOT} by hand.`,
    ).toEqual([]);
  });

  it("matches the snapshot otherwise (UPDATE_TOOLS_SNAPSHOT=1 accepts additions and changes)", async () => {
    const current = await live();
    const text = `${JSON.stringify(current, null, 2)}\n`;
    const committed = existsSync(SNAPSHOT) ? readFileSync(SNAPSHOT, "utf8") : "";
    if (process.env.UPDATE_TOOLS_SNAPSHOT === "1" && text !== committed) {
      if (committed && breakingChanges(JSON.parse(committed), current).length > 0) throw new Error("not updating the snapshot over a rename or removal (see the test above)");
      writeFileSync(SNAPSHOT, text);
      return;
    }
    expect(JSON.parse(text), `tools/list changed: if deliberate, run UPDATE_TOOLS_SNAPSHOT=1 npx vitest run tests/unit/mcp-tools-contract.test.ts and commit ${SNAPSHOT}`).toEqual(
      JSON.parse(committed || "{}"),
    );
  });
});

describe("deprecated aliases (lib/mcp/deprecations.ts)", () => {
  it.each(DEPRECATIONS.map((d) => [`${d.kind} ${d.tool}: ${d.old} -> ${d.new}`, d] as const))("%s is still listed, described as deprecated", async (_label, d) => {
    await live();
    const tools = Object.values(listed).flat();
    if (d.kind === "tool") {
      const alias = tools.find((t) => t.name === d.old);
      expect(alias?.description).toMatch(new RegExp(`^${deprecationNote(d).replace(/\./g, "\\.")}`));
      expect(tools.some((t) => t.name === d.new)).toBe(true);
    } else {
      const properties = tools.find((t) => t.name === d.tool)?.inputSchema.properties ?? {};
      expect(properties[d.new]).toBeDefined();
      expect(properties[d.old]?.description ?? "").toMatch(new RegExp(`^${deprecationNote(d).replace(/\./g, "\\.")}`));
    }
  });

  it("every entry names an existing date and a real rename", () => {
    for (const d of DEPRECATIONS) {
      expect(d.since).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(d.old).not.toBe(d.new);
    }
  });
});
