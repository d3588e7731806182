import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import { onCatalogChange } from "@/lib/db/changes";

/**
 * Does a storefront page for a slug exist, decided before the page renders?
 *
 * A page that calls notFound() while rendering gets Next's error shell: a 404 whose body is empty
 * without JavaScript (vercel/next.js #98954), sent with the path's shared-cache header. The proxy
 * asks this module first and sends a missing product, category, store or help article to the
 * not-found page (rendered HTML, never stored by a shared cache). The conditions here are the
 * pages' own: a publicly listed product (getProduct), an active category under active ancestors
 * (findCategory), an active store (getPublicStore), a published help article (getHelpArticle).
 *
 * Only "exists" is remembered, briefly: a product that becomes visible shows at once, and one that
 * stops being visible is forgotten by the page that finds it gone (forgetStorefrontPage). Every
 * catalog change the database reports (lib/db/changes.ts) clears what was remembered, in every
 * process; help articles are not reported, their pages forget them.
 */

export type StorefrontPageKind = "product" | "category" | "store" | "help";

export interface StorefrontPageRef {
  kind: StorefrontPageKind;
  slug: string;
}

const PREFIXES: Record<string, StorefrontPageKind> = { p: "product", c: "category", s: "store", help: "help" };

// The slugs the pages' loaders accept; anything else is not found without a query.
const SLUG: Record<StorefrontPageKind, RegExp> = {
  product: /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/,
  category: /^[a-z0-9_]{1,200}$/,
  store: /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/,
  help: /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/,
};

/**
 * The page a path names (`/p/{slug}`, `/c/{slug}`, `/s/{slug}`, `/help/{slug}`, a trailing slash
 * allowed), its slug percent-decoded as the page receives it; null for any other path.
 */
export function storefrontPageOf(pathname: string): StorefrontPageRef | null {
  const match = /^\/(p|c|s|help)\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  return { kind: PREFIXES[match[1]!]!, slug };
}

const ttlMs = Number(process.env.STOREFRONT_EXISTS_TTL_MS ?? 10_000);

// One per process, on globalThis: the proxy and the pages are separate bundles in one process,
// and a page that finds its subject gone must clear what the proxy remembered.
const holder = globalThis as unknown as { __storefrontPagesSeen?: LRUCache<string, true>; __storefrontPageChanges?: number };
function seen(): LRUCache<string, true> | null {
  if (!(ttlMs > 0)) return null;
  if (!holder.__storefrontPagesSeen) {
    const cache = new LRUCache<string, true>({ max: 10_000, ttl: ttlMs });
    // Which products, stores or categories stopped existing is not worth working out: forget all.
    onCatalogChange((change) => {
      if (change.kind !== "products") return;
      holder.__storefrontPageChanges = (holder.__storefrontPageChanges ?? 0) + 1;
      cache.clear();
    });
    holder.__storefrontPagesSeen = cache;
  }
  return holder.__storefrontPagesSeen;
}

const key = ({ kind, slug }: StorefrontPageRef) => `${kind}:${slug}`;

/** Whether the page exists now: one indexed lookup, or none when it was seen in the last seconds. */
export async function storefrontPageExists(page: StorefrontPageRef): Promise<boolean> {
  if (!SLUG[page.kind].test(page.slug)) return false;
  const cache = seen();
  if (cache?.has(key(page))) return true;
  const changesBefore = holder.__storefrontPageChanges;
  const exists = await lookup(page);
  // A change heard during the lookup may have committed after its snapshot: remember nothing then.
  if (exists && holder.__storefrontPageChanges === changesBefore) cache?.set(key(page), true);
  return exists;
}

/** Called by a page that found its subject gone: the next request asks the database again. */
export function forgetStorefrontPage(page: StorefrontPageRef): void {
  holder.__storefrontPagesSeen?.delete(key(page));
}

async function lookup({ kind, slug }: StorefrontPageRef): Promise<boolean> {
  const client = db();
  let rows: unknown[];
  switch (kind) {
    case "product":
      rows = await client.$queryRaw`SELECT 1 FROM products WHERE slug = ${slug} AND publicly_listed`;
      break;
    case "category":
      rows = await client.$queryRaw`
        SELECT 1 FROM categories c
        WHERE c.slug = ${slug}
          AND NOT EXISTS (SELECT 1 FROM categories a WHERE a.path @> c.path AND NOT a.active)`;
      break;
    case "store":
      rows = await client.$queryRaw`SELECT 1 FROM stores WHERE slug = ${slug} AND status = 'active'`;
      break;
    case "help":
      rows = await client.$queryRaw`SELECT 1 FROM help_articles WHERE slug = ${slug} AND published`;
      break;
  }
  return rows.length > 0;
}
