import { storeIdOf } from "@/lib/auth/principal";
import { createShippingTemplateEndpoint, listShippingTemplatesEndpoint } from "@/lib/endpoints/seller/shipping";
import { sellerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { createShippingTemplate, listShippingTemplates } from "@/lib/seller/shipping-templates";

export const GET = route(listShippingTemplatesEndpoint, async ({ db, principal, query }) => listShippingTemplates(db, storeIdOf(principal), query));
export const POST = route(createShippingTemplateEndpoint, async ({ db, principal, body }) => ({
  status: 201,
  data: await createShippingTemplate(db, storeIdOf(principal), body),
}));
export const { OPTIONS, PUT, PATCH, DELETE } = otherMethods(["GET", "POST"], { access: sellerFallbackAccess(), name: "seller.method_not_allowed" });
