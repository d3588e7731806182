/** The relevance benchmark's report: its shape, the targets it is checked against and its Markdown table. */
import type { ClassMetrics } from "./metrics";
import { QUERY_CLASSES, type QueryClass } from "./queries";

export interface ClassReport {
  class: QueryClass;
  targeted: boolean;
  /** Our search (lib/catalog/search.ts searchProducts). */
  ours: ClassMetrics;
  /** MiniSearch over the same products, the reference. */
  minisearch: ClassMetrics;
}

export interface RelevanceReport {
  /** Searchable products (product_search). */
  products: number;
  seed: string;
  perClass: number;
  elapsedMs: number;
  classes: ClassReport[];
}

/** What every targeted class must reach (`npm run bench:relevance -- --check`). */
export const TARGETS = {
  /** At most this share of queries without any result. */
  zeroRateMax: 0.01,
  /** At least this share of queries with an intended product in the first 3. */
  hit3Min: 0.95,
  /** hit@3 at most this far below MiniSearch's (2 points). */
  behindMiniSearchMax: 0.02,
} as const;

const pct = (x: number) => `${(x * 100).toFixed(1)}`;

/** Whether hit@3's floor applies to a targeted class (queries.ts QUERY_CLASSES `floor`). */
export const hasFloor = (name: QueryClass) => !QUERY_CLASSES.some((c) => c.name === name && "floor" in c && c.floor === false);

/** The targets a report misses, one line each (empty: all met). */
export function missedTargets(report: RelevanceReport): string[] {
  const missed: string[] = [];
  // Compared on the printed precision, so a table that reads 95.0 never fails for rounding.
  const round = (x: number) => Math.round(x * 1000) / 1000;
  for (const c of report.classes) {
    if (!c.targeted || c.ours.queries === 0) continue;
    if (round(c.ours.zeroRate) > TARGETS.zeroRateMax) {
      missed.push(`${c.class}: zero-result rate ${pct(c.ours.zeroRate)} % > ${pct(TARGETS.zeroRateMax)} %`);
    }
    if (hasFloor(c.class) && round(c.ours.hit3) < TARGETS.hit3Min) {
      missed.push(`${c.class}: hit@3 ${pct(c.ours.hit3)} % < ${pct(TARGETS.hit3Min)} %`);
    }
    if (round(c.minisearch.hit3 - c.ours.hit3) > TARGETS.behindMiniSearchMax) {
      missed.push(
        `${c.class}: hit@3 ${pct(c.ours.hit3)} % is more than ${pct(TARGETS.behindMiniSearchMax)} points below MiniSearch's ${pct(c.minisearch.hit3)} %`,
      );
    }
  }
  return missed;
}

/** The report as a Markdown table (rates in %), with a line on the catalog, seed and time. */
export function formatMarkdown(report: RelevanceReport): string {
  const lines = [
    "| class | queries | zero ours | hit@1 | hit@3 | hit@10 | MRR | MiniSearch zero | hit@3 | MRR | Δhit@3 |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const c of report.classes) {
    const { ours, minisearch: peer } = c;
    const delta = Number(((ours.hit3 - peer.hit3) * 100).toFixed(1));
    lines.push(
      `| ${c.class}${c.targeted ? " *" : ""} | ${ours.queries} | ${pct(ours.zeroRate)} | ${pct(ours.hit1)} | ${pct(ours.hit3)} | ` +
        `${pct(ours.hit10)} | ${ours.mrr.toFixed(3)} | ${pct(peer.zeroRate)} | ${pct(peer.hit3)} | ${peer.mrr.toFixed(3)} | ` +
        `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta).toFixed(1)} |`,
    );
  }
  lines.push(
    "",
    `Rates in %. * targeted: zero ≤ ${pct(TARGETS.zeroRateMax)} %, hit@3 ≥ ${pct(TARGETS.hit3Min)} % (not for ` +
      `${QUERY_CLASSES.filter((c) => !hasFloor(c.name)).map((c) => c.name).join(", ")}), ` +
      `hit@3 at most ${pct(TARGETS.behindMiniSearchMax)} points below MiniSearch's.`,
    `${report.products} searchable products, seed ${report.seed}, ${report.perClass} queries per class, ` +
      `${(report.elapsedMs / 1000).toFixed(1)} s.`,
  );
  return lines.join("\n");
}
