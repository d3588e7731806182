import { notFoundRoute } from "@/lib/http/not-found";

// Any other path under the public API answers with the error envelope, whatever the method.
export const { GET, POST, PUT, PATCH, DELETE } = notFoundRoute("See /api/public/v1/openapi.json.");
