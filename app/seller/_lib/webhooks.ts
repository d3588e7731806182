import { AppError } from "@/lib/errors";
import { withDb } from "@/lib/http/database";
import { WEBHOOK_EVENTS, WEBHOOK_LIMITS, type WebhookEndpointData, type WebhookEndpointWithSecretData } from "@/lib/schemas/seller/webhooks";
import type { OwnedStore } from "@/lib/seller/dashboard/stores";
import { getWebhookEndpoint } from "@/lib/seller/webhooks";
import { sellerPath, storeOfPost } from "./post";
import { alreadyShownPage, escapeHtml as escape, revealRoute, shownOncePage } from "./shown-once";

/** What the webhook pages' form routes share: whose endpoint a post is about, and the secret's page. */

/** A refusal that means "not yours, or not there": the route answers 404. */
export function isNotFound(err: unknown): boolean {
  return err instanceof AppError && (err.code === "webhook_endpoint_not_found" || err.code === "webhook_delivery_not_found");
}

/**
 * The store and endpoint of a post to /seller/<store>/webhooks/<id>/..., when the poster owns
 * both; null otherwise (404), before anything in the form is looked at.
 */
export async function endpointOfPost(request: Request, user: { id: string } | null): Promise<{ store: OwnedStore; endpoint: WebhookEndpointData } | null> {
  const store = await storeOfPost(request, user);
  if (!store) return null;
  try {
    return { store, endpoint: await withDb((client) => getWebhookEndpoint(client, store.id, sellerPath(request)[2] ?? "")) };
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export function endpointPage(store: OwnedStore, id: string): string {
  return `/seller/${store.slug}/webhooks/${id}`;
}

const when = (iso: string) => `<time datetime="${escape(iso)}">${escape(iso.slice(0, 16).replace("T", " "))} UTC</time>`;

/** Where a post that made a signing secret sends its maker: the page that shows it once. */
export function secretPagePath(store: OwnedStore, endpointId: string, rotated: boolean, revealId: string): string {
  return `${endpointPage(store, endpointId)}/${rotated ? "rotated" : "created"}/${revealId}`;
}

/**
 * GET /seller/<store>/webhooks/<id>/(created|rotated)/<reveal id>: the signing secret, shown once
 * to whoever made it; a reload shows "Already shown" and makes nothing.
 */
export function webhookSecretRoute(rotated: boolean) {
  return revealRoute(
    rotated ? "seller.webhooks.rotated" : "seller.webhooks.created",
    rotated ? "webhook_rotated" : "webhook_created",
    ([, id, , revealId]) => (id && revealId ? { subjectId: id, revealId } : null),
    {
      async revealed(store, id, secret) {
        try {
          return await webhookSecretPage(store, { ...(await withDb((client) => getWebhookEndpoint(client, store.id, id))), secret }, rotated);
        } catch (err) {
          if (isNotFound(err)) return null;
          throw err;
        }
      },
      alreadyShown: (store, id) =>
        alreadyShownPage(store, {
          noun: "signing secret",
          page: rotated ? "seller-webhook-rotated" : "seller-webhook-created",
          again: "If you did not copy it, rotate the secret on the endpoint's page.",
          back: { href: endpointPage(store, id), text: "To the endpoint" },
        }),
    },
  );
}

/** The signing secret of a new endpoint, or the new one of a rotation, on the one page that shows it (shown-once.ts). */
export function webhookSecretPage(store: OwnedStore, endpoint: WebhookEndpointWithSecretData, rotated: boolean): Promise<Response> {
  const events = endpoint.events.map((t) => `<li><code>${escape(t)}</code>: ${escape(WEBHOOK_EVENTS[t].when)}</li>`).join("");
  const overlap = rotated && endpoint.previous_secret_expires_at
    ? `<p data-previous-secret-expires-at="${escape(endpoint.previous_secret_expires_at)}">The previous secret keeps signing too, for ${WEBHOOK_LIMITS.rotationOverlapHours} hours, until ${when(endpoint.previous_secret_expires_at)}: until then every delivery carries two signatures, one by each secret, so your receiver can switch to this one without missing an event.</p>`
    : "";
  return shownOncePage({
    storeName: store.name,
    title: rotated ? "Your new signing secret" : "Your new webhook endpoint",
    page: rotated ? "seller-webhook-rotated" : "seller-webhook-created",
    noun: "signing secret",
    secret: endpoint.secret,
    marker: "new-secret",
    warningHtml:
      "Your receiver needs this signing secret to verify the <code>webhook-signature</code> header of each delivery. The dashboard never shows it again; if you lose it, rotate the secret on the endpoint's page.",
    detailsHtml: `${overlap}<dl>
<dt>Endpoint URL</dt><dd><code>${escape(endpoint.url)}</code></dd>
${endpoint.description ? `<dt>Description</dt><dd>${escape(endpoint.description)}</dd>` : ""}
<dt>Events</dt><dd><ul>${events}</ul></dd>
</dl>`,
    back: { href: endpointPage(store, endpoint.id), text: "Done: to the endpoint" },
  });
}
