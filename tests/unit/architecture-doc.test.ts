/**
 * The README is the front door and docs/architecture.md the map of the code (issue 37): every
 * folder directly under lib/ is named there as `lib/<name>/`, so a new folder cannot land
 * undocumented, and the README stays at most 300 lines.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

describe("docs/architecture.md", () => {
  const doc = read("docs/architecture.md");
  const folders = readdirSync(path.join(ROOT, "lib"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

  it("finds the folders of lib/", () => {
    expect(folders.length).toBeGreaterThan(0);
  });

  it("names every folder directly under lib/ as `lib/<name>/`", () => {
    const missing = folders.filter((name) => !doc.includes(`\`lib/${name}/\``));
    expect(missing, "folders of lib/ that docs/architecture.md does not name").toEqual([]);
  });
});

describe("README.md", () => {
  const readme = read("README.md");

  it("is at most 300 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(300);
  });

  it("keeps the quickstart as its first sh block (.ci/run runs it)", () => {
    const first = /^```sh\n(.*)$/m.exec(readme)?.[1];
    expect(first).toBe("npm install && npm run dev");
  });
});
