import { createPrivateKey } from "node:crypto";
import Provider, { errors, type Configuration, type JWK, type KoaContextWithOIDC } from "oidc-provider";
import { BUYER_SCOPES } from "@/lib/auth/scopes";
import { config } from "@/lib/config";
import { derivedKey } from "@/lib/keys";
import { db } from "@/lib/db";
import { isUuid } from "@/lib/ids";
import { logEvent } from "@/lib/log";
import { PrismaOAuthAdapter } from "./adapter";
import { rotateAfterResourceCheck } from "./refresh";
import { CIMD_MAX_BYTES, guardedFetch } from "./cimd-fetch";
import { DEFAULT_RESOURCE, issuer, OAUTH_MOUNT, resourceNamed, resourceUrl } from "./resources";

/** Where oidc-provider sends the browser for sign-in and consent (app/oauth/consent/[uid]). */
export const CONSENT_PATH = `${OAUTH_MOUNT}/consent`;

/** Lifetimes (seconds), decisions.md: codes 60 s, access tokens 15 min, refresh tokens 30 days, grants 90 days unused. */
export const TTL = {
  AuthorizationCode: 60,
  AccessToken: 900,
  RefreshToken: 30 * 24 * 3600,
  /** Extended to a full 90 days again at every use of the token endpoint (see `extendGrant`). */
  Grant: 90 * 24 * 3600,
  /** Sign-in and consent must happen within 10 minutes of the authorization request. */
  Interaction: 600,
  /** oidc-provider's own sign-in state: the app's session is the real one, so this stays short. */
  Session: 600,
  /** Only when a client asks for `openid` (an ID token naming the account id, nothing more). */
  IdToken: 900,
} as const;

/** Key material derived from AUTH_SECRET (lib/keys.ts): every instance agrees and nothing is stored. */
function derive(info: string, length = 32): Buffer {
  return derivedKey("marketplace-oauth", info, length);
}

/**
 * The ID-token signing key: Ed25519 from a derived seed. Access tokens are opaque and need no key;
 * an ID token is issued only when a client asks for `openid`.
 */
function signingJwk(): JWK {
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), derive("id-token-signing-key/ed25519/v1")]);
  const jwk = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return { ...jwk, alg: "EdDSA", use: "sig" } as JWK;
}

async function findAccount(_ctx: KoaContextWithOIDC, sub: string) {
  if (!isUuid(sub)) return undefined;
  const user = await db().user.findUnique({ where: { id: sub }, select: { id: true } });
  if (!user) return undefined;
  return { accountId: user.id, claims: () => ({ sub: user.id }) };
}

