import { errors } from "oidc-provider";
import { BUYER_SCOPES, type BuyerScope } from "@/lib/auth/scopes";
import type { DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { interactionPair } from "./bridge";
import { recordConnection } from "./connections";
import { oauthProvider } from "./provider";
import { DEFAULT_RESOURCE, resourceNamed, resourceUrl, type ResourceName } from "./resources";

/** Each buyer scope in plain words: the label of its checkbox on the consent screen. */
/** What the consent screen shows of one authorization request (an oidc-provider interaction). */
export interface ConsentRequest {
  uid: string;
  clientId: string;
  /** The client's `client_name`, else the host of its client ID (a metadata document URL), else its redirect host. */
  clientName: string;
  /** Where the holder's answer goes: the host of the request's redirect URI. */
  redirectHost: string;
  /** The resources asked for (RFC 8707), each as its exact URL. */
  resources: Array<{ name: ResourceName; url: string }>;
  /** The buyer scopes asked for, in the order of BUYER_SCOPES. */
  scopes: BuyerScope[];
  /** Whether `openid` was asked too (an ID token naming the account id comes with the tokens). */
  openid: boolean;
}

/** Who is answering: the request's headers carry the interaction cookie oidc-provider set. */
export interface ConsentCaller {
  headers: Headers;
  clientIp: string;
}

function gone(): AppError {
  return new AppError("consent_request_gone", "This authorization request is over: it was answered already, expired, or was started in another browser. Go back to the app that sent you here and connect again.");
}

async function interaction(caller: ConsentCaller, uid: string) {
  const { req, res } = interactionPair(caller.headers, caller.clientIp);
  try {
    const details = await oauthProvider().interactionDetails(req, res);
    if (details.uid !== uid) throw gone();
    return { details, req, res };
  } catch (err) {
    if (err instanceof errors.SessionNotFound) throw gone();
    throw err;
  }
}

function hostOf(url: unknown): string | undefined {
  try {
    return typeof url === "string" ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

/** The authorization request `uid` as this browser started it; `consent_request_gone` when there is none. */
export async function readConsentRequest(caller: ConsentCaller, uid: string): Promise<ConsentRequest & { answered: boolean }> {
  const { details } = await interaction(caller, uid);
  const params = details.params as Record<string, unknown>;
  const clientId = String(params.client_id);
  const client = await oauthProvider().Client.find(clientId);
  if (!client) throw gone();
  const redirectHost = hostOf(params.redirect_uri) ?? "";
  const asked = new Set(String(params.scope ?? "").split(" "));
  const indicators = params.resource === undefined ? [resourceUrl(DEFAULT_RESOURCE)] : ([] as unknown[]).concat(params.resource);
  const resources = indicators.flatMap((value) => {
    const name = typeof value === "string" ? resourceNamed(value) : undefined;
    return name ? [{ name, url: resourceUrl(name) }] : [];
  });
  return {
    uid,
    clientId,
    clientName: client.clientName || hostOf(clientId) || redirectHost || clientId,
    redirectHost,
    resources,
    scopes: BUYER_SCOPES.filter((scope) => asked.has(scope)),
    openid: asked.has("openid"),
    answered: details.result !== undefined,
  };
}

/**
 * The holder's answer to the authorization request `uid`: with `allow` and at least one ticked
 * scope, a grant of exactly the ticked scopes (the unticked ones rejected, so oidc-provider does
 * not ask again) for the resources asked, the connection row the resource side checks, and the
 * interaction's result; otherwise `access_denied` for the client. Answers where the browser goes
 * next (oidc-provider's resume URL). A second answer is refused (`consent_already_answered`, or
 * `consent_request_gone` once oidc-provider has finished the request).
 */
export async function answerConsent(client: DbClient, caller: ConsentCaller, uid: string, userId: string, answer: { allow: boolean; scopes: readonly string[] }): Promise<string> {
  const request = await readConsentRequest(caller, uid);
  if (request.answered) throw new AppError("consent_already_answered", "You already answered this authorization request.");
  const provider = oauthProvider();
  const { req, res } = await interaction(caller, uid);
  const ticked = new Set(answer.scopes);
  const granted = request.scopes.filter((scope) => ticked.has(scope));
  if (!answer.allow || granted.length === 0 || request.resources.length === 0) {
    return provider.interactionResult(req, res, { error: "access_denied", error_description: "The account holder did not allow this request." }, { mergeWithLastSubmission: false });
  }
  const refused = request.scopes.filter((scope) => !ticked.has(scope));
  const grant = new provider.Grant({ accountId: userId, clientId: request.clientId });
  // The buyer scopes are also OpenID scopes to oidc-provider (they are configured scopes):
  // granting takes both kinds, or the consent prompt keeps asking.
  grant.addOIDCScope([...(request.openid ? ["openid"] : []), ...granted].join(" "));
  if (refused.length > 0) grant.rejectOIDCScope(refused.join(" "));
  for (const resource of request.resources) {
    grant.addResourceScope(resource.url, granted.join(" "));
    if (refused.length > 0) grant.rejectResourceScope(resource.url, refused.join(" "));
  }
  const grantId = await grant.save();
  await recordConnection(client, { grantId, userId, clientId: request.clientId, clientName: request.clientName, redirectHost: request.redirectHost, scopes: granted });
  return provider.interactionResult(req, res, { login: { accountId: userId }, consent: { grantId } }, { mergeWithLastSubmission: true });
}
