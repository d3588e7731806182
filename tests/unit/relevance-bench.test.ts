/**
 * The pure parts of the relevance benchmark (lib/catalog/relevance): query generation is
 * deterministic, each typo is exactly one edit of its kind, and the metrics on a hand-made case.
 */
import { describe, expect, it } from "vitest";
import { aggregate, scoreAnswer } from "@/lib/catalog/relevance/metrics";
import { generateQueries, QUERY_CLASSES, type BenchProduct } from "@/lib/catalog/relevance/queries";
import { missedTargets, type RelevanceReport } from "@/lib/catalog/relevance/report";
import {
  addDiacritics,
  deleteTypo,
  insertTypo,
  isEditableWord,
  normalise,
  substituteTypo,
  swapTypo,
  toFullWidth,
} from "@/lib/catalog/relevance/text";
import { Rng } from "@/lib/random";

/** Optimal string alignment (restricted Damerau-Levenshtein) distance. */
function osa(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[x.length]![y.length]!;
}

/** Positions where two strings of equal length differ. */
const differences = (a: string, b: string) => [...a].flatMap((c, i) => (c === [...b][i] ? [] : [i]));

const WORDS = ["Speaker", "Headphones", "Cancelling", "Skillet", "Coffee", "Puzzle", "Moisturizer", "Bluetooth", "Lavender", "Stainless", "aabbb", "Ërgonomic"];

describe("typos: exactly one edit of their kind, on words of 5 letters or more", () => {
  it("only whole words of at least 5 letters are edited", () => {
    expect(WORDS.every(isEditableWord)).toBe(true);
    for (const word of ["Pan", "Kids'", "10-inch", "Noise-Cancelling", "SPF30", "four"]) expect(isEditableWord(word)).toBe(false);
  });

  const cases = WORDS.flatMap((word) => Array.from({ length: 40 }, (_, k) => ({ word, rng: new Rng(`typo:${word}:${k}`) })));
  const lower = (s: string) => s.toLowerCase();

  it("swap: two adjacent, different letters change places", () => {
    for (const { word, rng } of cases) {
      const typo = swapTypo(word, rng)!;
      expect(osa(lower(word), lower(typo))).toBe(1);
      const diff = differences(lower(word), lower(typo));
      expect(diff).toHaveLength(2);
      expect(diff[1]).toBe(diff[0]! + 1);
    }
    expect(swapTypo("aaaaa", new Rng("x"))).toBeNull();
  });

  it("delete: one letter fewer", () => {
    for (const { word, rng } of cases) {
      const typo = deleteTypo(word, rng);
      expect(typo).toHaveLength(word.length - 1);
      expect(osa(lower(word), lower(typo))).toBe(1);
    }
  });

  it("insert: one lower-case letter more", () => {
    for (const { word, rng } of cases) {
      const typo = insertTypo(word, rng);
      expect(typo).toHaveLength(word.length + 1);
      expect(osa(lower(word), lower(typo))).toBe(1);
      // What is left once the original letters are matched in order is one letter a-z.
      const i = [...typo].findIndex((c, k) => c !== word[k]);
      expect(typo.slice(0, i) + typo.slice(i + 1)).toBe(word);
      expect(typo[i]).toMatch(/^[a-z]$/);
    }
  });

  it("substitute: one letter replaced by a different lower-case letter", () => {
    for (const { word, rng } of cases) {
      const typo = substituteTypo(word, rng);
      expect(typo).toHaveLength(word.length);
      expect(osa(lower(word), lower(typo))).toBe(1);
      const diff = differences(lower(word), lower(typo));
      expect(diff).toHaveLength(1);
      expect(typo[diff[0]!]).toMatch(/^[a-z]$/);
    }
  });
});

describe("variants", () => {
  it("full-width text folds back under NFKC; diacritics do not", () => {
    const title = "Kids' 100-Piece Floor Puzzle - Pink";
    expect(toFullWidth(title)).not.toBe(title);
    expect(normalise(toFullWidth(title))).toBe(normalise(title));
    const accented = addDiacritics(title, new Rng("d"));
    expect(accented).not.toBe(title);
    expect(accented.normalize("NFD").replace(/\p{M}/gu, "")).toBe(title);
  });
});

function product(id: string, title: string, extra: Partial<BenchProduct> = {}): BenchProduct {
  return {
    id,
    title,
    description: `${title}, described.`,
    brandId: "b1",
    brand: "Voltix",
    categoryId: "c1",
    categories: ["Electronics", "Audio", "Headphones"],
    attributes: { color: "Black", material: "Aluminum", weight_g: 250 },
    ...extra,
  };
}

