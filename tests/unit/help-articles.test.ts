/**
 * The help centre's articles are the Markdown files of content/help (lib/seed/help.ts): every
 * file parses, its slug is its name, slugs and positions are unique, and the seed inserts exactly
 * these articles, bodies byte for byte. The parser refuses what its fixed format does not allow.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HELP_DIR, parseHelpArticle, readHelpArticles } from "@/lib/seed/help";
import { helpArticleRows } from "@/lib/seed/seed";

const FILES = readdirSync(HELP_DIR).sort();

describe("content/help", () => {
  it("holds only Markdown articles, at least the ones /help has always listed", () => {
    expect(FILES.filter((name) => !name.endsWith(".md"))).toEqual([]);
    expect(FILES).toContain("how-search-works.md");
    expect(FILES.length).toBeGreaterThanOrEqual(14);
  });

  it.each(FILES)("%s parses, and its slug is its name", (name) => {
    const article = parseHelpArticle(readFileSync(path.join(HELP_DIR, name), "utf8"), name);
    expect(`${article.slug}.md`).toBe(name);
    expect(article.body.startsWith(`# `)).toBe(true);
    expect(article.body.endsWith("\n")).toBe(true);
  });

  it("slugs and positions are unique; positions run 0, 1, 2, … in /help order", () => {
    const articles = readHelpArticles();
    expect(new Set(articles.map((a) => a.slug)).size).toBe(FILES.length);
    expect(articles.map((a) => a.position)).toEqual(FILES.map((_, i) => i));
  });

  it("the seed inserts every file's article, unchanged, published, in position order", () => {
    const rows = helpArticleRows();
    expect(rows.map((row) => `${row.slug}.md`).sort()).toEqual(FILES);
    const files = readHelpArticles();
    expect(rows.map(({ slug, title, summary, body, position }) => ({ slug, title, summary, body, position }))).toEqual(files);
    for (const row of rows) {
      const text = readFileSync(path.join(HELP_DIR, `${row.slug}.md`), "utf8");
      expect(text.endsWith(row.body), row.slug).toBe(true);
      expect(row.published).toBe(true);
    }
  });
});

describe("parseHelpArticle: the fixed front matter", () => {
  const ok = "---\nslug: a-b\ntitle: A: b\nsummary: S\nposition: 3\n---\n# A\n\ntext\n";

  it("takes the four keys, values as written, and keeps the body byte for byte", () => {
    expect(parseHelpArticle(ok, "a-b.md")).toEqual({ slug: "a-b", title: "A: b", summary: "S", position: 3, body: "# A\n\ntext\n" });
    const reordered = "---\nposition: 0\nsummary: S\ntitle: T\nslug: x\n---\n  indented `code` \\` ${x}\n---\nmore\n";
    expect(parseHelpArticle(reordered, "x.md").body).toBe("  indented `code` \\` ${x}\n---\nmore\n");
  });

  it.each([
    ["no opening line", ok.slice(4), /start with/],
    ["no closing line", "---\nslug: a\ntitle: T\nsummary: S\nposition: 0\n# A\n", /closing/],
    ["a missing key", ok.replace("summary: S\n", ""), /lacks summary/],
    ["an unknown key", ok.replace("position: 3", "position: 3\ncategory: x"), /unknown front matter key "category"/],
    ["a key twice", ok.replace("title: A: b", "title: A\ntitle: B"), /twice/],
    ["a line that is not key: value", ok.replace("summary: S", "summary S"), /not "key: value"/],
    ["an empty value", ok.replace("summary: S", "summary: "), /empty/],
    ["an uppercase slug", ok.replace("slug: a-b", "slug: A-b"), /slug "A-b"/],
    ["a position that is not a whole number", ok.replace("position: 3", "position: 03"), /position "03"/],
    ["no text", ok.replace("# A\n\ntext\n", "\n"), /no text/],
    ["CR line endings", ok.replaceAll("\n", "\r\n"), /CR line endings/],
  ])("refuses %s, naming the file", (_what, text, why) => {
    expect(() => parseHelpArticle(text, "content/help/a-b.md")).toThrow(why);
    expect(() => parseHelpArticle(text, "content/help/a-b.md")).toThrow(/^content\/help\/a-b\.md: /);
  });
});

describe("readHelpArticles", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const folder = (files: Record<string, string>) => {
    dir = mkdtempSync(path.join(tmpdir(), "help-"));
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    return dir;
  };
  const article = (slug: string, position: number) => `---\nslug: ${slug}\ntitle: T\nsummary: S\nposition: ${position}\n---\n# ${slug}\n`;

  it("orders by position, not by name", () => {
    expect(readHelpArticles(folder({ "a.md": article("a", 1), "b.md": article("b", 0) })).map((a) => a.slug)).toEqual(["b", "a"]);
  });

  it("refuses a slug that is not the file's name", () => {
    expect(() => readHelpArticles(folder({ "a.md": article("b", 0) }))).toThrow(/slug "b" does not match/);
  });

  it("refuses two articles at one position", () => {
    expect(() => readHelpArticles(folder({ "a.md": article("a", 0), "b.md": article("b", 0) }))).toThrow(/a and b both have position 0/);
  });
});
