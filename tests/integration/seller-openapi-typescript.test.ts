/**
 * docs/seller-api.md's typed client: the `openapi-typescript` command it documents, run on the
 * served `GET /api/v1/openapi.json`, generates types that accept every JSON body the page's own
 * examples send (checked by the TypeScript compiler). Without `--default-non-nullable false`,
 * properties with a default become required and the create-listing example is refused: the test
 * shows that too, so it cannot pass whatever the flags.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellBlocks } from "../helpers/doc-examples";
import { api } from "../helpers/http";

const DOC = readFileSync("docs/seller-api.md", "utf8");
const CLI = path.resolve("node_modules/openapi-typescript/bin/cli.js");
const PLACEHOLDER_ID = "00000000-0000-4000-8000-000000000000";

interface Example {
  method: string;
  path: string;
  body: string;
}

/** The documented command's arguments after `openapi-typescript` (one line of inline code). */
function documentedArgs(): string[] {
  const found = /`npx openapi-typescript ([^`\n]+)`/.exec(DOC);
  expect(found, "docs/seller-api.md documents `npx openapi-typescript ...` on one line").not.toBeNull();
  return found![1]!.trim().split(/\s+/);
}

/** A single-quoted shell word from `start`, with `'"$VAR"'` splices read as an id. */
function quoted(text: string, start: number): string {
  let out = "";
  let i = start;
  for (;;) {
    const end = text.indexOf("'", i);
    out += text.slice(i, end);
    const splice = /^"\$\{?\w+\}?"'/.exec(text.slice(end + 1));
    if (!splice) return out;
    out += PLACEHOLDER_ID;
    i = end + 1 + splice[0].length;
  }
}

/** A double-quoted shell word from `start`: `\"` unescaped, `$VAR` read as a URL. */
function doubleQuoted(text: string, start: number): string {
  const end = /(?<!\\)"/.exec(text.slice(start))!.index + start;
  return text.slice(start, end).replace(/\\"/g, '"').replace(/\$\{?\w+\}?/g, "https://example.com/hook");
}

/** Every `curl` of the page's `sh` examples that sends a JSON body (-d '...' or -d "..."). */
function examples(): Example[] {
  const out: Example[] = [];
  for (const block of shellBlocks(DOC)) {
    const commands = block.split(/(?=\bcurl\s)/).filter((c) => c.startsWith("curl"));
    for (const command of commands) {
      const data = /-d (['"])/.exec(command);
      if (!data) continue;
      const url = /"\$BASE\/api\/v1(\/[^"?]*)/.exec(command);
      expect(url, command).not.toBeNull();
      const start = data.index + data[0].length;
      const body = data[1] === "'" ? quoted(command, start) : doubleQuoted(command, start);
      out.push({ method: (/-X (\w+)/.exec(command)?.[1] ?? "POST").toLowerCase(), path: url![1]!, body });
    }
  }
  return out;
}

/** The document's path template a concrete path matches, fewest parameters first. */
function templateOf(paths: string[], concrete: string): string {
  const matches = paths.filter((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(concrete.replace(/\$\{?\w+\}?/g, "x")));
  matches.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  expect(matches, concrete).not.toHaveLength(0);
  return matches[0]!;
}

function run(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd, timeout: 30_000, env: { ...process.env, NO_COLOR: "1" } }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: `${stdout}\n${stderr}` });
    });
  });
}

/** The compiler's complaints about `source`, a module beside the generated types in `dir`. */
function typeErrors(dir: string, source: string): string[] {
  const file = path.join(dir, "examples.ts");
  const host = ts.createCompilerHost({});
  const read = host.readFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === file ? source : read(name));
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === file || exists(name);
  const program = ts.createProgram(
    [file],
    { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [] },
    host,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.basename(d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

let dir: string;
let docPaths: string[];
let source: (typesModule: string) => string;
const EXAMPLES = examples();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "seller-openapi-ts-"));
  const res = await api("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  docPaths = Object.keys(res.json.paths);
  await writeFile(path.join(dir, "openapi.json"), res.text);
  const lines = EXAMPLES.map((e, i) => `export const example${i}: JsonBody<${JSON.stringify(templateOf(docPaths, e.path))}, "${e.method}"> = ${e.body};`);
  source = (typesModule: string) =>
    [
      `import type { paths } from "./${typesModule}";`,
      `type JsonBody<P extends keyof paths, M extends string> = M extends keyof paths[P] ? NonNullable<paths[P][M]> extends { requestBody?: infer R } ? NonNullable<R> extends { content: { "application/json": infer B } } ? B : never : never : never;`,
      ...lines,
    ].join("\n");
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the documented openapi-typescript command", () => {
  it("the page's examples send JSON bodies, among them create-listing's", () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(5);
    expect(EXAMPLES.some((e) => e.method === "post" && e.path === "/listings")).toBe(true);
    expect(EXAMPLES.some((e) => e.method === "post" && e.path === "/webhook-endpoints")).toBe(true);
    for (const e of EXAMPLES) expect(() => JSON.parse(e.body), e.body).not.toThrow();
  });

  it("generates types that accept every example body", async () => {
    const args = documentedArgs().map((a) => (a === "$BASE/api/v1/openapi.json" ? "openapi.json" : a));
    expect(args).toContain("openapi.json");
    const output = args[args.indexOf("-o") + 1]!;
    const generated = await run(args, dir);
    expect(generated.code, generated.out).toBe(0);
    expect(typeErrors(dir, source(output.replace(/\.d\.ts$/, "")))).toEqual([]);
  }, 60_000);

  it("without --default-non-nullable false, the create-listing example is refused (what the flag is for)", async () => {
    const generated = await run(["openapi.json", "-o", "strict-defaults.d.ts"], dir);
    expect(generated.code, generated.out).toBe(0);
    const errors = typeErrors(dir, source("strict-defaults"));
    expect(errors.join("\n")).toMatch(/currency|quantity|allow_backorder/);
  }, 60_000);
});
