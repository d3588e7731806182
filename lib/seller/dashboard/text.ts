/**
 * A search term as typed into a dashboard search box: control characters (NUL included, which
 * PostgreSQL text cannot hold) become spaces, runs of space collapse, and it is cut to `max`.
 */
export function cleanSearchTerm(value: unknown, max = 200): string {
  if (typeof value !== "string") return "";
  return value
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max);
}

/** `%term%` for ILIKE, with LIKE's own wildcards and the escape character taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
