import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { deleteWebhookEndpointEndpoint, getWebhookEndpointEndpoint, updateWebhookEndpointEndpoint } from "@/lib/endpoints/seller/webhooks";
import { deleteWebhookEndpoint, getWebhookEndpoint, updateWebhookEndpoint } from "@/lib/seller/webhooks";

export const GET = route(getWebhookEndpointEndpoint, async ({ db, principal, params }) => ({ data: await getWebhookEndpoint(db, storeIdOf(principal), params.id!) }));
export const PATCH = route(updateWebhookEndpointEndpoint, async ({ db, principal, params, body }) => ({
  data: await updateWebhookEndpoint(db, storeIdOf(principal), params.id!, body),
}));
export const DELETE = route(deleteWebhookEndpointEndpoint, async ({ db, principal, params }) => ({ data: await deleteWebhookEndpoint(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, POST, PUT } = otherMethods(["GET", "PATCH", "DELETE"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
