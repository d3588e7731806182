import { publicRoute } from "@/lib/http/route";
import { XML_CONTENT_TYPE, sitemapRoot } from "@/lib/seo/sitemap";

// Read from the database per request (a CDN keeps it for an hour); never prerendered at build.
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "seo.sitemap", limit: "catalog", cache: "crawler" }, async ({ db }) => ({
  text: await sitemapRoot(db),
  contentType: XML_CONTENT_TYPE,
}));
