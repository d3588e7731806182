import { absoluteUrl } from "@/lib/config";

/**
 * robots.txt: crawl the storefront, not the APIs (agents use those through llms.txt, which
 * crawlers may read), nor the personal pages (carts, cart links, account, seller dashboard,
 * OAuth consent). The OpenAPI document is allowed explicitly: the longer rule wins.
 */
export function robotsTxt(): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Allow: /api/public/v1/openapi.json",
    "Disallow: /api/",
    "Disallow: /cart",
    "Disallow: /account",
    "Disallow: /seller",
    "Disallow: /oauth",
    "",
    `Sitemap: ${absoluteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
}
