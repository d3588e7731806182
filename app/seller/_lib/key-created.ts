import type { ApiKeySummary } from "@/lib/auth/api-keys";
import { SCOPE_DESCRIPTIONS } from "./scopes";
import { escapeHtml as escape, shownOncePage } from "./shown-once";

/**
 * The new key's page (shown-once.ts): reloading it would post again and make another key;
 * leaving it, the key is gone for good (the keys page shows `…last4`).
 */
export function keyCreatedPage(storeSlug: string, storeName: string, key: string, summary: ApiKeySummary): Response {
  const scopes = summary.scopes.map((s) => `<li><code>${escape(s)}</code>: ${escape(SCOPE_DESCRIPTIONS[s])}</li>`).join("");
  return shownOncePage({
    storeName,
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
    back: { href: `/seller/${encodeURIComponent(storeSlug)}/keys`, text: "Done: back to API keys" },
  });
}
