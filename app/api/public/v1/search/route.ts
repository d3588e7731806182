import { searchProducts } from "@/lib/catalog/search";
import { interpretationHeaders, searchEndpoint } from "@/lib/endpoints/public";
import { withCatalogReader } from "@/lib/http/database";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(searchEndpoint, async ({ query }) => {
  const { data, meta, interpretation } = await withCatalogReader((client) => searchProducts(client, query));
  return { data, meta, headers: interpretationHeaders(interpretation) };
});
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
