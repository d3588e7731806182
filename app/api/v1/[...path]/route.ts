import { sellerFallbackAccess } from "@/lib/http/access";
import { notFoundRoute } from "@/lib/http/not-found";

// Any other path under the seller API answers with the error envelope, whatever the method (no CORS).
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute("See /api/v1/openapi.json.", { access: sellerFallbackAccess(), name: "seller.not_found" });
