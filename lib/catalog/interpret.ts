import { type CatalogClient, Prisma } from "@/lib/db";
import { allowedEdits, corrections, MIN_PREFIX_LENGTH, parseQuery, type ParsedQuery } from "./query";
import { searchCache } from "./search-cache";

/** One word of a query as it will be matched. */
export interface WordGroup {
  /** The word as typed (key form). */
  word: string;
  /** The word itself occurs in the catalog (then it is never corrected). */
  known: boolean;
  /** Other words that also satisfy it: completions of a half-typed last word, or corrections. */
  alternatives: string[];
}

/** A query read against the catalog's dictionary: what `searchProducts` matches. */
export interface TextQuery {
  /** Words every full match contains (each one of its forms). Empty: nothing can match. */
  groups: WordGroup[];
  excluded: string[];
  /** Words that match nothing and have no correction (filler, unknown words): not required. */
  dropped: string[];
  /** The query as typed, in key form (compared with titles). */
  key: string;
  /** The query actually run when a word was corrected (each corrected word replaced), else null. */
  corrected: string | null;
  /** Every group must match: no relaxed fallback (a literal query, or one known to have full matches). */
  strict: boolean;
}

export interface WordRow {
  n: number;
  meaningful: boolean;
  known: boolean;
  completions: string[] | null;
  near: string[] | null;
}

const readingsCache = searchCache<WordRow[]>(5_000);

/**
 * Reads a query: each word is kept when the catalog contains it; a word it does not contain is
 * replaced by its nearest dictionary words within the allowed edits (one from 5 letters, two
 * from 9); the last word also matches the dictionary words it begins; stop words ("for", "with")
 * and words with no match and no correction are dropped. `literal` keeps every word as typed
 * (no correction, completion or dropping): the storefront's "search instead for".
 */
export async function interpretQuery(client: CatalogClient, q: string, options: { literal?: boolean } = {}): Promise<TextQuery> {
  const parsed = parseQuery(q);
  if (parsed.words.length === 0) return readQuery(parsed, [], options);
  // How the catalog's dictionaries read these words: the same until product_search changes.
  const read = () => client.$queryRaw<WordRow[]>(interpretStatement(parsed.words, options));
  const rows = (await readingsCache()?.fetch(JSON.stringify([parsed.words, options.literal ?? false]), read)) ?? (await read());
  return readQuery(parsed, rows, options);
}

/** A parsed query read with the rows of its interpretStatement (exported for tests on their own database). */
export function readQuery(parsed: ParsedQuery, rows: WordRow[], options: { literal?: boolean } = {}): TextQuery {
  const key = [...parsed.words, ...parsed.overflow].join(" ");
  const strict = options.literal ?? false;
  if (parsed.words.length === 0) return { groups: [], excluded: parsed.excluded, dropped: parsed.overflow, key, corrected: null, strict };

  const groups: WordGroup[] = [];
  const dropped: string[] = [];
  const run: string[] = [];
  let correctedAny = false;
  rows.forEach((row, i) => {
    const word = parsed.words[i]!;
    const completions = (row.completions ?? []).filter((term) => term !== word);
    if (options.literal) {
      if (row.meaningful) groups.push({ word, known: row.known, alternatives: [] });
      run.push(word);
      return;
    }
    if (row.known || (row.meaningful && completions.length > 0)) {
      groups.push({ word, known: row.known, alternatives: completions });
      run.push(word);
      return;
    }
    const fixes = row.meaningful ? corrections(word, row.near ?? []) : [];
    if (fixes.length > 0) {
      groups.push({ word, known: false, alternatives: fixes });
      run.push(fixes[0]!);
      correctedAny = true;
      return;
    }
    // A stop word never had to match; a meaningful word that matches nothing is dropped.
    if (row.meaningful) dropped.push(word);
    run.push(word);
  });
  return {
    groups,
    excluded: parsed.excluded,
    dropped: [...dropped, ...parsed.overflow],
    key,
    corrected: correctedAny ? [...run, ...parsed.overflow].join(" ") : null,
    strict,
  };
}

/** The one statement interpretQuery runs for a query's words (exported so the benchmark can time it). */
export function interpretStatement(words: string[], options: { literal?: boolean } = {}): Prisma.Sql {
  const last = options.literal ? 0 : words.length;
  const edits = words.map((word) => (options.literal ? 0 : allowedEdits(word)));
  // One statement for every word: is it a stop word, does the catalog contain it (each of its
  // lexemes is in search_lexemes), what does it begin (last word only), and which dictionary
  // words lie within its edits (unknown words only; Levenshtein counts a swap as two, so 2k
  // bounds the swap-aware distance checked afterwards).
  return Prisma.sql`
    SELECT w.n::int AS n, m.meaningful, k.known,
           CASE WHEN w.n = ${last} AND length(w.word) >= ${MIN_PREFIX_LENGTH} THEN ARRAY(
             SELECT t.term FROM search_terms t
             WHERE t.term COLLATE "C" > w.word COLLATE "C" AND t.term COLLATE "C" < (w.word || chr(1114111)) COLLATE "C"
             ORDER BY length(t.term), t.term COLLATE "C" LIMIT 20) END AS completions,
           CASE WHEN m.meaningful AND NOT k.known AND w.k > 0 THEN ARRAY(
             SELECT t.term FROM search_terms t
             WHERE length(t.term) BETWEEN length(w.word) - w.k AND length(w.word) + w.k
               AND levenshtein_less_equal(t.term, w.word, 2 * w.k) <= 2 * w.k
             ORDER BY levenshtein(t.term, w.word), t.term COLLATE "C" LIMIT 40) END AS near
    FROM unnest(${words}::text[], ${edits}::int[]) WITH ORDINALITY AS w(word, k, n)
    CROSS JOIN LATERAL (SELECT plainto_tsquery('catalog', w.word) AS query) tq
    CROSS JOIN LATERAL (SELECT numnode(tq.query) > 0 AS meaningful) m
    CROSS JOIN LATERAL (
      SELECT m.meaningful AND NOT EXISTS (
        SELECT 1 FROM unnest(tsvector_to_array(to_tsvector('catalog', w.word))) AS x(lexeme)
        WHERE NOT EXISTS (SELECT 1 FROM search_lexemes l WHERE l.lexeme = x.lexeme)) AS known
    ) k
    ORDER BY w.n`;
}
