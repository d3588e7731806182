import { Prisma } from "@/lib/db";
import { MAX_RELAXED_GROUPS, relaxedClasses, type TextMatch } from "./facet-counts";
import type { TextQuery, WordGroup } from "./interpret";

const sql = Prisma.sql;

/** A word as a tsquery of the catalog configuration (plain text in, never query syntax). */
const plain = (word: string) => sql`plainto_tsquery('catalog', ${word})`;
const anyOf = (parts: Prisma.Sql[]) => sql`(${Prisma.join(parts, " || ")})`;
const allOf = (parts: Prisma.Sql[]) => sql`(${Prisma.join(parts, " && ")})`;

/** A word group's tsquery: the word itself or any of its alternatives. */
function groupQuery(group: WordGroup): Prisma.Sql {
  return anyOf([plain(group.word), ...group.alternatives.map(plain)]);
}

/**
 * Field weights of ts_rank, {D, C, B, A}: description and attributes, category names, brand, title
 * (relaxed matches rank by it).
 */
const WEIGHTS = sql`'{0.1, 0.2, 0.4, 1.0}'::float4[]`;

/**
 * A word's field score in a product: the sum of the weights of the fields it occurs in, title 10,
 * brand 4, category names 2, description and attributes 1 (setweight's A, B, C, D; the function
 * search_field_score, migration 20261130000000_search_field_scores, gives it from a tsvector).
 * Each field is a test with the word's tsquery restricted to that weight (to_tsquery's `'word':A`:
 * of a word of one lexeme, 'lexeme':A), a constant PostgreSQL folds when planning.
 */
