/**
 * Text operations of the relevance benchmark (npm run bench:relevance): normalisation, the four
 * single-edit typos, made-up words and spelling variants. Pure and deterministic given an Rng.
 */
import type { Rng } from "@/lib/random";

/** NFKC, lower case, whitespace collapsed: how titles are compared to decide intent. */
export function normalise(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/** Words typos are made in: whitespace-separated tokens of at least 5 letters and nothing else. */
export function isEditableWord(word: string): boolean {
  return /^\p{L}{5,}$/u.test(word);
}

const LOWER = "abcdefghijklmnopqrstuvwxyz";

/** Two adjacent, different letters swapped ("Speaker" → "Speakre"); null when no pair differs. */
export function swapTypo(word: string, rng: Rng): string | null {
  const chars = [...word];
  const positions: number[] = [];
  for (let i = 0; i + 1 < chars.length; i++) {
    if (chars[i]!.toLowerCase() !== chars[i + 1]!.toLowerCase()) positions.push(i);
  }
  if (positions.length === 0) return null;
  const i = rng.pick(positions);
  [chars[i], chars[i + 1]] = [chars[i + 1]!, chars[i]!];
  return chars.join("");
}

/** One letter left out ("Speaker" → "Speaer"). */
export function deleteTypo(word: string, rng: Rng): string {
  const chars = [...word];
  chars.splice(rng.int(0, chars.length - 1), 1);
  return chars.join("");
}

/** One random lower-case letter added anywhere ("Speaker" → "Speawker"). */
export function insertTypo(word: string, rng: Rng): string {
  const chars = [...word];
  chars.splice(rng.int(0, chars.length), 0, rng.pick([...LOWER]));
  return chars.join("");
}

/** One letter replaced by a different lower-case letter ("Speaker" → "Spesker"). */
export function substituteTypo(word: string, rng: Rng): string {
  const chars = [...word];
  const i = rng.int(0, chars.length - 1);
  const original = chars[i]!.toLowerCase();
  chars[i] = rng.pick([...LOWER].filter((c) => c !== original));
  return chars.join("");
}

export const TYPOS = { swap: swapTypo, delete: deleteTypo, insert: insertTypo, substitute: substituteTypo } as const;
export type TypoKind = keyof typeof TYPOS;

/** Replaces word `index` (of the whitespace-separated words of `title`) by `word`. */
export function replaceWord(title: string, index: number, word: string): string {
  const words = title.trim().split(/\s+/);
  words[index] = word;
  return words.join(" ");
}

const ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "fl", "gr", "kr", "pl", "sk", "tr", "zh"];
const VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"];
const CODAS = ["", "", "b", "k", "l", "m", "n", "r", "t", "x", "rt", "lk"];

/** A pronounceable made-up word of 2-3 syllables ("zorblat", "kruvenix"). */
export function nonsenseWord(rng: Rng): string {
  let word = "";
  const syllables = rng.int(2, 3);
  for (let s = 0; s < syllables; s++) word += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS);
  return word;
}

const ACCENTED: Record<string, string[]> = {
  a: ["á", "à", "â", "ä"],
  e: ["é", "è", "ê", "ë"],
  i: ["í", "î", "ï"],
  o: ["ó", "ô", "ö"],
  u: ["ú", "û", "ü"],
  A: ["Á", "À", "Â", "Ä"],
  E: ["É", "È", "Ê", "Ë"],
  I: ["Í", "Î", "Ï"],
  O: ["Ó", "Ô", "Ö"],
  U: ["Ú", "Û", "Ü"],
};

/** Some vowels (about half, at least one when there is one) given a diacritic: "Wíreless Héadphones". */
export function addDiacritics(text: string, rng: Rng): string {
  const chars = [...text];
  const vowels = chars.flatMap((c, i) => (ACCENTED[c] ? [i] : []));
  if (vowels.length === 0) return text;
  const chosen = new Set(vowels.filter(() => rng.chance(0.5)));
  if (chosen.size === 0) chosen.add(rng.pick(vowels));
  return chars.map((c, i) => (chosen.has(i) ? rng.pick(ACCENTED[c]!) : c)).join("");
}

/** Printable ASCII as full-width forms (U+FF01..FF5E), spaces as U+3000: what NFKC folds back. */
export function toFullWidth(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (code === 0x20) return "\u3000";
      return code > 0x20 && code < 0x7f ? String.fromCodePoint(code + 0xfee0) : c;
    })
    .join("");
}
