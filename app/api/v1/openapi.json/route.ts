import { sellerOpenApiEndpoint } from "@/lib/endpoints/seller/openapi";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { sellerOpenApiDocument } from "@/lib/openapi/seller";

export const GET = route(sellerOpenApiEndpoint, async () => ({ document: sellerOpenApiDocument() }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
