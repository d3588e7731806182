import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createWebhookEndpointEndpoint, listWebhookEndpointsEndpoint } from "@/lib/endpoints/seller/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "@/lib/seller/webhooks";

export const GET = route(listWebhookEndpointsEndpoint, async ({ db, principal, query }) => listWebhookEndpoints(db, storeIdOf(principal), query));
export const POST = route(createWebhookEndpointEndpoint, async ({ db, principal, body }) => ({ status: 201, data: await createWebhookEndpoint(db, storeIdOf(principal), body) }));
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods(["GET", "POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
