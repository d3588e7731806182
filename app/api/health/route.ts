import { publicAccess } from "@/lib/http/access";
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/http/errors";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { checkHealth } from "@/lib/maintenance/health";

/** The process's health (lib/maintenance/health.ts): 200 while it can serve, 503 without its database. */
export const GET = pipeline("health", [observe, ...publicAccess("catalog").policies], async () => {
  const health = await checkHealth();
  const unavailable = health.status === "unavailable";
  return Response.json(health, { status: unavailable ? 503 : 200, headers: unavailable ? { "Retry-After": String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {} });
});
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
