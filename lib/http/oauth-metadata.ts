import { serveOAuth } from "@/lib/oauth/bridge";
import { protectedResourceMetadata, type ResourceName } from "@/lib/oauth/resources";
import { preflightResponse } from "./cors";
import { pipeline } from "./pipeline";
import { observe } from "./policies/observe";
import { publicCors } from "./policies/public-cors";

/**
 * Routes of the public OAuth metadata documents: JSON, any origin (CORS `*`, preflight included),
 * cacheable for a few minutes.
 */
function metadataRoute(name: string, body: (request: Request, ip: string) => Promise<Response>) {
  const get = pipeline(name, [observe, publicCors], async (ctx) => {
    const response = await body(ctx.request, ctx.ip);
    const headers = new Headers(response.headers);
    headers.set("Cache-Control", "public, max-age=300");
    headers.set("Access-Control-Allow-Origin", "*");
    return new Response(response.body, { status: response.status, headers });
  });
  return { GET: get, OPTIONS: async () => preflightResponse(["GET"], ["MCP-Protocol-Version"]) };
}

/** RFC 8414 authorization server metadata (oidc-provider's discovery document). */
export function authorizationServerMetadataRoute() {
  return metadataRoute("oauth.metadata", (request, ip) => serveOAuth(new Request(request.url, { method: "GET" }), ip, "/.well-known/openid-configuration"));
}

/** RFC 9728 protected resource metadata of `resource`. */
export function protectedResourceMetadataRoute(resource: ResourceName) {
  return metadataRoute("oauth.resource_metadata", async () => Response.json(protectedResourceMetadata(resource)));
}