const FIELDS: [string, number][] = [["A", 10], ["B", 4], ["C", 2], ["D", 1]];
function fieldScore(word: string): Prisma.Sql {
  const quoted = `'${word.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
  const tests = FIELDS.map(([w, points]) => sql`${points} * (ps.search_vector @@ to_tsquery('catalog', ${`${quoted}:${w}`}))::int`);
  return sql`CASE WHEN ps.search_vector @@ ${plain(word)} THEN ${Prisma.join(tests, " + ")} ELSE 0 END`;
}

/** Rows a page needs (offset + page size) and the filters on `ps` that every row of it passes. */
export interface PageBound {
  limit: number;
  filter: Prisma.Sql;
  /** Up to this many titles beginning with the query are all ranked (default FEW_PREFIXED; tests vary it). */
  fewPrefixed?: number;
  /** Rows read from the head of each list of a query of several words (default LIST_DEPTH; tests vary it). */
  listDepth?: number;
  /**
   * Set when `filter` keeps every match (no brand or offer filter): the page of a relaxed match
   * may be bounded from the lexeme bitmaps of this scope (a category path, or null for the whole
   * catalog; see withRelaxed).
   */
  relaxedScope?: string | null;
}

/** Deeper pages rank every match, as the counts do (a bounded page would read as many rows). */
const MAX_BOUNDED_PAGE = 1_000;

/** The highest field score of a word outside the title: brand, categories and description. */
const NO_TITLE_BOUND = 7;

/**
 * Up to this many titles beginning with the query are all ranked (at 1,000,000 products, 330
 * titles begin with "laptop": 6 ms); more are read in rank order from the postings.
 */
export const FEW_PREFIXED = 500;

/**
 * A typed word that has completions outranks them: its field score in a product gains this (in
 * the title it beats a completion in every field; elsewhere not a completion in the title).
 */
const TYPED_BONUS = 8;

/** Outside a full match's ranking (a relaxed match's), a word as typed that has completions gains this. */
const TYPED_POINTS = 0.5;

/**
 * A product's title score (2 for each of: its title equals the query, begins with it, lies
 * within it) counts this much per point and word group: one step (2) outweighs any group's
 * field score and bonus (at most 17 + 8).
 */
const TITLE_POINTS = 20;

/**
 * The closest title first: a text match's score loses its title's word count over WORD_SCALE
 * (product_search.title_words, migration 20261209000000_search_title_length), a length
 * normalisation in the spirit of BM25's. Among matches whose field scores are equal, a title with
 * fewer words beyond the query's ranks higher; no count of words outweighs one point of field
 * score (titles have at most 200 characters, so 100 words; counted up to WORD_SCALE - 1). A power
 * of two: a score's whole part is exactly `score + lengthOf(alias)` again (boundedPage needs it).
 */
const WORD_SCALE = 1024;
const lengthOf = (alias: Prisma.Sql) => sql`(least(${alias}.title_words, ${WORD_SCALE - 1})::float8 / ${WORD_SCALE})`;

/** The order of a word's postings list: the ranking's among titles holding the word (index search_title_postings_rank). */
const LIST_ORDER = Prisma.raw("p.impact DESC, p.title_words, p.rating_count DESC, p.product_id");

/**
 * Rows read from the head of each form's postings list when the query has several word groups
 * (a list whose word seldom stands beside the others is not walked to its end; see boundedPage).
 */
const LIST_DEPTH = 400;

/** Passing rows read from each list, per row of the page, when the query has several word groups. */
const LIST_FACTOR = 2;

/**
 * How a full match ranks: TITLE_POINTS x the number of word groups x its title score, plus per
 * word group the group's best form in the product (the word, or one completion or correction):
 * that form's field score, plus TYPED_BONUS for the word as typed when it has completions. All
 * integers: sums are exact (boundedPage relies on it). search_title_postings keeps the field
 * score of every title word. The score ranked by is that whole number less lengthOf (under 1).
 */
function fullMatchRank(groups: WordGroup[]) {
  const forms = groups.flatMap((group, g) =>
    [group.word, ...group.alternatives].map((word, i) => ({
      group: g,
      word,
      bonus: i === 0 && group.known && group.alternatives.length > 0 ? TYPED_BONUS : 0,
    })),
  );
  const formRank = (f: (typeof forms)[number]) =>
    f.bonus
      ? sql`${fieldScore(f.word)} + CASE WHEN ps.search_vector @@ ${plain(f.word)} THEN ${f.bonus} ELSE 0 END`
      : fieldScore(f.word);
  const perGroup = groups.map((_, g) => sql`greatest(${Prisma.join(forms.filter((f) => f.group === g).map(formRank))})`);
  return { groups: groups.length, forms, rank: sql`(${Prisma.join(perGroup, " + ")})` };
}

/**
 * The words of a text and every run of consecutive words in it (a title equal to one ranks first).
 */
function phrases(key: string): string[] {
  const words = key.split(" ").filter(Boolean);
  const runs = new Set<string>();
  for (let i = 0; i < words.length; i++) for (let j = i + 1; j <= words.length; j++) runs.add(words.slice(i, j).join(" "));
  return [...runs];
}

/**
 * A page of full matches without ranking every product that matches.
 *
 * A product's whole score (fullMatchRank) is TITLE_POINTS x G x its title score (0; 2 or more when
 * its title equals the query, begins with it or lies within it) plus, per word group g of the G,
 * the largest over g's forms f of f's field score r_f plus f's bonus b_f when f is present. It
 * ranks by that whole score, then by fewer title words (the score ranked by is the whole score
 * less title_words / WORD_SCALE), then rating count, then id: below, "the order" is
 * (title words ascending, rating count descending, id).
 * search_title_postings lists the products with a form in their title in the order of that
 * form's field score (impact, 10 to 17), then the order: the sort's own tie-breaks.
 * The pool the page is picked from holds:
 * - for each form, the first `limit` rows of its list that pass every filter (the other groups
 *   and excluded words included; LIST_FACTOR x `limit` when G > 1), among the first LIST_DEPTH
 *   rows when G > 1 (else all of them);
 * - the titles equal to the query or to a run of its words (title_key index);
 * - the titles beginning with the query: all of them when there are at most FEW_PREFIXED, else,
 *   per form, the rows as above among the titles beginning with the query.
 * Each form's list leaves an edge: its last passing row read when it read as many as it takes,
 * else the first row past the depth it read to, else nothing (the list ran out). A passing
 * product the pool lacks:
 * - with f in its title, is f's edge or lies behind it in the list's order: r_f <= its impact;
 * - without f in its title has r_f <= 7 (brand, categories, description), below any edge;
 * - has the title score 0, or 2 when it begins with the query and those were too many to read.
 * So its whole score is at most U = TITLE_POINTS x G x that title score + the sum over groups of
 * the largest c_f + b_f over the group's forms, c_f = the edge's impact, or 7 without an edge.
 * Ranked exactly, the pool gives the true page when its `limit`-th row k has whole score S > U, or
 * S = U and some group g is settled by order: every form f of g reaching g's largest c_f + b_f has
 * an edge that is not ahead of k in the order. Then a product the pool lacks with whole score U
 * has, in g, r_f = the edge's impact for such an f (the sums are of integers, exact), so f is in
 * its title and it is f's edge or behind it in the order with an equal impact, hence behind k in
 * the order, and so in the ranking (it is not k, which is in the pool). U is taken for the titles that begin with the query from their own
 * lists when those were many (title score 2).
 * Otherwise (a form of several lexemes or none, fewer rows than `limit`, no bound met) the
 * statement ranks every match as before: the same page, only slower.
 */
function boundedPage(args: {
  tq: TextQuery;
  rank: ReturnType<typeof fullMatchRank>;
  score: Prisma.Sql;
  every: Prisma.Sql;
  exclusions: boolean;
  columns: (alias: string) => Prisma.Sql;
  inScope: Prisma.Sql;
  page: PageBound;
  dropped: Prisma.Sql;
  full: Prisma.Sql;
}): Prisma.Sql {
  const { tq, rank, score, every, columns, inScope, page, dropped, full } = args;
  const limit = page.limit;
  // Several groups: each list's head holds products strong in its word only, so more rows are
  // read than the page needs (two lists' first `limit` rows may overlap in their best products).
  const take = rank.groups > 1 ? LIST_FACTOR * limit : limit;
  const depth = rank.groups > 1 ? (page.listDepth ?? LIST_DEPTH) : null;
  const fewPrefixed = page.fewPrefixed ?? FEW_PREFIXED;
  const keys = [...new Set([tq.key, tq.corrected ?? tq.key])];
  const runs = [...new Set(keys.flatMap(phrases))];
  // A row of a list has its own word; the other groups and excluded words are tested on the rows
  // read (only then: it reads each row's document).
  const matches = rank.groups > 1 || args.exclusions ? sql`AND ps.search_vector @@ ${every}` : Prisma.empty;
  // The product_search row of p.product_id when it passes the filters and `test`, read by primary
  // key (OFFSET 0 keeps it a per-row probe: the planner, taking a query of several words for
  // selective, would scan every match of the query and hash them, 20 ms where probes take 1).
  const byKey = (select: Prisma.Sql, test: Prisma.Sql) => sql`
    ${select} FROM product_search ps
    WHERE ps.product_id = p.product_id AND ${inScope} AND ${page.filter} ${test}
    OFFSET 0`;
  // A title that begins with the query (title_key index, C collation: a range).
  const beginsWith = (alias: Prisma.Sql) =>
    sql`(${alias}.title_key COLLATE "C" >= ${tq.key} AND ${alias}.title_key COLLATE "C" < ${`${tq.key}\u{10FFFF}`})`;
  return sql`(
    WITH forms AS MATERIALIZED (
      SELECT f.grp, f.bonus, tsvector_to_array(to_tsvector('catalog', f.word)) AS lexemes
      FROM unnest(${rank.forms.map((f) => f.group)}::int[], ${rank.forms.map((f) => f.word)}::text[],
                  ${rank.forms.map((f) => f.bonus)}::int[]) AS f(grp, word, bonus)
    ),
    lexemes AS (
      SELECT f.grp, f.lexemes[1] AS lexeme, max(f.bonus) AS bonus FROM forms f WHERE cardinality(f.lexemes) = 1 GROUP BY 1, 2
    ),
    prefixed AS MATERIALIZED (
      SELECT t.product_id FROM product_search t WHERE ${beginsWith(sql`t`)} LIMIT ${fewPrefixed + 1}
    ),
    few_prefixed AS MATERIALIZED (SELECT count(*) <= ${fewPrefixed} AS yes FROM prefixed),
    parts AS (
      SELECT b.prefixed FROM (VALUES (false), (true)) AS b(prefixed) WHERE NOT b.prefixed OR NOT (SELECT yes FROM few_prefixed)
    ),
    lists AS MATERIALIZED (
      SELECT x.grp, x.lexeme, x.bonus, b.prefixed, w.product_id, w.impact, w.title_words, w.rating_count
      FROM lexemes x CROSS JOIN parts b
      LEFT JOIN LATERAL (
        SELECT p.product_id, p.impact::int AS impact, p.title_words, p.rating_count
        FROM (SELECT p.product_id, p.impact, p.title_words, p.rating_count FROM search_title_postings p
              WHERE p.lexeme = x.lexeme ORDER BY ${LIST_ORDER} LIMIT ${depth}) p
        CROSS JOIN LATERAL (${byKey(sql`SELECT 1`, sql`${matches} AND (NOT b.prefixed OR ${beginsWith(sql`ps`)})`)}) passes
        ORDER BY ${LIST_ORDER}
        LIMIT ${take}
      ) w ON true
    ),
    edges AS MATERIALIZED (
      SELECT l.grp, l.prefixed, l.bonus + coalesce(e.impact, ${NO_TITLE_BOUND}) AS bound, e.impact, e.title_words, e.rating_count, e.product_id
      FROM (SELECT grp, lexeme, bonus, prefixed, count(product_id) AS n FROM lists GROUP BY 1, 2, 3, 4) l
      LEFT JOIN LATERAL (
        (SELECT k.impact, k.title_words, k.rating_count, k.product_id FROM lists k
         WHERE l.n = ${take} AND k.grp = l.grp AND k.lexeme = l.lexeme AND k.prefixed = l.prefixed
         ORDER BY k.impact, k.title_words DESC, k.rating_count, k.product_id DESC LIMIT 1)
        UNION ALL
        (SELECT p.impact::int, p.title_words, p.rating_count, p.product_id FROM search_title_postings p
         WHERE l.n < ${take} AND ${depth}::int IS NOT NULL AND p.lexeme = l.lexeme
         ORDER BY ${LIST_ORDER} OFFSET ${depth ?? 0} LIMIT 1)
      ) e ON true
    ),
    group_bounds AS (SELECT e.prefixed, e.grp, max(e.bound) AS bound FROM edges e GROUP BY 1, 2),
    part_bounds AS (
      SELECT g.prefixed, sum(g.bound) + CASE WHEN g.prefixed THEN ${2 * TITLE_POINTS * rank.groups} ELSE 0 END AS bound
      FROM group_bounds g GROUP BY 1
    ),
    pool AS MATERIALIZED (
      SELECT ps.*
      FROM (SELECT l.product_id FROM lists l WHERE l.product_id IS NOT NULL
            UNION
            SELECT t.product_id FROM product_search t WHERE t.title_key COLLATE "C" = ANY(${runs}::text[])
            UNION
            SELECT p.product_id FROM prefixed p WHERE (SELECT yes FROM few_prefixed)) p
      CROSS JOIN LATERAL (
        ${byKey(sql`SELECT ${columns("ps")}, (${score})::float8 AS score, ${dropped} AS relaxed`, sql`AND ps.search_vector @@ ${every}`)}) ps
    ),
    verdict AS MATERIALIZED (
      SELECT NOT EXISTS (SELECT 1 FROM forms f WHERE cardinality(f.lexemes) <> 1)
         AND coalesce((
               SELECT bool_and(k.whole > t.bound OR (k.whole = t.bound AND EXISTS (
                        SELECT 1 FROM group_bounds g WHERE g.prefixed = t.prefixed AND NOT EXISTS (
                          SELECT 1 FROM edges e WHERE e.prefixed = g.prefixed AND e.grp = g.grp AND e.bound = g.bound
                            AND NOT (e.impact IS NOT NULL
                                     AND (e.title_words > k.title_words
                                          OR (e.title_words = k.title_words
                                              AND (e.rating_count < k.rating_count
                                                   OR (e.rating_count = k.rating_count AND e.product_id >= k.product_id)))))))))
               FROM (SELECT score + ${lengthOf(sql`pool`)} AS whole, title_words, rating_count, product_id
                     FROM pool ORDER BY score DESC, rating_count DESC, product_id
                     OFFSET ${limit - 1} LIMIT 1) k
               CROSS JOIN part_bounds t), false) AS exact
    )
    SELECT * FROM pool WHERE (SELECT exact FROM verdict)
    UNION ALL
    SELECT * FROM (${full}) f WHERE NOT (SELECT exact FROM verdict)
  )`;
}

/** A query's TextMatch, or null when nothing can match it (no word group). */
export function textMatch(tq: TextQuery): TextMatch | null {
  if (tq.groups.length === 0) return null;
  const groups = tq.groups.map(groupQuery);
  const exclusions = tq.excluded.map((word) => sql`!! ${plain(word)}`);
  return {
    every: allOf([...groups, ...exclusions]),
    some: allOf([anyOf(groups), ...exclusions]),
    relax: groups.length > 1 && !tq.strict,
    dropped: tq.dropped.length > 0,
    groups,
    forms: [
      ...tq.groups.flatMap((group, g) => [group.word, ...group.alternatives].map((word) => ({ group: g, word }))),
      ...tq.excluded.map((word) => ({ group: -1, word })),
    ],
  };
}

/**
 * The text part of a search: products matching the query, with `score` (higher first) and
 * `relaxed` (true when not every word had to match).
 *
 * 1. Products containing every word group (a word, its completions if it is the last one, or
 *    its corrections) are the result when there is any.
 * 2. Otherwise, products containing any group, ranked first by the share of the query they
 *    cover, each group weighted by how rare it is among them (ln(1 + n / df)): "relaxed".
 * Within either, a title that equals the query, begins with it or lies within it ranks first;
 * a word matched as typed ranks above its completions. Then full matches rank by the sum over
 * the word groups of each group's best form in the product (the word, or one completion or
 * correction): the weights of the fields it occurs in (fullMatchRank); relaxed matches by
 * ts_rank of the words they have, with the same field weights. Ties go to the most rated.
 *
 * `columns(alias)` lists the product_search columns the caller needs; `inScope` restricts rows.
 * Unless `scored`, the score is 0 and not computed (the counts statement needs only the set).
 * With `page` (the relevance order, filters that `page.filter` states), the page of full matches
 * may be read from the title postings (boundedPage): the same rows in the same order.
 */
export function textSource(
  tq: TextQuery,
  columns: (alias: string) => Prisma.Sql,
  names: string[],
  inScope: Prisma.Sql,
  { scored, page }: { scored: boolean; page?: PageBound },
): Prisma.Sql {
  const match = textMatch(tq);
  if (match === null) {
    return sql`(SELECT ${columns("ps")}, 0::float8 AS score, true AS relaxed FROM product_search ps WHERE false)`;
  }
  const { every, some, groups } = match;

  // The title compared with the query as typed and as corrected (key forms, lib/catalog/query.ts).
  const keys = [...new Set([tq.key, tq.corrected ?? tq.key])];
  const titleScore = sql`(
      CASE WHEN ps.title_key IN (${Prisma.join(keys)}) THEN 4 ELSE 0 END
    + CASE WHEN left(ps.title_key, ${[...tq.key].length}) = ${tq.key} THEN 2 ELSE 0 END
    + CASE WHEN ${Prisma.join(keys.map((k) => sql`strpos(${` ${k} `}, ' ' || ps.title_key || ' ') > 0`), " OR ")} THEN 2 ELSE 0 END)`;
  // A last word matched as typed outranks its completions (only groups with both count).
  const asTyped = tq.groups.filter((g) => g.known && g.alternatives.length > 0);
  const typedScore = asTyped.length
    ? sql`(${Prisma.join(asTyped.map((g) => sql`(ps.search_vector @@ ${plain(g.word)})::int`), " + ")}) * ${Prisma.raw(String(TYPED_POINTS))}`
    : sql`0`;
  const base = (query: Prisma.Sql) =>
    scored ? sql`${titleScore} + ${typedScore} + ts_rank(${WEIGHTS}, ps.search_vector, ${query}) - ${lengthOf(sql`ps`)}` : sql`0`;
  const dropped = Prisma.raw(match.dropped ? "true" : "false");

  const rank = fullMatchRank(tq.groups);
  const score = sql`${TITLE_POINTS * rank.groups} * ${titleScore} + ${rank.rank} - ${lengthOf(sql`ps`)}`;
  const full = sql`
    SELECT ${columns("ps")}, (${scored ? score : sql`0`})::float8 AS score, ${dropped} AS relaxed
    FROM product_search ps
    WHERE ps.search_vector @@ ${every} AND ${inScope}`;
  const statement = match.relax ? withRelaxed() : sql`(${full})`;
  if (!scored || !page || page.limit > MAX_BOUNDED_PAGE) return statement;
  return boundedPage({ tq, rank, score, every, exclusions: tq.excluded.length > 0, columns, inScope, page, dropped, full: statement });

  /** The full matches, or when there are none the products matching some group (ranked as above). */
  function withRelaxed(): Prisma.Sql {
    const looseColumns = Prisma.raw(names.map((n) => `l.${n}`).join(", "));
    const loose = (extra: Prisma.Sql) => sql`
      SELECT ${columns("ps")}${extra}
      FROM product_search ps
      WHERE NOT EXISTS (SELECT 1 FROM full_match) AND ps.search_vector @@ ${some} AND ${inScope}`;
    if (!scored) {
      return sql`(
        WITH full_match AS MATERIALIZED (${full})
        SELECT * FROM full_match
        UNION ALL
        SELECT ${looseColumns}, 0::float8 AS score, true AS relaxed FROM (${loose(Prisma.empty)}) l
      )`;
    }
    const matched = groups.map((g, i) => sql`(ps.search_vector @@ ${g}) AS ${Prisma.raw(`m${i}`)}`);
    const idf = groups.map((_, i) => Prisma.raw(`ln(1 + df.n / greatest(df.d${i}, 1))`));
    const covered = groups.map((_, i) => sql`${Prisma.raw(`l.m${i}`)}::int * ${idf[i]!}`);
    const scoredColumns = sql`, (${base(some)})::float8 AS base, ${Prisma.join(matched)}`;
    // A page of the first rows, no filter but the scope: only the products that can reach it are
    // ranked (relaxedClasses), with the idf of every match, counted from the bitmaps.
    const bounded =
      page !== undefined && page.relaxedScope !== undefined && page.limit <= MAX_BOUNDED_PAGE && groups.length <= MAX_RELAXED_GROUPS;
    const dfRows = sql`
        SELECT count(*)::float8 AS n, ${Prisma.join(groups.map((_, i) => Prisma.raw(`count(*) FILTER (WHERE m${i})::float8 AS d${i}`)))}
        FROM loose`;
    const runs = [...new Set(keys.flatMap(phrases))];
    const titled = sql`(ps.title_key COLLATE "C" = ANY(${runs}::text[])
                        OR (ps.title_key COLLATE "C" >= ${tq.key} AND ps.title_key COLLATE "C" < ${`${tq.key}\u{10FFFF}`}))`;
    const boundedLoose = sql`
        SELECT ${columns("ps")}${scoredColumns}
        FROM product_search ps
        WHERE NOT EXISTS (SELECT 1 FROM full_match) AND ps.search_vector @@ coalesce((SELECT q FROM rx_query), ${some}) AND ${inScope}
        UNION ALL
        SELECT ${columns("ps")}${scoredColumns}
        FROM product_search ps
        WHERE NOT EXISTS (SELECT 1 FROM full_match) AND ${titled} AND ps.search_vector @@ ${some} AND ${inScope}
          AND NOT (ps.search_vector @@ coalesce((SELECT q FROM rx_query), ${some}))`;
    const classes = () =>
      relaxedClasses({
        text: match!,
        scopePath: page!.relaxedScope!,
        inScope,
        limit: page!.limit,
        typedBonus: TYPED_POINTS * asTyped.length,
        exclusions: tq.excluded.length ? sql`&& ${allOf(tq.excluded.map((word) => sql`!! ${plain(word)}`))}` : Prisma.empty,
      });
    return sql`(
      WITH ${bounded ? sql`${classes()},` : Prisma.empty} full_match AS MATERIALIZED (${full}),
      loose AS MATERIALIZED (${bounded ? boundedLoose : loose(scoredColumns)}),
      df AS (${bounded ? sql`SELECT * FROM rx_df WHERE NOT EXISTS (SELECT 1 FROM full_match)` : dfRows})
      SELECT * FROM full_match
      UNION ALL
      SELECT ${looseColumns}, (10 * (${Prisma.join(covered, " + ")}) / (${Prisma.join(idf, " + ")}) + l.base)::float8 AS score, true AS relaxed
      FROM loose l CROSS JOIN df
    )`;
  }
}
