const FS_WITH_GLOB = `data:text/javascript,${encodeURIComponent(
  'import fs from "node:fs"; export * from "node:fs"; export default fs;' +
    ' export function globSync() { throw new Error("fs.globSync needs Node 22 or later"); }',
)}`;

/** Resolve hook: the conformance runner's "fs" becomes node:fs plus a globSync stub. */
export async function resolve(specifier, context, nextResolve) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL?.includes("/@modelcontextprotocol/conformance/")) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
