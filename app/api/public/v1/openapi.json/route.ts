import { otherMethods } from "@/lib/http/methods";
import { publicRoute } from "@/lib/http/route";
import { publicOpenApiDocument } from "@/lib/openapi/public";

export const GET = publicRoute({ name: "public.openapi", limit: "catalog", cache: "document" }, async () => ({
  document: publicOpenApiDocument(),
}));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
