import { errors, type Configuration, type KoaContextWithOIDC } from "oidc-provider";

type Resource = string | readonly string[] | undefined;
type ResourceIndicators = NonNullable<NonNullable<Configuration["features"]>["resourceIndicators"]>;

const SINGLE = "only a single resource indicator value must be requested/resolved during Access Token Request";

/**
 * The one resource (RFC 8707) a refresh issues its access token for, or the `invalid_target`
 * refusal: the rule of oidc-provider's refresh_token grant (helpers/resolve_resource.js, with
 * `useGrantedResource` on and userinfo off), except that a repeated `resource` parameter is refused
 * outright instead of handed to `defaultResource`, which would pick one without regard to what was
 * asked.
 *
 * `requested` is the request's `resource` parameter (an array when repeated), `granted` the refresh
 * token's resource(s), `pick` what `defaultResource` answers for a grant holding several.
 */
export function refreshResource(requested: Resource, granted: Resource, pick: Resource): string | undefined {
  if (Array.isArray(requested)) throw new errors.InvalidTarget(SINGLE);
  const grantedSet = new Set<string>(typeof granted === "string" ? [granted] : (granted ?? []));
  if (requested) {
    if (!grantedSet.has(requested as string)) throw new errors.InvalidTarget();
    return requested as string;
  }
  if (grantedSet.size === 0) return undefined;
  const resource = typeof granted === "string" ? granted : pick;
  if (Array.isArray(resource)) throw new errors.InvalidTarget(SINGLE);
  if (!resource || !grantedSet.has(resource as string)) throw new errors.InvalidTarget();
  return resource as string;
}

/**
 * oidc-provider's refresh_token grant consumes (rotates) the refresh token before it resolves the
 * requested resource, so an `invalid_target` came after the token was spent: the client's retry
 * with the right resource was then a reuse and ended the whole grant. Its one hook between its own
 * checks (client, expiry, grant, scope, account, reuse) and the rotation is `rotateRefreshToken`:
 * used as that option, this refuses there what the grant would refuse after rotating (the
 * resource, and the resource server's own check of it), so a refused refresh leaves the refresh
 * token and the grant as they were. It always rotates otherwise.
 */
export function rotateAfterResourceCheck({ defaultResource, getResourceServerInfo }: Pick<ResourceIndicators, "defaultResource" | "getResourceServerInfo">) {
  return async (ctx: KoaContextWithOIDC): Promise<true> => {
    const { RefreshToken: refreshToken, Client: client } = ctx.oidc.entities;
    if (!refreshToken || !client) return true;
    const granted = refreshToken.resource;
    const pick = Array.isArray(granted) ? await defaultResource?.(ctx, client, granted) : undefined;
    const resource = refreshResource(ctx.oidc.params?.resource as Resource, granted, pick);
    if (resource) await getResourceServerInfo?.(ctx, resource, client);
    return true;
  };
}
