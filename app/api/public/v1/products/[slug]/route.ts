import { getProduct } from "@/lib/catalog/product";
import { productEndpoint } from "@/lib/endpoints/public";
import { withCatalogReader } from "@/lib/http/database";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(productEndpoint, async ({ params }) => ({ data: await withCatalogReader((client) => getProduct(client, params.slug!)) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
