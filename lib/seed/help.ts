/**
 * Help centre articles, shown at /help/{slug} and by the MCP help tools once the seed has put them
 * in `help_articles`. Each is a Markdown file, content/help/<slug>.md, read here at seed time.
 *
 * A file is a fixed front matter block, then the article's Markdown, kept byte for byte:
 *
 *     ---
 *     slug: how-search-works          the file's name without .md
 *     title: How search works         one line each; the text after "key: " is the value, as is
 *     summary: What search matches…   (no quoting, no escapes, so a colon in a title is fine)
 *     position: 0                     the place on /help, from 0; unique across the articles
 *     ---
 *     # How search works
 *     …
 *
 * Exactly these four keys, in any order, each once; anything else is an error naming the file.
 * A parser this strict for one format we write ourselves needs no front-matter dependency.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface HelpArticleDef {
  slug: string;
  title: string;
  summary: string;
  body: string;
  position: number;
}

/** Resolved from the working directory, as prisma/migrations is: `next start`, tsx scripts and vitest run from the project root. */
export const HELP_DIR = path.join(process.cwd(), "content", "help");

const KEYS = ["slug", "title", "summary", "position"] as const;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** One article file's text; `file` names it in errors. */
export function parseHelpArticle(text: string, file: string): HelpArticleDef {
  const fail = (why: string): never => {
    throw new Error(`${file}: ${why}`);
  };
  if (text.includes("\r")) fail("the file has CR line endings; the articles are kept with LF only");
  if (!text.startsWith("---\n")) fail('the file must start with a "---" line');
  const end = text.indexOf("\n---\n", 3);
  if (end < 0) fail('the front matter has no closing "---" line');
  const fields = new Map<string, string>();
  for (const line of text.slice(4, end).split("\n")) {
    const match = /^([a-z]+): (.*)$/.exec(line);
    if (!match) fail(`front matter line ${JSON.stringify(line)} is not "key: value"`);
    const [, key, value] = match!;
    if (!(KEYS as readonly string[]).includes(key!)) fail(`unknown front matter key "${key}" (known: ${KEYS.join(", ")})`);
    if (fields.has(key!)) fail(`front matter key "${key}" appears twice`);
    if (value !== value!.trim() || value === "") fail(`"${key}" is empty or has spaces around it`);
    fields.set(key!, value!);
  }
  const missing = KEYS.filter((key) => !fields.has(key));
  if (missing.length) fail(`front matter lacks ${missing.join(", ")}`);
  const slug = fields.get("slug")!;
  if (!SLUG.test(slug)) fail(`slug "${slug}" is not lowercase words joined by hyphens`);
  const position = fields.get("position")!;
  if (!/^(0|[1-9][0-9]*)$/.test(position)) fail(`position "${position}" is not a whole number`);
  const body = text.slice(end + "\n---\n".length);
  if (!body.trim()) fail("the article has no text");
  return { slug, title: fields.get("title")!, summary: fields.get("summary")!, body, position: Number(position) };
}

/**
 * Every article of `dir`, in /help order. A file whose slug is not its name, or two files with
 * the same position, is an error: the seed would otherwise publish a page nobody can find.
 */
export function readHelpArticles(dir: string = HELP_DIR): HelpArticleDef[] {
  const files = readdirSync(dir).filter((name) => name.endsWith(".md")).sort();
  const articles = files.map((name) => {
    const article = parseHelpArticle(readFileSync(path.join(dir, name), "utf8"), path.join(dir, name));
    if (`${article.slug}.md` !== name) throw new Error(`${path.join(dir, name)}: slug "${article.slug}" does not match the file's name`);
    return article;
  });
  const byPosition = new Map<number, string>();
  for (const article of articles) {
    const other = byPosition.get(article.position);
    if (other) throw new Error(`${dir}: ${other} and ${article.slug} both have position ${article.position}`);
    byPosition.set(article.position, article.slug);
  }
  return articles.sort((a, b) => a.position - b.position);
}
