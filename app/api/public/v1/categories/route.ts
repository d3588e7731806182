import { getCategoryTree } from "@/lib/catalog/categories";
import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";

export const GET = publicRoute({ name: "public.categories", limit: "catalog", cache: "categories" }, () => getCategoryTree());
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