function configuration(): Configuration {
  const buyerScope = BUYER_SCOPES.join(" ");
  const resourceIndicators = {
    defaultResource: () => resourceUrl(DEFAULT_RESOURCE),
    getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
      // The route rewrote a recognised indicator to its exact URL; anything else names no resource.
      const name = resourceNamed(indicator);
      if (!name || resourceUrl(name) !== indicator) throw new errors.InvalidTarget();
      return { audience: resourceUrl(name), scope: buyerScope, accessTokenFormat: "opaque" as const, accessTokenTTL: TTL.AccessToken };
    },
  };
  return {
    // The process's authorization server keeps its records with the process's client.
    adapter: (model: string) => new PrismaOAuthAdapter(db(), model),
    findAccount,
    // The buyer scopes are configured scopes so that they appear in `scopes_supported`; oidc-provider
    // then treats them as OpenID scopes too (see the consent route). No `offline_access`: refresh
    // tokens are issued without it.
    scopes: ["openid", ...BUYER_SCOPES],
    claims: { openid: ["sub"] },
    responseTypes: ["code"],
    // Public clients only (PKCE, no client secret): nothing secret to keep for a client.
    clientAuthMethods: ["none"],
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    jwks: { keys: [signingJwk()] },
    cookies: {
      keys: [derive("cookie-signing-key/v1").toString("base64url")],
      names: { session: "oauth_session", interaction: "oauth_interaction", resume: "oauth_resume" },
    },
    pkce: { required: () => true },
    routes: {
      authorization: "/authorize",
      token: "/token",
      registration: "/register",
      revocation: "/revoke",
      jwks: "/jwks",
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    // Every authorization asks the holder again: a new grant (one connection on /account/agents) per consent.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    expiresWithSession: () => false,
    // RFC 7009 revocation of either token of a grant ends the whole grant, which is the holder's
    // connection on /account/agents. oidc-provider already destroys every token of the grant in
    // both cases, but by default keeps the Grant itself when an access token is revoked: the
    // connection would stay listed, and counted, with no token left to use. (Revoking a refresh
    // token, or reusing a rotated-out one, ends the Grant by default.)
    revokeGrantPolicy: () => true,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    // Every refresh rotates; the resource is checked before the old token is spent (lib/oauth/refresh.ts).
    rotateRefreshToken: rotateAfterResourceCheck(resourceIndicators),
    ttl: {
      AuthorizationCode: TTL.AuthorizationCode,
      AccessToken: TTL.AccessToken,
      RefreshToken: TTL.RefreshToken,
      Grant: TTL.Grant,
      Interaction: TTL.Interaction,
      Session: TTL.Session,
      IdToken: TTL.IdToken,
    },
    // Browsers may call the token and revocation endpoints from the origin of a registered redirect URI.
    clientBasedCORS: (_ctx, origin, client) => origin !== "null" && (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    fetch: guardedFetch(() => config().oauthCimdAllowLoopback),
    fetchResponseBodyLimits: { "client_id metadata document": CIMD_MAX_BYTES },
    features: {
      devInteractions: { enabled: false },
      // Tokens are Bearer tokens: the resources do not check DPoP proofs, so none are bound.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      revocation: { enabled: true },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
      },
      resourceIndicators: { enabled: true, useGrantedResource: () => true, ...resourceIndicators },
    },
    renderError: (ctx, out) => {
      ctx.type = "html";
      ctx.body = errorPage(out);
    },
  };
}

function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page a browser sees when an authorization request cannot go back to its client. */
export function errorPage(out: { error?: string; error_description?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Authorization failed</title></head>
<body><main style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 2rem auto; padding: 0 1rem">
<h1>This authorization request cannot go on</h1><p>${escapeHtml(out.error_description ?? "The request is invalid.")}</p><p><code>${escapeHtml(out.error ?? "invalid_request")}</code></p>
<p><a href="/">Back to the marketplace</a></p></main></body></html>`;
}

/**
 * A grant unused for 90 days ends: each successful token request (code exchange, refresh) moves
 * its grant's expiry to 90 days from now.
 */
async function extendGrant(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  if (ctx.oidc?.route !== "token" || ctx.status !== 200) return;
  const grant = ctx.oidc.entities.Grant;
  if (!grant) return;
  grant.exp = Math.floor(Date.now() / 1000) + TTL.Grant;
  await grant.save();
}

function createProvider(): Provider {
  const provider = new Provider(issuer(), configuration());
  // The bridge (lib/oauth/bridge.ts) sets the public host and scheme in X-Forwarded-Host/-Proto
  // and the client address (lib/http/client-ip.ts) in X-Forwarded-For; nothing else is trusted.
  provider.proxy = true;
  provider.use(extendGrant as Parameters<Provider["use"]>[0]);
  provider.on("server_error", (_ctx, err) => {
    logEvent("error", "oauth server error", { error: String(err), stack: err instanceof Error ? err.stack : undefined });
  });
  return provider;
}

const holder = globalThis as typeof globalThis & { __oauthProvider?: { issuer: string; provider: Provider } };

/** The process's authorization server (one per process, kept across dev-mode reloads). */
export function oauthProvider(): Provider {
  if (!holder.__oauthProvider || holder.__oauthProvider.issuer !== issuer()) {
    holder.__oauthProvider = { issuer: issuer(), provider: createProvider() };
  }
  return holder.__oauthProvider.provider;
}
