/**
 * The matching rules of decisions.md "Search forgives the way people and agents type", as pure
 * functions: words in key form, exclusions, edit distance and the correction thresholds.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allowedEdits, corrections, editDistance, MAX_QUERY_WORDS, parseQuery, searchKey } from "./query";

describe("searchKey: NFKC, diacritics, case and punctuation fold", () => {
  it.each([
    ["ＨＥＡＤＰＨＯＮＥＳ", "headphones"],
    ["Crème Brûlée", "creme brulee"],
    ["Men's  On-Ear   Headphones - Sage Green", "men s on ear headphones sage green"],
    ["  ﬁne\u00A0print ", "fine print"],
    ["Ｎｏ．１　Ｃａｍｅｒａ", "no 1 camera"],
    ["", ""],
  ])("%j -> %j", (input, key) => expect(searchKey(input)).toBe(key));

  it("is idempotent and never leaves a letter or digit out", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 40 }), (text) => {
        const key = searchKey(text);
        expect(searchKey(key)).toBe(key);
        expect(key).toBe(key.trim());
        expect(key).not.toMatch(/\s{2}|[A-Z]/u);
      }),
      { seed: 16, numRuns: 300 },
    );
  });
});

describe("parseQuery: words, exclusions, no query syntax", () => {
  it("a hyphen inside a word or standing alone separates words", () => {
    expect(parseQuery("Essential On-Ear Bluetooth Headphones - Sage Green")).toEqual({
      words: ["essential", "on", "ear", "bluetooth", "headphones", "sage", "green"],
      excluded: [],
      overflow: [],
    });
  });

  it("a leading minus excludes the word; quotes and `or` are plain words and punctuation", () => {
    expect(parseQuery('"noise cancelling" or -earbuds -')).toEqual({
      words: ["noise", "cancelling", "or"],
      excluded: ["earbuds"],
      overflow: [],
    });
  });

  it("tsquery and SQL syntax are only punctuation", () => {
    expect(parseQuery("a & b | !c <-> d:* ');DROP TABLE products;--").words).toEqual(["a", "b", "c", "d", "drop", "table", "products"]);
  });

  it(`keeps at most ${MAX_QUERY_WORDS} words; the rest overflow`, () => {
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    const parsed = parseQuery(words.join(" "));
    expect(parsed.words).toEqual(words.slice(0, MAX_QUERY_WORDS));
    expect(parsed.overflow).toEqual(words.slice(MAX_QUERY_WORDS));
  });
});

describe("editDistance: one edit per insertion, deletion, substitution or adjacent swap", () => {
  it.each([
    ["cobalt", "coablt", 1],
    ["blouse", "blosue", 1],
    ["headphones", "hedphones", 1],
    ["headphones", "headphonnes", 1],
    ["headphones", "heedphones", 1],
    ["modern", "modren", 1],
    ["headphones", "haedphnoes", 2],
    ["abc", "abc", 0],
    ["", "abc", 3],
    ["kitten", "sitting", 3],
  ])("%s / %s = %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });

  it("is a distance: zero only for equal words, symmetric, at most the longer length", () => {
    const word = fc.string({ unit: fc.constantFrom(..."abcde"), maxLength: 8 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        const d = editDistance(a, b);
        expect(d === 0).toBe(a === b);
        expect(editDistance(b, a)).toBe(d);
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
      { seed: 16, numRuns: 500 },
    );
  });
});

describe("allowedEdits: none under 5 letters, one from 5, two from 9", () => {
  it.each([
    ["silk", 0],
    ["linen", 1],
    ["bluetooth", 2],
    ["headphone", 2],
    ["cancellin", 2],
    ["straps", 1],
    ["éééé", 0],
    ["ééééé", 1],
    ["a".repeat(40), 2],
    ["a".repeat(41), 0],
  ])("%s: %i", (word, n) => expect(allowedEdits(word)).toBe(n));
});

describe("corrections: the nearest dictionary words within the allowed edits", () => {
  const dictionary = ["blouse", "blousy", "house", "cobalt", "headphones", "headphone", "headband", "silk", "milk"];

  it("finds the one-edit neighbour of a 5+ letter word", () => {
    expect(corrections("blosue", dictionary)).toEqual(["blouse"]);
    expect(corrections("coablt", dictionary)).toEqual(["cobalt"]);
  });

  it("keeps only the nearest ones (all of them when equally near)", () => {
    expect(corrections("hedphones", dictionary)).toEqual(["headphones"]);
    expect(corrections("blouss", dictionary)).toEqual(["blouse", "blousy"]);
  });

  it("two edits only from 9 letters", () => {
    expect(corrections("haedphnoes", dictionary)).toEqual(["headphones"]);
    expect(corrections("haedband", dictionary)).toEqual(["headband"]);
    expect(corrections("hadbnad", dictionary)).toEqual([]);
  });

  it("no correction under 5 letters, nor the word itself", () => {
    expect(corrections("silc", dictionary)).toEqual([]);
    expect(corrections("cobalt", dictionary)).toEqual([]);
  });
});
