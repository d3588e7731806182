import { revokeApiKey } from "@/lib/auth/api-keys";
import { AppError } from "@/lib/errors";
import { formRoute } from "@/lib/http/form";
import { notFoundResponse, ownerChange, seeOther, sellerPath, storeOfPost } from "../../../../_lib/post";

export const POST = formRoute({ name: "seller.keys.revoke", session: "required" }, async ({ request, user, requestId }) => {
  const store = await storeOfPost(request, user);
  const keyId = sellerPath(request)[2] ?? "";
  // Another store's key id is "not found", as an unknown one is.
  const revoked =
    store && /^[a-z0-9]{16}$/.test(keyId)
      ? await ownerChange({ store, user: user!, requestId }, "api_keys.revoke", { type: "api_key", id: `mk_live_${keyId}` }, async (tx) => {
          const summary = await revokeApiKey(tx, keyId, store.id);
          if (!summary) throw new AppError("api_key_not_found", "No key of this store has that id.");
          return summary;
        }).catch((err) => (err instanceof AppError && err.code === "api_key_not_found" ? null : Promise.reject(err)))
      : null;
  if (!store || !revoked) return notFoundResponse();
  return seeOther(`/seller/${store.slug}/keys?notice=revoked`);
});
