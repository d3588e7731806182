import { publicOpenApiEndpoint } from "@/lib/endpoints/public";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { publicOpenApiDocument } from "@/lib/openapi/public";

export const GET = route(publicOpenApiEndpoint, async () => ({ document: publicOpenApiDocument() }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