const CATALOG: BenchProduct[] = [
  ...Array.from({ length: 60 }, (_, i) =>
    product(`p${String(i).padStart(3, "0")}`, `${["Wireless", "Studio", "Foldable", "Premium"][i % 4]} Headphones Model${i}`, {
      attributes: { color: ["Black", "Silver", "Midnight Blue"][i % 3]!, material: "Aluminum", wireless: true },
    }),
  ),
  product("d1", "Noise-Cancelling Earbuds"),
  product("d2", "Noise-Cancelling Earbuds", { attributes: { color: "White" } }),
  product("d3", "noise-cancelling  earbuds", { categoryId: "c2", categories: ["Electronics", "Audio", "Earbuds"] }),
  // Near-identical titles of several lengths (the closest classes).
  ...["Soy Wax Candle Jar", "Large Soy Wax Candle Jar", "Heritage Large Soy Wax Candle Jar", "Everyday Basics Soy Wax Candle Jar"].map((title, i) =>
    product(`c${i}`, title, { categoryId: "c3", categories: ["Home", "Candles"], attributes: { scent: "Vanilla" } }),
  ),
];

describe("query generation", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const a = generateQueries(CATALOG, { perClass: 15, seed: "7" });
    const b = generateQueries(structuredClone(CATALOG), { perClass: 15, seed: "7" });
    expect(b).toEqual(a);
    expect(generateQueries(CATALOG, { perClass: 15, seed: "8" })).not.toEqual(a);
  });

  it("makes every class, and the intent of each query follows its class's rule", () => {
    const queries = generateQueries(CATALOG, { perClass: 15, seed: "1" });
    const of = (name: string) => queries.filter((q) => q.class === name);
    for (const { name } of QUERY_CLASSES) expect(of(name).length, name).toBeGreaterThan(0);
    const titleOf = (id: string) => normalise(CATALOG.find((p) => p.id === id)!.title);
    for (const q of queries) {
      expect(q.intended).toContain(q.source);
      if (["exact", "swap", "delete", "insert", "substitute", "filler", "unknown"].includes(q.class)) {
        // Only products whose title no other product has.
        expect(q.intended).toEqual([q.source]);
        expect(q.source.startsWith("d")).toBe(false);
      }
      if (q.class === "exact") expect(q.q).toBe(CATALOG.find((p) => p.id === q.source)!.title);
      if (q.class === "prefix") for (const id of q.intended) expect(titleOf(id).startsWith(normalise(q.q))).toBe(true);
      if (q.class === "variant") expect(q.intended.map(titleOf).every((t) => t === titleOf(q.source))).toBe(true);
    }
    // A title less one word that longer titles hold too, no title among its runs of words: the
    // shortest titles holding every word are meant.
    // Here: three of the four words of "Soy Wax Candle Jar" (held by all four titles), meaning it.
    const jar = ["soy", "wax", "candle", "jar"];
    const closest = of("closest");
    expect(closest.map((q) => q.intended)).toEqual([["c0"]]);
    const words = normalise(closest[0]!.q).split(" ");
    expect(words).toHaveLength(3);
    expect(words.every((w) => jar.includes(w))).toBe(true);
    const typo = of("closest_typo");
    expect(typo.map((q) => q.intended)).toEqual([["c0"]]);
    const typed = normalise(typo[0]!.q).split(" ");
    expect(typed.filter((w) => !jar.includes(w))).toHaveLength(1);
    expect(typed.map((w) => Math.min(...jar.map((j) => osa(w, j)))).sort()).toEqual([0, 0, 1]);
    // Duplicate titles (after normalising) are one intent: all three earbuds, or those in one category.
    const variants = generateQueries(CATALOG, { perClass: 100, seed: "1", classes: ["variant"] });
    expect(variants).toHaveLength(65); // one per distinct title
    expect(variants.find((q) => q.source.startsWith("d"))!.intended.sort()).toEqual(["d1", "d2", "d3"]);
    const pairs = of("brand_category").map((q) => [q.q, q.intended.length]);
    expect(pairs).toContainEqual(["Voltix Headphones", 62]);
    expect(pairs).toContainEqual(["Voltix Earbuds", 1]);
  });

  it("made-up words appear nowhere in the catalog", () => {
    const text = normalise(CATALOG.map((p) => [p.title, p.description, p.brand, ...p.categories].join(" ")).join(" "));
    for (const q of generateQueries(CATALOG, { perClass: 60, seed: "1", classes: ["unknown"] })) {
      const title = normalise(CATALOG.find((p) => p.id === q.source)!.title);
      const word = normalise(q.q).replace(title, "").trim();
      expect(word).toMatch(/^[a-z]{4,}$/);
      expect(text.includes(word)).toBe(false);
    }
  });

  it("attribute queries add a value the title lacks, meant for the products sharing title and value", () => {
    for (const q of generateQueries(CATALOG, { perClass: 30, seed: "1", classes: ["attribute"] })) {
      const source = CATALOG.find((p) => p.id === q.source)!;
      const value = q.q.slice(source.title.length + 1);
      expect(Object.values(source.attributes)).toContain(value);
      expect(normalise(source.title).includes(normalise(value))).toBe(false);
    }
  });

  it("a product added to the catalog changes at most one query of a class", () => {
    const before = generateQueries(CATALOG, { perClass: 10, seed: "1", classes: ["swap"] }).map((q) => q.q);
    const after = generateQueries([...CATALOG, product("p999", "Lightweight Travel Headphones")], { perClass: 10, seed: "1", classes: ["swap"] }).map(
      (q) => q.q,
    );
    expect(after.filter((q) => !before.includes(q)).length).toBeLessThanOrEqual(1);
  });
});

