/**
 * One definition per rule: the UUID pattern, the order-number pattern, the database client type,
 * the currency and the check of a redirect target each live in one file, and every other file of
 * lib/, app/ and scripts/ (tests aside) imports it. A second copy is how two of them came to disagree (the
 * order number was `{1,12}` any case in one file and `{1,18}` upper case in another).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = process.cwd();
const WALKED = ["lib", "app", "scripts", "proxy.ts", "instrumentation.ts"];
const SKIPPED = ["lib/db/generated"];
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
/** Tests beside their modules (lib/orders/shipping.test.ts) spell out the values they expect. */
const TEST = /\.test\.tsx?$/;

interface Rule {
  /** What the one definition is. */
  name: string;
  /** The file that holds it. */
  home: string;
  /** What a copy looks like in source text. */
  copy: RegExp;
  /** Copies the detector must catch (the test of the test). */
  caught: string[];
  /** Lines it must leave alone. */
  ignored: string[];
}

const RULES: Rule[] = [
  {
    name: "the UUID pattern",
    home: "lib/ids.ts",
    copy: /\]\{8\}-|\{8\}-\[|\]\{36\}/,
    caught: [
      "const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;",
      ".regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/)",
      "/^[\\da-f]{8}-[\\da-f]{4}-[\\da-f]{4}-[\\da-f]{4}-[\\da-f]{12}$/i",
      "/^[0-9a-f-]{36}$/",
    ],
    ignored: ['.regex(/^(?:[0-9]{8}|[0-9]{12,14})$/)', "if (!isUuid(id)) return null;"],
  },
  {
    name: "the order-number pattern",
    home: "lib/orders/number.ts",
    copy: /M-(?:\[0-9|\[\\d|\\d)/,
    caught: ["const ORDER_NUMBER = /^M-[0-9]{1,12}$/i;", "/^M-\\d{1,18}$/", "new RegExp(`^M-[0-9]+$`)"],
    ignored: ['example: "M-10042"', "if (parseOrderNumber(ref)) return ref;"],
  },
  {
    name: "the database client type",
    home: "lib/db/index.ts",
    copy: /TransactionClient\s*\|\s*(?:PrismaClient|ReturnType<typeof db>)|(?:PrismaClient|ReturnType<typeof db>)\s*\|\s*(?:Prisma\.)?TransactionClient/,
    caught: [
      "type Db = Prisma.TransactionClient | ReturnType<typeof db>;",
      "export type Db = Prisma.TransactionClient | PrismaClient;",
      "client: PrismaClient | Prisma.TransactionClient = db()",
    ],
    ignored: ["tx: Prisma.TransactionClient | undefined", "client: DbClient"],
  },
  {
    name: "the currency",
    home: "lib/currency.ts",
    copy: /(["'`])usd\1/i,
    caught: ['currency: "USD",', "z.literal('USD')", 'supported_currencies: ["usd"]'],
    ignored: ["currency: CURRENCY,", "// prices in USD cents", 'description: "Only USD."'],
  },
  {
    name: "the check of a redirect target",
    home: "lib/http/next-path.ts",
    copy: /\.(?:startsWith|includes)\((["'`])\/\/\1\)/,
    caught: ['if (next.startsWith("//")) return fallback;', "value.includes('//')"],
    ignored: ['return safeNextPath(value, fallback, (path) => path.startsWith(prefix));', 'url.startsWith("https://")'],
  },
];

function sourceFiles(entry: string): string[] {
  if (SKIPPED.includes(entry)) return [];
  const full = path.join(ROOT, entry);
  let children;
  try {
    children = readdirSync(full, { withFileTypes: true });
  } catch {
    return SOURCE.test(entry) && !TEST.test(entry) ? [entry] : [];
  }
  return children.flatMap((child) => sourceFiles(path.posix.join(entry, child.name)));
}

/** `file:line: text` of every line of `files` that copies `rule`, outside its home. */
function copiesOf(rule: Rule, files: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (file === rule.home) continue;
    text.split("\n").forEach((line, i) => {
      if (rule.copy.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

const files = new Map(WALKED.flatMap(sourceFiles).map((file) => [file, readFileSync(path.join(ROOT, file), "utf8")]));

describe("one definition per rule", () => {
  it("walks lib/, app/ and scripts/", () => {
    expect(files.size).toBeGreaterThan(300);
    expect([...files.keys()].some((f) => f.startsWith("lib/db/generated/"))).toBe(false);
  });

  describe.each(RULES)("$name", (rule) => {
    it(`lives in ${rule.home}`, () => {
      expect(files.has(rule.home), `${rule.home} is walked`).toBe(true);
      expect(rule.copy.test(files.get(rule.home)!), `${rule.home} holds ${rule.name}`).toBe(true);
    });

    it("has no copy anywhere else (import it instead)", () => {
      expect(copiesOf(rule, files)).toEqual([]);
    });

    it("catches a copy and leaves the rest alone", () => {
      const sample = (lines: string[]) => new Map([["lib/sample.ts", lines.join("\n")]]);
      expect(copiesOf(rule, sample(rule.caught))).toHaveLength(rule.caught.length);
      expect(copiesOf(rule, sample(rule.ignored))).toEqual([]);
    });
  });
});
