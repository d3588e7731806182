import { Prisma } from "@/lib/db";
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
 * Field weights of ts_rank, {D, C, B, A}: description and attributes, category names, brand, title.
 * Ranking favours a word in the title over the same word in a description.
 */
const WEIGHTS = sql`'{0.1, 0.2, 0.4, 1.0}'::float4[]`;

/** Rows a page needs (offset + page size) and the filters on `ps` that every row of it passes. */
export interface PageBound {
  limit: number;
  filter: Prisma.Sql;
  /** Up to this many titles beginning with the query are all ranked (default FEW_PREFIXED; tests vary it). */
  fewPrefixed?: number;
}

/** Deeper pages rank every match, as the counts do (a bounded page would read as many rows). */
const MAX_BOUNDED_PAGE = 1_000;

/**
 * The highest one-word ts_rank of a document without that word in its title (see boundedPage).
 */
const NO_TITLE_BOUND = 0.4;

/**
 * Up to this many titles beginning with the query are all ranked (at 1,000,000 products, 330
 * titles begin with "laptop": 6 ms); more are read in rank order from the postings.
 */
export const FEW_PREFIXED = 500;

/** A typed word that has completions outranks them: its rank in a document gains this. */
const TYPED_BONUS = 0.5;

/**
 * A one-group query's forms (the word, then its completions or corrections), each with the bonus
 * its rank gains where it occurs, and the group's rank in a document: the best of its forms'.
 * Every part of that rank is a one-word ts_rank, which search_title_postings keeps per title word.
 */
