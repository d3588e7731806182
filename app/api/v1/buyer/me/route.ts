import { oauthPrincipalOf } from "@/lib/auth/principal";
import { getProfile } from "@/lib/buyer";
import { getProfileEndpoint } from "@/lib/endpoints/buyer/profile";
import { buyerFallbackAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";

export const GET = route(getProfileEndpoint, async ({ db, principal }) => ({ data: await getProfile(db, oauthPrincipalOf(principal).userId) }));
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"], { access: buyerFallbackAccess(), name: "buyer.method_not_allowed" });
