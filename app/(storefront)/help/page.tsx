import type { Metadata } from "next";
import { listHelpArticles } from "@/lib/help/articles";
import { withDb } from "@/lib/http/database";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Help center" };

export default async function HelpIndex() {
  const articles = await withDb((client) => listHelpArticles(client));
  return (
    <main className="page" data-page="help">
      <h1>Help center</h1>
      <ul>
        {articles.map((a) => (
          <li key={a.slug}>
            <a href={`/help/${a.slug}`}>{a.title}</a>
            <br />
            <span className="muted">{a.summary}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