function oneGroup(group: WordGroup) {
  const words = [group.word, ...group.alternatives];
  const bonuses = words.map((_, i) => (i === 0 && group.known && group.alternatives.length > 0 ? TYPED_BONUS : 0));
  const forms = words.map((word, i) =>
    bonuses[i]
      ? sql`ts_rank(${WEIGHTS}, ps.search_vector, ${plain(word)})::float8
            + CASE WHEN ps.search_vector @@ ${plain(word)} THEN ${bonuses[i]}::float8 ELSE 0 END`
      : sql`ts_rank(${WEIGHTS}, ps.search_vector, ${plain(word)})::float8`,
  );
  return { words, bonuses, rank: sql`greatest(${Prisma.join(forms)})` };
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
 * A page of a one-group query without ranking every product that matches.
 *
 * A product's score is its title score (0; 2 or more when its title equals the query, begins with
 * it or lies within it) plus its group rank, below 2 (a one-word ts_rank is at most 1, plus the
 * typed word's bonus). search_title_postings lists the products with a form in their title in
 * the order of that form's rank (impact, then rating count, then id: the sort's own tie-break).
 * The pool the page is picked from holds:
 * - the first `limit` passing rows of each form's list;
 * - the titles equal to the query or to a run of its words (title_key index);
 * - the titles beginning with the query: all of them when there are at most FEW_PREFIXED, else,
 *   per form, the first `limit` passing rows of its list whose title begins with the query.
 * Ranked exactly, the pool gives the true page when its `limit`-th score, S, proves that no
 * product outside it ranks above:
 * - one outside every list, with its best form f in its title, is behind f's list's first
 *   `limit` rows, each in the pool: S is at least their score (on a tie they come first);
 * - one without f in its title has f only in its brand, categories or description. Those fields
 *   follow the title in the document, in falling weight, so f's first position has its highest
 *   weight, and one-word ts_rank (PostgreSQL's calc_rank_or) is then at most that weight: 0.4, the
 *   brand's. When f's list ran out (all of it is in the pool), S must exceed 0.4 + f's bonus;
 * - a title beginning with the query that is not in the pool (there were more than FEW_PREFIXED)
 *   has the title score 2 (equal or within ones are in the pool) and, by the two points above
 *   read among those titles, a rank either behind the pool's rows or at most 0.4 + the largest
 *   bonus: S must exceed 2.4 + that bonus.
 * Otherwise (a form of several lexemes, fewer rows than `limit`, a bound not met) the statement
 * ranks every match as before: the same page, only slower.
 */
function boundedPage(args: {
  tq: TextQuery;
  single: ReturnType<typeof oneGroup>;
  titleScore: Prisma.Sql;
  every: Prisma.Sql;
  exclusions: boolean;
  columns: (alias: string) => Prisma.Sql;
  inScope: Prisma.Sql;
  page: PageBound;
  dropped: Prisma.Sql;
  full: Prisma.Sql;
}): Prisma.Sql {
  const { tq, single, titleScore, every, columns, inScope, page, dropped, full } = args;
  const limit = page.limit;
  const fewPrefixed = page.fewPrefixed ?? FEW_PREFIXED;
  const keys = [...new Set([tq.key, tq.corrected ?? tq.key])];
  const runs = [...new Set(keys.flatMap(phrases))];
  // Excluded words are tested on the rows read (only then: it reads each row's document).
  const excluded = args.exclusions ? sql`AND ps.search_vector @@ ${every}` : Prisma.empty;
  // A title that begins with the query (title_key index, C collation: a range).
  const beginsWith = (alias: Prisma.Sql) =>
    sql`(${alias}.title_key COLLATE "C" >= ${tq.key} AND ${alias}.title_key COLLATE "C" < ${`${tq.key}\u{10FFFF}`})`;
  return sql`(
    WITH forms AS MATERIALIZED (
      SELECT f.word, f.bonus, tsvector_to_array(to_tsvector('catalog', f.word)) AS lexemes
      FROM unnest(${single.words}::text[], ${single.bonuses}::float8[]) AS f(word, bonus)
    ),
    lexemes AS (
      SELECT f.lexemes[1] AS lexeme, max(f.bonus) AS bonus FROM forms f WHERE cardinality(f.lexemes) = 1 GROUP BY 1
    ),
    prefixed AS MATERIALIZED (
      SELECT t.product_id FROM product_search t WHERE ${beginsWith(sql`t`)} LIMIT ${fewPrefixed + 1}
    ),
    few_prefixed AS MATERIALIZED (SELECT count(*) <= ${fewPrefixed} AS yes FROM prefixed),
    lists AS MATERIALIZED (
      SELECT x.lexeme, x.bonus, b.prefixed, w.product_id, w.s
      FROM lexemes x CROSS JOIN (VALUES (false), (true)) AS b(prefixed)
      LEFT JOIN LATERAL (
        SELECT p.product_id, p.impact::float8 + x.bonus AS s
        FROM search_title_postings p JOIN product_search ps ON ps.product_id = p.product_id
        WHERE p.lexeme = x.lexeme AND ${inScope} AND ${page.filter} ${excluded}
          AND (NOT b.prefixed OR ${beginsWith(sql`ps`)})
        ORDER BY p.impact DESC, p.rating_count DESC, p.product_id
        LIMIT ${limit}
      ) w ON true
      WHERE NOT b.prefixed OR NOT (SELECT yes FROM few_prefixed)
    ),
    exhausted AS (
      SELECT l.bonus FROM lists l WHERE NOT l.prefixed GROUP BY l.lexeme, l.bonus HAVING count(l.product_id) < ${limit}
    ),
    pool AS MATERIALIZED (
      SELECT ${columns("ps")}, (${titleScore} + ${single.rank})::float8 AS score, ${dropped} AS relaxed
      FROM product_search ps
      WHERE ps.product_id IN (
              SELECT l.product_id FROM lists l WHERE l.product_id IS NOT NULL
              UNION
              SELECT t.product_id FROM product_search t WHERE t.title_key COLLATE "C" = ANY(${runs}::text[])
              UNION
              SELECT p.product_id FROM prefixed p WHERE (SELECT yes FROM few_prefixed))
        AND ps.search_vector @@ ${every} AND ${inScope} AND ${page.filter}
    ),
    verdict AS MATERIALIZED (
      SELECT NOT EXISTS (SELECT 1 FROM forms f WHERE cardinality(f.lexemes) > 1)
         AND coalesce((
               SELECT k.score > coalesce((SELECT max(${NO_TITLE_BOUND}::float8 + l.bonus) FROM exhausted l), '-Infinity')
                  AND ((SELECT yes FROM few_prefixed)
                       OR k.score > coalesce((SELECT 2 + ${NO_TITLE_BOUND}::float8 + max(x.bonus) FROM lexemes x), '-Infinity'))
               FROM (SELECT score FROM pool ORDER BY score DESC, rating_count DESC, product_id
                     OFFSET ${limit - 1} LIMIT 1) k), false) AS exact
    )
    SELECT * FROM pool WHERE (SELECT exact FROM verdict)
    UNION ALL
    SELECT * FROM (${full}) f WHERE NOT (SELECT exact FROM verdict)
  )`;
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
 * a word matched as typed ranks above its completions; then ts_rank with the field weights. A
 * query of one word group ranks by its best form (the word, or one completion or correction):
 * that form's ts_rank, plus 0.5 for the word as typed when it has completions.
 *
 * `columns(alias)` lists the product_search columns the caller needs; `inScope` restricts rows.
 * Unless `scored`, the score is 0 and not computed (the counts statement needs only the set).
 * With `page` (the relevance order, filters that `page.filter` states), a one-group query's page
 * may be read from the title postings (boundedPage): the same rows in the same order.
 */
export function textSource(
  tq: TextQuery,
  columns: (alias: string) => Prisma.Sql,
  names: string[],
  inScope: Prisma.Sql,
  { scored, page }: { scored: boolean; page?: PageBound },
): Prisma.Sql {
  if (tq.groups.length === 0) {
    return sql`(SELECT ${columns("ps")}, 0::float8 AS score, true AS relaxed FROM product_search ps WHERE false)`;
  }
  const groups = tq.groups.map(groupQuery);
  const exclusions = tq.excluded.map((word) => sql`!! ${plain(word)}`);
  const every = allOf([...groups, ...exclusions]);
  const some = allOf([anyOf(groups), ...exclusions]);

  // The title compared with the query as typed and as corrected (key forms, lib/catalog/query.ts).
  const keys = [...new Set([tq.key, tq.corrected ?? tq.key])];
  const titleScore = sql`(
      CASE WHEN ps.title_key IN (${Prisma.join(keys)}) THEN 4 ELSE 0 END
    + CASE WHEN left(ps.title_key, ${[...tq.key].length}) = ${tq.key} THEN 2 ELSE 0 END
    + CASE WHEN ${Prisma.join(keys.map((k) => sql`strpos(${` ${k} `}, ' ' || ps.title_key || ' ') > 0`), " OR ")} THEN 2 ELSE 0 END)`;
  // A last word matched as typed outranks its completions (only groups with both count).
  const asTyped = tq.groups.filter((g) => g.known && g.alternatives.length > 0);
  const typedScore = asTyped.length
    ? sql`(${Prisma.join(asTyped.map((g) => sql`(ps.search_vector @@ ${plain(g.word)})::int`), " + ")}) * 0.5`
    : sql`0`;
  const base = (query: Prisma.Sql) =>
    scored ? sql`${titleScore} + ${typedScore} + ts_rank(${WEIGHTS}, ps.search_vector, ${query})` : sql`0`;
  const dropped = Prisma.raw(tq.dropped.length > 0 ? "true" : "false");

  if (groups.length === 1) {
    const single = oneGroup(tq.groups[0]!);
    const full = sql`
      SELECT ${columns("ps")}, (${scored ? sql`${titleScore} + ${single.rank}` : sql`0`})::float8 AS score, ${dropped} AS relaxed
      FROM product_search ps
      WHERE ps.search_vector @@ ${every} AND ${inScope}`;
    if (!scored || !page || page.limit > MAX_BOUNDED_PAGE) return sql`(${full})`;
    return boundedPage({ tq, single, titleScore, every, exclusions: exclusions.length > 0, columns, inScope, page, dropped, full });
  }

  const full = sql`
    SELECT ${columns("ps")}, (${base(every)})::float8 AS score, ${dropped} AS relaxed
    FROM product_search ps
    WHERE ps.search_vector @@ ${every} AND ${inScope}`;
  if (tq.strict) return sql`(${full})`;

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
  return sql`(
    WITH full_match AS MATERIALIZED (${full}),
    loose AS MATERIALIZED (${loose(sql`, (${base(some)})::float8 AS base, ${Prisma.join(matched)}`)}),
    df AS (
      SELECT count(*)::float8 AS n, ${Prisma.join(groups.map((_, i) => Prisma.raw(`count(*) FILTER (WHERE m${i})::float8 AS d${i}`)))}
      FROM loose
    )
    SELECT * FROM full_match
    UNION ALL
    SELECT ${looseColumns}, (10 * (${Prisma.join(covered, " + ")}) / (${Prisma.join(idf, " + ")}) + l.base)::float8 AS score, true AS relaxed
    FROM loose l CROSS JOIN df
  )`;
}
