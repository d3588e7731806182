import { searchProducts } from "@/lib/catalog/search";
import { searchEndpoint } from "@/lib/endpoints/public";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(searchEndpoint, ({ query }) => searchProducts(query));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
