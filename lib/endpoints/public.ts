import type { QueryInterpretation } from "@/lib/catalog/search";
import { publicAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { CartLinkRequest, CartLinkResponse } from "@/lib/schemas/cart";
import { CategoriesResponse, ProductPath, ProductResponse, SearchQuery, SearchResponse } from "@/lib/schemas/catalog";
import { z } from "@/lib/schemas/zod";

/** Operations of the public API (/api/public/v1): the routes use them, its openapi.json lists them. */

export const searchEndpoint = defineEndpoint({
  name: "public.search",
  method: "GET",
  path: "/search",
  operationId: "searchProducts",
  summary: "Search the catalog",
  description:
    "Full-text and faceted search over purchasable offers; the same ranking, filters and facet counts as the storefront search page. Offer-level filters (condition, price) match products that have one purchasable offer satisfying all of them; the card's min_price_cents and offer_count are computed over those offers.",
  tags: ["Catalog"],
  access: publicAccess("catalog"),
  query: SearchQuery,
  cache: "catalog",
  success: {
    status: 200,
    description: "Product cards and search meta. When `q` was read other than word for word, the headers X-Corrected-Query and X-Query-Relaxed say how.",
    schema: SearchResponse,
    headers: ["CorrectedQuery", "QueryRelaxed"],
  },
  errors: [],
});

/** The headers that say how `q` was read (meta keeps exactly its spec fields). */
export function interpretationHeaders(interpretation: QueryInterpretation): Record<string, string> {
  return {
    ...(interpretation.corrected === null ? {} : { "X-Corrected-Query": encodeURIComponent(interpretation.corrected) }),
    ...(interpretation.relaxed ? { "X-Query-Relaxed": "true" } : {}),
  };
}

export const productEndpoint = defineEndpoint({
  name: "public.product",
  method: "GET",
  path: "/products/{slug}",
  operationId: "getProduct",
  summary: "Retrieve a product with its offers and buy box",
  tags: ["Catalog"],
  access: publicAccess("catalog"),
  params: ProductPath,
  cache: "catalog",
  success: { status: 200, description: "The product record.", schema: ProductResponse },
  errors: ["product_not_found"],
});

export const categoriesEndpoint = defineEndpoint({
  name: "public.categories",
  method: "GET",
  path: "/categories",
  operationId: "getCategories",
  summary: "The active category tree",
  tags: ["Catalog"],
  access: publicAccess("catalog"),
  cache: "categories",
  success: { status: 200, description: "Every active category as a nested tree.", schema: CategoriesResponse },
  errors: [],
});

export const cartLinksEndpoint = defineEndpoint({
  name: "public.cart_links",
  method: "POST",
  path: "/cart-links",
  operationId: "createCartLink",
  summary: "Create a cart link for a human to open",
  description:
    "Turns offers (listing ids from GET /products/{slug}) into a link that a person opens to fill their own cart. It places no order, reserves no stock and creates no cart until a person opens it; price and availability are checked again at that moment, so there is no price guarantee. Repeated listing ids are summed. Lines that cannot be bought now are left out and listed in `rejected` with a generic reason. A line of more than one unit is compared with the offer's stock only while that offer's probe budget lasts (a few comparisons a day, shared by all clients, so that stock counts cannot be learned by asking); after that it is accepted unchecked and checked again when the link is opened. The link expires after 7 days. Responses are never cached.",
  tags: ["Cart links"],
  access: publicAccess("cart_links"),
  body: CartLinkRequest,
  success: { status: 200, description: "At least one line was accepted.", schema: CartLinkResponse },
  errors: ["no_purchasable_lines"],
});

export const publicOpenApiEndpoint = defineEndpoint({
  name: "public.openapi",
  method: "GET",
  path: "/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This document",
  tags: ["Meta"],
  access: publicAccess("catalog"),
  cache: "document",
  success: { status: 200, description: "The OpenAPI 3.1 description of the public API.", schema: z.object({}).passthrough() },
  errors: [],
});

export const PUBLIC_ENDPOINTS: Endpoint[] = [searchEndpoint, productEndpoint, categoriesEndpoint, cartLinksEndpoint, publicOpenApiEndpoint];
