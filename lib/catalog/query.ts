/**
 * How a search query is read, before any SQL: words in a comparable form, exclusions, and the
 * rules for typos and prefixes (decisions.md "Search forgives the way people and agents type").
 * Pure functions; lib/catalog/interpret.ts looks the words up in the catalog's dictionary.
 */

/** At most this many words of a query are searched; the rest count as dropped. */
export const MAX_QUERY_WORDS = 16;

/**
 * A text's comparable form: NFKC (full-width and compatibility forms fold), diacritics removed,
 * lower case, every run of characters other than letters and digits one space. The database's
 * `search_key()` computes the same for titles and dictionary words.
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKC")
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

export interface ParsedQuery {
  /** The words to search for, in order, in key form. */
  words: string[];
  /** Words written with a leading minus ("-refurbished"): products containing them are left out. */
  excluded: string[];
  /** Words past MAX_QUERY_WORDS, ignored. */
  overflow: string[];
}

/**
 * Splits a query into words. A minus starts an exclusion only when it begins a word ("-case");
 * a hyphen inside a word ("On-Ear") or standing alone ("Headphones - Sage Green") is a separator.
 * Quotes and other punctuation are separators too: no query syntax leaks into plain queries.
 */
export function parseQuery(q: string): ParsedQuery {
  const words: string[] = [];
  const excluded: string[] = [];
  for (const chunk of q.normalize("NFKC").split(/\s+/u)) {
    const exclude = /^-[\p{L}\p{N}]/u.test(chunk);
    for (const word of searchKey(chunk).split(" ")) {
      if (word === "") continue;
      (exclude ? excluded : words).push(word);
    }
  }
  return { words: words.slice(0, MAX_QUERY_WORDS), excluded: excluded.slice(0, MAX_QUERY_WORDS), overflow: words.slice(MAX_QUERY_WORDS) };
}

/** Words longer than this are no catalog word misspelt: they are not corrected (and Levenshtein stops at 255). */
export const MAX_CORRECTED_LENGTH = 40;

/** Edits a word may carry and still be corrected: none under 5 letters, one from 5, two from 9. */
export function allowedEdits(word: string): number {
  const length = [...word].length;
  if (length > MAX_CORRECTED_LENGTH) return 0;
  return length >= 9 ? 2 : length >= 5 ? 1 : 0;
}

/** The shortest typed part of a last word that is completed as a prefix. */
export const MIN_PREFIX_LENGTH = 2;

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * adjacent letters each count one edit (a swap is one typo, not two).
 */
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * The corrections of a misspelt word among dictionary candidates: those within the allowed
 * number of edits, keeping only the nearest (all of them when several are equally near).
 */
export function corrections(word: string, candidates: readonly string[], limit = 8): string[] {
  const allowed = allowedEdits(word);
  if (allowed === 0) return [];
  let best = Infinity;
  let found: string[] = [];
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const distance = editDistance(word, candidate);
    if (distance > allowed || distance > best) continue;
    if (distance < best) {
      best = distance;
      found = [];
    }
    found.push(candidate);
  }
  return found.sort().slice(0, limit);
}
