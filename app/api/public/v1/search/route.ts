import { searchProducts } from "@/lib/catalog/search";
import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { SearchQuery } from "@/lib/schemas/catalog";

export const GET = publicRoute({ name: "public.search", limit: "catalog", query: SearchQuery, cache: "catalog" }, ({ query }) =>
  searchProducts(query),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
