import { publicRoute } from "@/lib/http/route";
import { llmsTxt } from "@/lib/seo/llms-txt";

// Help articles come from the database at request time.
export const dynamic = "force-dynamic";

export const GET = publicRoute({ name: "seo.llms_txt", limit: "catalog", cache: "document" }, async ({ db }) => ({
  text: await llmsTxt(db),
  contentType: "text/plain; charset=utf-8",
}));
