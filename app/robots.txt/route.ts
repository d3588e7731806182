import { publicRoute } from "@/lib/http/route";
import { robotsTxt } from "@/lib/seo/robots";

// PUBLIC_BASE_URL is read at request time, not baked in at build.
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "seo.robots", limit: "catalog", cache: "crawler" }, async () => ({
  text: robotsTxt(),
  contentType: "text/plain; charset=utf-8",
}));
