import type { CatalogClient } from "@/lib/db";
import { parseQuery } from "./query";

export interface Suggestions {
  /** Dictionary words that look like the query's words (trigram similarity), closest first. */
  terms: string[];
  /** Categories whose names look like the query's words; the top-level ones when none does. */
  categories: { slug: string; name: string }[];
}

/**
 * What to offer on an empty results page, when nothing matched even after correcting and
 * relaxing: words of the catalog that resemble the query's, and categories to browse.
 */
export async function suggestionsFor(client: CatalogClient, q: string): Promise<Suggestions> {
  const words = parseQuery(q).words.filter((word) => word.length >= 3);
  const [terms, related] = await Promise.all([
    words.length === 0
      ? Promise.resolve([])
      : client.$queryRaw<{ term: string }[]>`
          SELECT t.term FROM search_terms t, unnest(${words}::text[]) AS w(word)
          WHERE t.term % w.word AND t.term <> w.word
          GROUP BY t.term ORDER BY max(similarity(t.term, w.word)) DESC, t.term LIMIT 6`,
    words.length === 0
      ? Promise.resolve([])
      : client.$queryRaw<{ slug: string; name: string }[]>`
          SELECT c.slug, c.name FROM categories c, unnest(${words}::text[]) AS w(word)
          WHERE c.active AND similarity(search_key(c.name), w.word) >= 0.3
            AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)
          GROUP BY c.slug, c.name ORDER BY max(similarity(search_key(c.name), w.word)) DESC, c.name LIMIT 6`,
  ]);
  const categories =
    related.length > 0
      ? related
      : await client.$queryRaw<{ slug: string; name: string }[]>`
          SELECT slug, name FROM categories WHERE active AND nlevel(path) = 1 ORDER BY name`;
  return { terms: terms.map((t) => t.term), categories };
}
