import { ipAccess } from "@/lib/http/access";
import { defineEndpoint } from "@/lib/http/describe";
import { z } from "@/lib/schemas/zod";

/** `GET /api/v1/openapi.json`: no key needed, no CORS (decisions.md), cacheable for 5 minutes. */
export const sellerOpenApiEndpoint = defineEndpoint({
  name: "seller.openapi",
  method: "GET",
  path: "/openapi.json",
  operationId: "getSellerOpenApiDocument",
  summary: "This document",
  description: "The OpenAPI 3.1 description of the seller API. Needs no key.",
  tags: ["Meta"],
  access: ipAccess("catalog"),
  cache: "document",
  success: { status: 200, description: "The OpenAPI 3.1 document (not wrapped in an envelope).", schema: z.object({}).passthrough() },
  errors: [],
});
