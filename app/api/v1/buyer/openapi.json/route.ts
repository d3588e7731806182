import { buyerOpenApiEndpoint } from "@/lib/endpoints/buyer/openapi";
import { buyerOpenApiDocument } from "@/lib/openapi/buyer";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(buyerOpenApiEndpoint, async () => ({ document: buyerOpenApiDocument() }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
