import { storeIdOf } from "@/lib/auth/principal";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { rotateWebhookSecretEndpoint } from "@/lib/endpoints/seller/webhooks";
import { rotateWebhookSecret } from "@/lib/seller/webhooks";

export const POST = route(rotateWebhookSecretEndpoint, async ({ db, principal, params }) => ({ data: await rotateWebhookSecret(db, storeIdOf(principal), params.id!) }));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