describe("metrics", () => {
  // The first intended product at rank 1, 3, 5, 11 (beyond 10), and no results at all.
  const scores = [
    scoreAnswer(["a"], { ids: ["a", "x", "y"], zero: false }),
    scoreAnswer(["b", "c"], { ids: ["x", "y", "c", "b"], zero: false }),
    scoreAnswer(["d"], { ids: ["x", "y", "z", "w", "d", "v"], zero: false }),
    scoreAnswer(["e"], { ids: ["x", "y", "z", "w", "v", "u", "t", "s", "r", "q", "e"], zero: false }),
    scoreAnswer(["f"], { ids: [], zero: true }),
  ];

  it("hit@k and reciprocal rank per query", () => {
    expect(scores.map((s) => [s.hit1, s.hit3, s.hit10, s.rr])).toEqual([
      [true, true, true, 1],
      [false, true, true, 1 / 3],
      [false, false, true, 1 / 5],
      [false, false, false, 0], // 11th: beyond the first 10
      [false, false, false, 0],
    ]);
  });

  it("per class: means and zero-result rate", () => {
    const m = aggregate(scores);
    expect(m.queries).toBe(5);
    expect(m.zeroRate).toBeCloseTo(0.2);
    expect(m.hit1).toBeCloseTo(0.2);
    expect(m.hit3).toBeCloseTo(0.4);
    expect(m.hit10).toBeCloseTo(0.6);
    expect(m.mrr).toBeCloseTo((1 + 1 / 3 + 1 / 5) / 5);
    expect(aggregate([])).toEqual({ queries: 0, zeroRate: 0, hit1: 0, hit3: 0, hit10: 0, mrr: 0 });
  });

  it("targets: zero rate, hit@3 and the gap to MiniSearch, for targeted classes only", () => {
    const m = (zeroRate: number, hit3: number) => ({ queries: 100, zeroRate, hit1: hit3, hit3, hit10: hit3, mrr: hit3 });
    const report: RelevanceReport = {
      products: 10,
      seed: "1",
      perClass: 100,
      elapsedMs: 1,
      classes: [
        { class: "exact", targeted: true, ours: m(0.01, 0.95), minisearch: m(0, 0.97) },
        { class: "swap", targeted: true, ours: m(0.02, 0.96), minisearch: m(0, 0.99) },
        { class: "variant", targeted: false, ours: m(0.5, 0.1), minisearch: m(0, 1) },
        // No floor: 80 % is no miss, 2.5 points behind is.
        { class: "closest", targeted: true, ours: m(0, 0.8), minisearch: m(0, 0.81) },
        { class: "closest_typo", targeted: true, ours: m(0, 0.8), minisearch: m(0, 0.825) },
      ],
    };
    expect(missedTargets(report)).toEqual([
      "swap: zero-result rate 2.0 % > 1.0 %",
      "swap: hit@3 96.0 % is more than 2.0 points below MiniSearch's 99.0 %",
      "closest_typo: hit@3 80.0 % is more than 2.0 points below MiniSearch's 82.5 %",
    ]);
  });
});
