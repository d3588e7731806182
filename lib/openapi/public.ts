import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import {
  CategoriesMeta,
  CategoryNode,
  ProductCard,
  ProductPath,
  ProductRecord,
  RequestMeta,
  SearchMeta,
  SearchQuery,
} from "@/lib/schemas/catalog";
import { ErrorEnvelope } from "@/lib/schemas/errors";
import { z } from "@/lib/schemas/zod";

const requestIdHeader = z.string().openapi({ description: "Same value as meta.request_id / error.request_id." });
const cacheHeaders = {
  "X-Request-Id": requestIdHeader,
  "Cache-Control": z.string().openapi({ description: "Shared-cacheable: `public, s-maxage=60` (categories and this document: 300)." }),
  ETag: z.string().openapi({ description: "Send it back in If-None-Match to revalidate for free (304)." }),
};

function json(description: string, schema: z.ZodType, headers: Record<string, z.ZodType> = { "X-Request-Id": requestIdHeader }): ResponseConfig {
  return { description, headers: z.object(headers), content: { "application/json": { schema } } };
}

const errors = {
  400: json("Invalid request; `error.param` names the parameter.", ErrorEnvelope),
  429: json("Rate limit exceeded; retry after `Retry-After` seconds.", ErrorEnvelope, {
    "X-Request-Id": requestIdHeader,
    "Retry-After": z.string().openapi({ description: "Whole seconds until a request is allowed again." }),
  }),
  500: json("Internal error; the body never carries internals.", ErrorEnvelope),
};
const notModified = { description: "Not modified (If-None-Match matched the ETag)." };

function buildDocument() {
  const registry = new OpenAPIRegistry();
  registry.register("Error", ErrorEnvelope);

  registry.registerPath({
    method: "get",
    path: "/search",
    operationId: "searchProducts",
    summary: "Search the catalog",
    description:
      "Full-text and faceted search over purchasable offers; the same ranking, filters and facet counts as the storefront search page. Offer-level filters (condition, price) match products that have one purchasable offer satisfying all of them; the card's min_price_cents and offer_count are computed over those offers.",
    tags: ["Catalog"],
    request: { query: SearchQuery },
    responses: {
      200: json("Product cards and search meta.", z.object({ data: z.array(ProductCard), meta: SearchMeta }).strict(), cacheHeaders),
      304: notModified,
      ...errors,
    },
  });

  registry.registerPath({
    method: "get",
    path: "/products/{slug}",
    operationId: "getProduct",
    summary: "Retrieve a product with its offers and buy box",
    tags: ["Catalog"],
    request: { params: ProductPath },
    responses: {
      200: json("The product record.", z.object({ data: ProductRecord, meta: RequestMeta }).strict(), cacheHeaders),
      304: notModified,
      404: json("No publicly listed product has this slug.", ErrorEnvelope),
      429: errors[429],
      500: errors[500],
    },
  });

  registry.registerPath({
    method: "get",
    path: "/categories",
    operationId: "getCategories",
    summary: "The active category tree",
    tags: ["Catalog"],
    responses: {
      200: json("Every active category as a nested tree.", z.object({ data: z.array(CategoryNode), meta: CategoriesMeta }).strict(), cacheHeaders),
      304: notModified,
      429: errors[429],
      500: errors[500],
    },
  });

  registry.registerPath({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This document",
    tags: ["Meta"],
    responses: {
      200: { description: "The OpenAPI 3.1 description of the public API.", content: { "application/json": { schema: z.object({}).passthrough() } } },
      304: notModified,
      429: errors[429],
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Marketplace public catalog API",
      version: "1.0.0",
      description:
        "Unauthenticated, read-only view of the marketplace catalog: exactly what a logged-out visitor sees on the storefront. Money is integer cents (USD). Inventory depth is never exposed; offers carry only `in_stock`. Send a descriptive User-Agent, reuse cacheable responses (ETag / If-None-Match) and honour Retry-After. Errors use one envelope: `{ error: { type, code, message, param?, request_id } }`.",
    },
    servers: [{ url: "/api/public/v1" }],
    // Deliberately public: no account, no key.
    security: [],
    tags: [
      { name: "Catalog", description: "What a logged-out visitor sees: search, products with offers, categories." },
      { name: "Meta", description: "This description of the API." },
    ],
  });
}

let cached: ReturnType<typeof buildDocument> | undefined;

export function publicOpenApiDocument() {
  cached ??= buildDocument();
  return cached;
}
