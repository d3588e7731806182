import type { ToolDefinition } from "./tools/types";

/**
 * A name clients may still send after a rename: the old name stays served and listed, its
 * description starting "Deprecated: use <new>.", until a release removes it deliberately (and
 * the tools snapshot with it, tests/unit/mcp-tools-contract.test.ts).
 *
 * - kind "tool": `old` is a tool name; the tool is listed under both names (this list adds the old one).
 * - kind "field": `old` is an input field of `tool` (its current name); the tool's input schema
 *   keeps the field, optional, described with `deprecationNote` (the tool's own schema does that).
 */
export interface Deprecation {
  kind: "tool" | "field";
  tool: string;
  old: string;
  new: string;
  /** When the new name shipped (YYYY-MM-DD). */
  since: string;
}

/** None so far: no tool or input field has been renamed since the contract was first snapshotted. */
export const DEPRECATIONS: readonly Deprecation[] = [];

export function deprecationNote(deprecation: Deprecation): string {
  return `Deprecated: use ${deprecation.new}.`;
}

/** `tools` and, after them, each renamed tool under its old name (same input, scopes and handler). */
export function withDeprecatedAliases(tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  const aliases = DEPRECATIONS.filter((d) => d.kind === "tool").flatMap((d) => {
    const tool = tools.find((t) => t.name === d.new);
    return tool ? [{ ...tool, name: d.old, description: `${deprecationNote(d)} ${tool.description}` }] : [];
  });
  return [...tools, ...aliases];
}
