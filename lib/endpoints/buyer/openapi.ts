import { ipAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { z } from "@/lib/schemas/zod";

/** `GET /api/v1/buyer/openapi.json`: no token needed, no CORS, cacheable for 5 minutes. */
export const buyerOpenApiEndpoint = defineEndpoint({
  name: "buyer.openapi",
  method: "GET",
  path: "/openapi.json",
  operationId: "getBuyerOpenApiDocument",
  summary: "This document",
  description: "The OpenAPI 3.1 description of the buyer API. Needs no token.",
  tags: ["Meta"],
  access: ipAccess("catalog"),
  cache: "document",
  success: { status: 200, description: "The OpenAPI 3.1 document (not wrapped in an envelope).", schema: z.object({}).passthrough() },
  errors: [],
});
