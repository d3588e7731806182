import { ipAccess } from "@/lib/http/access";
import { otherMethods } from "@/lib/http/methods";
import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { acpDiscovery } from "@/lib/protocols/acp";

export const dynamic = "force-dynamic";

/** ACP discovery (lib/protocols/acp/discovery.ts): no authentication, cacheable for an hour. */
export const GET = pipeline("acp.discovery", [observe, ...ipAccess("catalog").policies], async () =>
  Response.json(acpDiscovery(), { headers: { "Cache-Control": "public, max-age=3600" } }),
);
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
