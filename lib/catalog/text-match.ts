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

/**
 * The text part of a search: products matching the query, with `score` (higher first) and
 * `relaxed` (true when not every word had to match).
 *
 * 1. Products containing every word group (a word, its completions if it is the last one, or
 *    its corrections) are the result when there is any.
 * 2. Otherwise, products containing any group, ranked first by the share of the query they
 *    cover, each group weighted by how rare it is among them (ln(1 + n / df)): "relaxed".
 * Within either, a title that equals the query, begins with it or lies within it ranks first;
 * a word matched as typed ranks above its completions; then ts_rank with the field weights.
 *
 * `columns(alias)` lists the product_search columns the caller needs; `inScope` restricts rows.
 * Unless `scored`, the score is 0 and not computed (the counts statement needs only the set).
 */
export function textSource(
  tq: TextQuery,
  columns: (alias: string) => Prisma.Sql,
  names: string[],
  inScope: Prisma.Sql,
  { scored }: { scored: boolean },
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

  const full = sql`
    SELECT ${columns("ps")}, (${base(every)})::float8 AS score, ${dropped} AS relaxed
    FROM product_search ps
    WHERE ps.search_vector @@ ${every} AND ${inScope}`;
  if (groups.length === 1 || tq.strict) return sql`(${full})`;

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
