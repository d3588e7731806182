import type { ApiKeySummary } from "@/lib/auth/api-keys";
import type { OwnedStore } from "@/lib/seller/dashboard/stores";
import { SCOPE_DESCRIPTIONS } from "./scopes";
import { alreadyShownPage, escapeHtml as escape, shownOncePage } from "./shown-once";

/** Where the create form's post sends its maker: the page that shows the new key once. */
export function keyCreatedPath(storeSlug: string, keyId: string): string {
  return `/seller/${encodeURIComponent(storeSlug)}/keys/${keyId}/created`;
}

const back = (storeSlug: string) => ({ href: `/seller/${encodeURIComponent(storeSlug)}/keys`, text: "Done: back to API keys" });

/**
 * The new key's page (shown-once.ts): shown once; a reload shows "Already shown" and makes no
 * key; afterwards the keys page shows only `…last4`.
 */
export function keyCreatedPage(store: OwnedStore, key: string, summary: ApiKeySummary): Promise<Response> {
  const scopes = summary.scopes.map((s) => `<li><code>${escape(s)}</code>: ${escape(SCOPE_DESCRIPTIONS[s])}</li>`).join("");
  return shownOncePage({
    storeName: store.name,
    title: "Your new API key",
    page: "seller-key-created",
    noun: "key",
    secret: key,
    marker: "new-key",
    warningHtml:
      "We keep only a hash of it; after you leave this page, the dashboard shows just its last four characters. If you lose it, revoke it and create another.",
    detailsHtml: `<dl>
<dt>Name</dt><dd>${escape(summary.name)}</dd>
<dt>Shown later as</dt><dd><code>${escape(summary.display)}</code></dd>
<dt>Scopes</dt><dd><ul>${scopes}</ul></dd>
</dl>
<p>Send it as <code>Authorization: Bearer &lt;key&gt;</code> to <code>/api/v1</code>.</p>`,
    back: back(store.slug),
  });
}

export function keyAlreadyShownPage(store: OwnedStore): Response {
  return alreadyShownPage(store, {
    noun: "API key",
    page: "seller-key-created",
    again: "If you did not copy it, revoke it on the API keys page and create another.",
    back: back(store.slug),
  });
}
