import { createApiKey } from "@/lib/auth/api-keys";
import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { formRoute } from "@/lib/http/form";
import { holdSecret } from "@/lib/seller/dashboard/shown-once";
import { keyCreatedPath } from "../../../_lib/key-created";
import { notFoundResponse, ownerChange, refused, seeOther, storeOfPost } from "../../../_lib/post";

// Creates a key, holds its secret for one view, and answers 303 to the page that shows it once:
// reloading that page creates nothing. The secret never travels in a URL or a cookie.
export const POST = formRoute({ name: "seller.keys.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store || !user) return notFoundResponse();
  const scopes = SELLER_SCOPES.filter((s) => form[`scope.${s}`] === "on");
  try {
    const expiresInDays = form.expires_in_days ? form.expires_in_days : undefined;
    const { summary } = await ownerChange(
      { store, user, requestId },
      "api_keys.create",
      { type: "api_key", id: null },
      async (tx) => {
        const created = await createApiKey(tx, { storeId: store.id, name: form.name ?? "", scopes, createdBy: user.id, expiresInDays });
        await holdSecret(tx, { userId: user.id, storeId: store.id }, "api_key", created.summary.keyId, created.key.split(".")[1]!);
        return created;
      },
      (created) => ({ type: "api_key", id: `mk_live_${created.summary.keyId}` }),
    );
    return seeOther(keyCreatedPath(store.slug, summary.keyId));
  } catch (err) {
    return refused(`/seller/${store.slug}/keys`, "key", err, form);
  }
});
