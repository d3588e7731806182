import { ipAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { businessProfile } from "@/lib/protocols/ucp";

export const dynamic = "force-dynamic";

/** The UCP business profile (lib/protocols/ucp/profile.ts): no UCP headers needed, cacheable for an hour. */
export const GET = pipeline("ucp.profile", [observe, ...ipAccess("catalog").policies], async () =>
  Response.json(businessProfile(), { headers: { "Cache-Control": "public, max-age=3600" } }),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
