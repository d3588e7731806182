import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { listWebhookDeliveriesEndpoint } from "@/lib/endpoints/seller/webhooks";
import { listWebhookDeliveries } from "@/lib/seller/webhooks";

export const GET = route(listWebhookDeliveriesEndpoint, async ({ db, principal, query }) => listWebhookDeliveries(db, storeIdOf(principal), query));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
