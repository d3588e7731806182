import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { getWebhookDeliveryEndpoint } from "@/lib/endpoints/seller/webhooks";
import { getWebhookDelivery } from "@/lib/seller/webhooks";

export const GET = route(getWebhookDeliveryEndpoint, async ({ db, principal, params }) => ({ data: await getWebhookDelivery(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
