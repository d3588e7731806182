import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { replayWebhookDeliveryEndpoint } from "@/lib/endpoints/seller/webhooks";
import { replayWebhookDelivery } from "@/lib/seller/webhooks";

export const POST = route(replayWebhookDeliveryEndpoint, async ({ db, principal, params }) => ({ status: 201, data: await replayWebhookDelivery(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
