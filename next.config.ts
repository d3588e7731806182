import { enableCompileCache } from "node:module";
import path from "node:path";
import type { NextConfig } from "next";

// The server's code (Next's and the app's chunks) is compiled by V8 once and kept in .next/cache:
// a restart loads it from there (about a quarter of a second less before the first answer on
// this machine kind; README, Run it). `next start` reads this file before it loads the chunks.
enableCompileCache(path.join(process.cwd(), ".next", "cache", "node-compile"));

// Logged-out storefront pages are the same for everyone: a CDN may keep them as long as the
// public API's catalog reads (spec section 8). Pages with a visitor's own state (cart, account,
// seller) are not listed and stay private.
const PUBLIC_PAGES = ["/", "/search", "/c/:slug", "/p/:slug", "/s/:slug", "/help", "/help/:slug"];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  experimental: {
    // forbidden(): the seller dashboard answers 403 to a signed-in account that owns no store.
    authInterrupts: true,
    // `next start` would otherwise load every route's code right after Ready, on the thread that
    // answers the first request, which waited for all of it (README, Run it). Each route's code
    // loads on its first request instead.
    preloadEntriesOnStart: false,
  },
  // The database drivers run on the Node runtime, unbundled (PGlite loads its WebAssembly and
  // extension files from its own package folder).
  // oidc-provider (the OAuth authorization server) is a Node (Koa) application, loaded as is.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "@electric-sql/pglite", "pglite-prisma-adapter", "oidc-provider"],
  async headers() {
    return [
      ...PUBLIC_PAGES.map((source) => ({
        source,
        headers: [{ key: "Cache-Control", value: "public, s-maxage=60" }],
      })),
      // A cart link's token is a bearer secret: keep it out of Referer headers and search indexes.
      {
        source: "/cart/l/:token",
        headers: [
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Robots-Tag", value: "noindex" },
        ],
      },
    ];
  },
};

export default nextConfig;
