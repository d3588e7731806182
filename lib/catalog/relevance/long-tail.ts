/**
 * The long tail of search queries for the benchmark's cold scenarios (scripts/bench.ts): what
 * shoppers and agents type, each query asked once. Drawn from the catalog's own titles: a run of
 * 1 to 3 consecutive words, as typed, with a typo in one word, or with filler words around it.
 * Pure and deterministic for the titles and the seed (lib/random.ts).
 */
import { Rng } from "@/lib/random";
import { searchKey } from "../query";
import { isEditableWord, TYPOS, type TypoKind } from "./text";

/** How a long-tail query was made from its title's words. */
export const LONG_TAIL_KINDS = ["words", "typo", "filler"] as const;
export type LongTailKind = (typeof LONG_TAIL_KINDS)[number];

/** Words people type around what they want (`{t}`: the words taken from a title). */
const FILLERS = ["cheap {t}", "best {t}", "{t} for men", "{t} for women", "{t} for kids", "buy {t}", "good {t}", "new {t}"];

/** The words of a title as a query could take them: letters and digits, no lone punctuation. */
const wordsOf = (title: string) => title.trim().split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));

/**
 * Up to `count` queries, no two alike (compared in key form, as the search reads them: "Soy
 * Candle" and "soy candle" are one query), the kinds in turn (words, typo, filler). Titles are
 * taken in a seeded order, several times over with other runs of words, until `count` are found
 * or the titles give no more.
 */
export function longTailQueries(titles: readonly string[], { count, seed }: { count: number; seed: string }): string[] {
  const rng = new Rng(`long-tail:${seed}`);
  const order = rng.sample([...titles.keys()], titles.length);
  const seen = new Set<string>();
  const out: string[] = [];
  const typoKinds = Object.keys(TYPOS) as TypoKind[];
  // Each round offers every title once; a round that adds nothing ends the search.
  for (let round = 0; out.length < count; round++) {
    const before = out.length;
    for (const index of order) {
      if (out.length >= count) break;
      const words = wordsOf(titles[index]!);
      if (words.length === 0) continue;
      const kind = LONG_TAIL_KINDS[(out.length + round) % LONG_TAIL_KINDS.length]!;
      const length = Math.min(words.length, rng.int(1, 3));
      const start = rng.int(0, words.length - length);
      const run = words.slice(start, start + length);
      let q: string | null = run.join(" ");
      if (kind === "typo") {
        const editable = run.flatMap((w, i) => (isEditableWord(w) ? [i] : []));
        if (editable.length === 0) q = null;
        else {
          const i = rng.pick(editable);
          const edited = TYPOS[rng.pick(typoKinds)](run[i]!, rng);
          q = edited === null ? null : run.map((w, j) => (j === i ? edited : w)).join(" ");
        }
      } else if (kind === "filler") {
        q = rng.pick(FILLERS).replace("{t}", q);
      }
      if (q === null) continue;
      const key = searchKey(q);
      if (key === "" || seen.has(key)) continue;
      seen.add(key);
      out.push(q);
    }
    if (out.length === before) break;
  }
  return out;
}
