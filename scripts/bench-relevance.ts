/**
 * npm run bench:relevance [-- --per-class 300] [--seed 1] [--class exact,swap] [--json] [--check] [--misses N]
 *
 * Relevance of the catalog search (lib/catalog/relevance): queries of thirteen classes (exact
 * titles, typos, filler words, made-up words, prefixes, attribute values, the closest of
 * near-identical titles, brand + category, spelling variants) made from the searchable products, each knowing which products it means,
 * answered by searchProducts (as the API runs it) and by MiniSearch over the same products.
 * Prints per class the zero-result rate, hit@1/3/10 and MRR of both, as a Markdown table, or
 * the raw numbers with --json. --check exits 1 when a targeted class misses a target.
 * --class runs only the named classes. --misses N also prints (stderr) up to N queries per class that our search missed at 3.
 *
 * Reads the database of DATABASE_URL, or the embedded one (created and seeded on first use).
 */
import { parseArgs } from "node:util";
import { DEFAULT_PER_CLASS, DEFAULT_SEED, runRelevanceBenchmark } from "@/lib/catalog/relevance/benchmark";
import { QUERY_CLASSES, type QueryClass } from "@/lib/catalog/relevance/queries";
import { formatMarkdown, missedTargets } from "@/lib/catalog/relevance/report";
import { closeDb, db } from "@/lib/db";
import { seedEmbeddedWith } from "@/lib/db/embedded";
import { seedCatalog } from "@/lib/seed/seed";

// Without DATABASE_URL, the embedded database's first start seeds it.
seedEmbeddedWith(seedCatalog);

const { values: args } = parseArgs({
  options: {
    "per-class": { type: "string", default: String(DEFAULT_PER_CLASS) },
    seed: { type: "string", default: DEFAULT_SEED },
    class: { type: "string" },
    json: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    misses: { type: "string", default: "0" },
  },
});

function count(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`--${name} needs a non-negative integer`);
  return Number(value);
}

async function main() {
  const perClass = count("per-class", args["per-class"]);
  const misses = count("misses", args.misses);
  const names: readonly string[] = QUERY_CLASSES.map((c) => c.name);
  const classes = args.class?.split(",").map((name) => name.trim());
  const unknown = classes?.filter((name) => !names.includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown class ${unknown.join(", ")} (classes: ${names.join(", ")})`);
  const progress = process.stderr.isTTY
    ? (done: number, total: number) => {
        if (done % 50 === 0 || done === total) process.stderr.write(`\r${done}/${total} queries`);
        if (done === total) process.stderr.write("\n");
      }
    : undefined;
  const client = db();
  try {
    const { report, outcomes } = await runRelevanceBenchmark({
      perClass,
      seed: args.seed,
      classes: classes as QueryClass[] | undefined,
      onProgress: progress,
    });
    if (misses > 0) {
      for (const c of report.classes) {
        const missed = outcomes.filter((o) => o.class === c.class && !o.ours.hit3).slice(0, misses);
        for (const o of missed) process.stderr.write(`miss ${c.class}: ${JSON.stringify(o.q)}${o.ours.zero ? " (no result)" : ""}\n`);
      }
    }
    const missed = missedTargets(report);
    if (args.json) console.log(JSON.stringify({ ...report, missedTargets: missed }, null, 2));
    else console.log(formatMarkdown(report));
    if (args.check) {
      for (const line of missed) console.error(`target missed: ${line}`);
      if (missed.length > 0) process.exitCode = 1;
      else console.error("every target met");
    }
  } finally {
    await closeDb(client);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
