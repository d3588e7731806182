/**
 * npm run db:seed [-- --products N]     (default N = 2000)
 *
 * Replaces the catalog of DATABASE_URL with the deterministic seed (lib/seed/seed.ts).
 */
import { SingleBar } from "cli-progress";
import { closeDb, createDb } from "../lib/db";
import { seedEmbeddedWith } from "../lib/db/embedded";
import { DEFAULT_PRODUCTS, seedCatalog } from "../lib/seed/seed";

// Without DATABASE_URL, the embedded database's first start seeds it (then this seeds it again, with N).
seedEmbeddedWith(seedCatalog);

function parseArgs(argv: string[]): { products: number } {
  let products = DEFAULT_PRODUCTS;
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k]!;
    let value: string | undefined;
    if (arg === "--products") value = argv[++k];
    else if (arg.startsWith("--products=")) value = arg.slice("--products=".length);
    else throw new Error(`unknown argument ${arg} (usage: seed.ts [--products N])`);
    if (value === undefined || !/^\d+$/.test(value)) throw new Error("--products needs a non-negative integer");
    products = Number(value);
  }
  return { products };
}

async function main() {
  const { products: total } = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const showBar = total >= 10_000 || Boolean(process.stderr.isTTY);
  const bar = showBar
    ? new SingleBar({
        stream: process.stderr,
        format: "products |{bar}| {value}/{total} {percentage}% | {duration_formatted} elapsed, eta {eta_formatted}",
        hideCursor: true,
        etaBuffer: 20,
        // Redirected stderr (CI logs): one line every 5 s instead of nothing.
        noTTYOutput: true,
        notTTYSchedule: 5000,
      })
    : null;
  const db = createDb(undefined, { maintenance: true });
  try {
    const counts = await seedCatalog(db, {
      products: total,
      progress: bar ? { start: (n) => bar.start(n, 0), update: (n) => bar.update(n), stop: () => bar.stop() } : undefined,
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (!showBar) console.error(`seeded ${total} generated products in ${seconds}s`);
    console.log(
      Object.entries(counts)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ") + ` elapsed=${seconds}s`,
    );
  } finally {
    await closeDb(db);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
