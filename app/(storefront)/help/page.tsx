import type { Metadata } from "next";
import { listHelpArticles } from "@/lib/help/articles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Help center" };

export default async function HelpIndex() {
  const articles = await listHelpArticles();
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
