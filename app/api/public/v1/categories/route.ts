import { getCategoryTree } from "@/lib/catalog/categories";
import { categoriesEndpoint } from "@/lib/endpoints/public";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(categoriesEndpoint, () => getCategoryTree());
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
