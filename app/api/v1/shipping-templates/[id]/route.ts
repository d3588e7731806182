import { storeIdOf } from "@/lib/auth/principal";
import { updateShippingTemplateEndpoint } from "@/lib/endpoints/seller/shipping";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { updateShippingTemplate } from "@/lib/seller/shipping-templates";

export const PATCH = route(updateShippingTemplateEndpoint, async ({ db, principal, params, body }) => ({
  data: await updateShippingTemplate(db, storeIdOf(principal), params.id!, body),
}));
export const { OPTIONS, GET, POST, PUT, DELETE } = otherMethods(["PATCH"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
