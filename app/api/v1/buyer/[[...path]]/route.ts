import { buyerFallbackAccess } from "@/lib/http/access";
import { notFoundRoute } from "@/lib/http/not-found";

// Any other path under the buyer API (its base included) answers with the error envelope, whatever the method (no CORS).
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute("See /api/v1/buyer/openapi.json.", { access: buyerFallbackAccess(), name: "buyer.not_found" });
