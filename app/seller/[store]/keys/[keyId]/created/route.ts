import { getApiKey, KEY_PREFIX } from "@/lib/auth/api-keys";
import { withDb } from "@/lib/http/database";
import { keyAlreadyShownPage, keyCreatedPage } from "../../../../_lib/key-created";
import { revealRoute } from "../../../../_lib/shown-once";

// The new key, shown once to whoever created it; a reload shows "Already shown" and creates nothing.
export const GET = revealRoute("seller.keys.created", "api_key", ([, keyId]) => (keyId ? { subjectId: keyId } : null), {
  async revealed(store, keyId, secret) {
    const summary = await withDb((client) => getApiKey(client, store.id, keyId));
    return summary && keyCreatedPage(store, `${KEY_PREFIX}${keyId}.${secret}`, summary);
  },
  alreadyShown: (store) => keyAlreadyShownPage(store),
});
