import { describe, expect, it } from "vitest";
import { editDistance, searchKey } from "../query";
import { longTailQueries } from "./long-tail";

const TITLES = [
  "Heritage Soy Wax Candle - Cream",
  "Everyday Basics Modern Soy Wax Candle",
  "Soy Wax Candle",
  "Wireless Over-Ear Headphones - Sage Green",
  "Cast Iron Skillet 12 in",
  "Trail Running Shoes",
];

describe("longTailQueries: the bench's cold queries", () => {
  const queries = longTailQueries(TITLES, { count: 200, seed: "test" });

  it("never asks the same query twice, in the form the search reads it", () => {
    const keys = queries.map(searchKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(queries.length).toBeGreaterThan(40);
  });

  it("is the same for the same titles and seed, and another for another seed", () => {
    expect(longTailQueries(TITLES, { count: 200, seed: "test" })).toEqual(queries);
    expect(longTailQueries(TITLES, { count: 200, seed: "other" })).not.toEqual(queries);
  });

  it("stops at count, and when the titles give no more", () => {
    expect(longTailQueries(TITLES, { count: 5, seed: "test" })).toHaveLength(5);
    // One word of 4 letters (no typo is made in it): itself and its 8 fillers at most.
    const lamp = longTailQueries(["Lamp"], { count: 50, seed: "test" });
    expect(lamp.length).toBeGreaterThan(1);
    expect(lamp.length).toBeLessThanOrEqual(9);
    expect(lamp.every((q) => /\bLamp\b/.test(q))).toBe(true);
    expect(longTailQueries([], { count: 5, seed: "test" })).toEqual([]);
  });

  it("makes each query of 1 to 3 consecutive title words, one of them maybe mistyped, maybe with filler", () => {
    const titleWords = TITLES.map((t) => searchKey(t).split(" "));
    const fillers = new Set(["cheap", "best", "for", "men", "women", "kids", "buy", "good", "new"]);
    let typos = 0;
    let filled = 0;
    for (const q of queries) {
      // Words as typed (whitespace apart: "Over-Ear" is one), then in key form.
      const typed = q.split(" ");
      const kept = typed.filter((w) => !fillers.has(w) || TITLES.some((t) => t.split(" ").includes(w)));
      if (kept.length < typed.length) filled++;
      const core = searchKey(kept.join(" ")).split(" ");
      // Some title holds the core as consecutive words, with at most one word one edit away.
      const found = titleWords.some((t) =>
        t.some((_, start) => {
          const run = t.slice(start, start + core.length);
          if (run.length !== core.length) return false;
          const off = run.filter((w, i) => w !== core[i]);
          return off.length === 0 || (off.length === 1 && run.some((w, i) => w !== core[i] && editDistance(w, core[i]!) <= 2));
        }),
      );
      if (!found) throw new Error(`not from a title: ${q}`);
      if (!titleWords.some((t) => t.join(" ").includes(core.join(" ")))) typos++;
      expect(kept.length).toBeGreaterThanOrEqual(1);
      expect(kept.length).toBeLessThanOrEqual(3);
    }
    expect(typos).toBeGreaterThan(5);
    expect(filled).toBeGreaterThan(5);
  });
});
