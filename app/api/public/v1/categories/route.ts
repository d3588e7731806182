import { getCategoryTree } from "@/lib/catalog/categories";
import { categoriesEndpoint } from "@/lib/endpoints/public";
import { withCatalogReader } from "@/lib/http/database";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(categoriesEndpoint, () => withCatalogReader(getCategoryTree));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
