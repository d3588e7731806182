import { createApiKey } from "@/lib/auth/api-keys";
import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { formRoute } from "@/lib/http/form";
import { keyCreatedPage } from "../../../_lib/key-created";
import { notFoundResponse, ownerChange, refused, storeOfPost } from "../../../_lib/post";

// Creates a key and answers with the one page that shows it in full (not a redirect: the key
// must never travel in a URL or a cookie, nor be stored anywhere to be shown later).
export const POST = formRoute({ name: "seller.keys.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store || !user) return notFoundResponse();
  const scopes = SELLER_SCOPES.filter((s) => form[`scope.${s}`] === "on");
  try {
    const expiresInDays = form.expires_in_days ? form.expires_in_days : undefined;
    const { key, summary } = await ownerChange(
      { store, user, requestId },
      "api_keys.create",
      { type: "api_key", id: null },
      (tx) => createApiKey(tx, { storeId: store.id, name: form.name ?? "", scopes, createdBy: user.id, expiresInDays }),
      (created) => ({ type: "api_key", id: `mk_live_${created.summary.keyId}` }),
    );
    return keyCreatedPage(store.slug, store.name, key, summary);
  } catch (err) {
    return refused(`/seller/${store.slug}/keys`, "key", err, form);
  }
});
