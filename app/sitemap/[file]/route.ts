import { AppError } from "@/lib/errors";
import { publicRoute } from "@/lib/http/route";
import { XML_CONTENT_TYPE, parseSitemapFileName, sitemapFile } from "@/lib/seo/sitemap";

// One file of the split sitemap (/sitemap/0.xml, ...), listed by the index at /sitemap.xml.
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "seo.sitemap_file", limit: "catalog", cache: "crawler" }, async ({ params, db }) => {
  const index = parseSitemapFileName(params.file ?? "");
  const text = index === null ? null : await sitemapFile(db, index);
  if (text === null) throw new AppError("route_not_found", "No such sitemap file; see /sitemap.xml.");
  return { text, contentType: XML_CONTENT_TYPE };
});
