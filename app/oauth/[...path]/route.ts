import { pipeline } from "@/lib/http/pipeline";
import { observe } from "@/lib/http/policies/observe";
import { oauthRateLimit } from "@/lib/http/policies/oauth-rate-limit";
import { serveOAuth } from "@/lib/oauth/bridge";

export const dynamic = "force-dynamic";

/** The OAuth authorization server (oidc-provider): /oauth/authorize, /oauth/token, /oauth/register, /oauth/revoke, /oauth/jwks. */
const handler = pipeline("oauth", [observe, oauthRateLimit], (ctx) => serveOAuth(ctx.request, ctx.ip));

export const GET = handler;
export const POST = handler;
export const OPTIONS = handler;
