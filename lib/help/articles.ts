import { absoluteUrl } from "@/lib/config";
import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { HelpArticleData, HelpArticleSummaryData } from "@/lib/schemas/help";

export interface HelpArticleListItem {
  slug: string;
  title: string;
  summary: string;
}

/** Published help articles in display order (the storefront's /help). */
export function listHelpArticles(client: DbClient): Promise<HelpArticleListItem[]> {
  return client.$queryRaw<HelpArticleListItem[]>`
    SELECT slug, title, summary FROM help_articles WHERE published ORDER BY position, title`;
}

export function helpArticleUrl(slug: string): string {
  return absoluteUrl(`/help/${encodeURIComponent(slug)}`);
}

/**
 * Published articles containing every word of `q` in their title, summary or text (case
 * insensitive, as plain substrings: `%` and `_` match themselves), those with more words in the
 * title first, then in display order. Without `q`, every published article.
 */
export async function searchHelpArticles(client: DbClient, q?: string): Promise<HelpArticleSummaryData[]> {
  const words = [...new Set((q ?? "").toLowerCase().split(/\s+/).filter(Boolean))];
  const ilike = (column: Prisma.Sql, word: string) =>
    Prisma.sql`${column} ILIKE ${`%${word.replace(/[\\%_]/g, "\\$&")}%`} ESCAPE '\\'`;
  const [title, summary, body] = [Prisma.raw("title"), Prisma.raw("summary"), Prisma.raw("body")];
  const filter = words.length
    ? Prisma.sql`AND ${Prisma.join(words.map((w) => Prisma.sql`(${ilike(title, w)} OR ${ilike(summary, w)} OR ${ilike(body, w)})`), " AND ")}`
    : Prisma.empty;
  const titleFirst = words.length
    ? Prisma.sql`${Prisma.join(words.map((w) => Prisma.sql`(${ilike(title, w)})::int`), " + ")} DESC,`
    : Prisma.empty;
  const rows = await client.$queryRaw<HelpArticleListItem[]>`
    SELECT slug, title, summary FROM help_articles
    WHERE published ${filter}
    ORDER BY ${titleFirst} position, title`;
  return rows.map((row) => ({ ...row, url: helpArticleUrl(row.slug) }));
}

// Anything that cannot be a slug (a NUL byte, 10 KB of text) is simply not found.
const HELP_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

/** A published article with its Markdown and page URL; `help_article_not_found` otherwise. */
export async function getHelpArticle(client: DbClient, slug: string): Promise<HelpArticleData> {
  const [article] = HELP_SLUG.test(slug)
    ? await client.$queryRaw<Omit<HelpArticleData, "url">[]>`
        SELECT slug, title, summary, body, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
        FROM help_articles WHERE slug = ${slug} AND published`
    : [];
  if (!article) {
    const shown = slug.length > 80 ? `${slug.slice(0, 80)}…` : slug;
    throw new AppError("help_article_not_found", `No help article has the slug '${shown}'.`);
  }
  return { slug: article.slug, title: article.title, summary: article.summary, body: article.body, url: helpArticleUrl(article.slug), updated_at: article.updated_at };
}
