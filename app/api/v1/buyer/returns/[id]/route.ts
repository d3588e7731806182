import { oauthPrincipalOf } from "@/lib/auth/principal";
import { getReturn } from "@/lib/buyer";
import { getReturnEndpoint } from "@/lib/endpoints/buyer/orders";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(getReturnEndpoint, async ({ db, principal, params }) => ({ data: await getReturn(db, oauthPrincipalOf(principal).userId, params.id!) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
