import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

export interface HelpArticleSummary {
  slug: string;
  title: string;
  summary: string;
}

export interface HelpArticle extends HelpArticleSummary {
  /** Markdown. */
  body: string;
  updated_at: string;
}

/** Published help articles in display order (the storefront's /help and the MCP help tools). */
export function listHelpArticles(): Promise<HelpArticleSummary[]> {
  return db().$queryRaw<HelpArticleSummary[]>`
    SELECT slug, title, summary FROM help_articles WHERE published ORDER BY position, title`;
}

export async function getHelpArticle(slug: string): Promise<HelpArticle> {
  const [article] = await db().$queryRaw<HelpArticle[]>`
    SELECT slug, title, summary, body, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
    FROM help_articles WHERE slug = ${slug} AND published`;
  if (!article) throw new AppError("help_article_not_found", `No help article has the slug '${slug.slice(0, 80)}'.`);
  return article;
}
