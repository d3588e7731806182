import { oauthPrincipalOf } from "@/lib/auth/principal";
import { createReturn } from "@/lib/buyer";
import { createReturnEndpoint } from "@/lib/endpoints/buyer/orders";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const POST = route(createReturnEndpoint, async ({ db, principal, params, body }) => ({
  status: 201,
  data: await createReturn(db, oauthPrincipalOf(principal).userId, params.id!, body),
}));
export const { OPTIONS, GET, PUT, PATCH, DELETE } = otherMethods(["POST"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
