import { AppError } from "@/lib/errors";
import { publicRoute } from "@/lib/http/route";

// Any other path under the public API answers with the error envelope, whatever the method.
const notFound = publicRoute({ name: "public.not_found", limit: "catalog" }, async ({ request }) => {
  throw new AppError("route_not_found", `No endpoint at ${request.nextUrl.pathname}. See /api/public/v1/openapi.json.`);
});
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
