import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache, type ComponentProps } from "react";
import ReactMarkdown from "react-markdown";
import remarkGfm from "remark-gfm";
import { canonicalUrl } from "../../_lib/request-origin";
import { AppError } from "@/lib/errors";
import { getHelpArticle } from "@/lib/help/articles";
import { withDb } from "@/lib/http/database";
import { forgetStorefrontPage } from "@/lib/storefront/page-exists";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }> };

const loadArticle = cache(async (slug: string) => {
  try {
    return await withDb((client) => getHelpArticle(client, slug));
  } catch (err) {
    if (err instanceof AppError && err.code === "help_article_not_found") {
      forgetStorefrontPage({ kind: "help", slug }); // see lib/storefront/page-exists.ts
      notFound();
    }
    throw err;
  }
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const article = await loadArticle((await params).slug);
  return { title: article.title, description: article.summary, alternates: { canonical: await canonicalUrl(`/help/${article.slug}`) } };
}

/** Drops a leading `# Title` line that repeats the title already shown as the page heading. */
function withoutTitleHeading(markdown: string, title: string): string {
  const [first, ...rest] = markdown.split("\n");
  return first?.trim() === `# ${title}` ? rest.join("\n").trimStart() : markdown;
}

/** A GFM table, scrollable on its own on a narrow screen instead of widening the page. */
function HelpTable(props: ComponentProps<"table"> & { node?: unknown }) {
  const { node, ...table } = props;
  void node;
  return (
    <div className="help-table">
      <table {...table} />
    </div>
  );
}

export default async function HelpArticlePage({ params }: Props) {
  const article = await loadArticle((await params).slug);
  return (
    <main className="page" data-page="help-article">
      <nav className="breadcrumb" aria-label="Breadcrumb">
        <ol>
          <li>
            <Link href="/help">Help center</Link>
          </li>
          <li>
            <span aria-current="page">{article.title}</span>
          </li>
        </ol>
      </nav>
      <article className="article">
        <h1>{article.title}</h1>
        {/* Markdown rendered to elements; raw HTML in the source is not rendered. The page
            heading is the article's title, so headings inside the body start one level down. */}
        <ReactMarkdown remarkPlugins={[remarkGfm]} components={{ h1: "h2", table: HelpTable }}>{withoutTitleHeading(article.body, article.title)}</ReactMarkdown>
      </article>
    </main>
  );
}
