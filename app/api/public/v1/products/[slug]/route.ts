import { getProduct } from "@/lib/catalog/product";
import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";

export const GET = publicRoute({ name: "public.product", limit: "catalog", cache: "catalog" }, async ({ params }) => ({
  data: await getProduct(params.slug!),
}));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
