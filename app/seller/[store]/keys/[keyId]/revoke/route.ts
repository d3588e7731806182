import { revokeApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db";
import { formRoute } from "@/lib/http/form";
import { notFoundResponse, seeOther, sellerPath, storeOfPost } from "../../../../_lib/post";

export const POST = formRoute({ name: "seller.keys.revoke", session: "required" }, async ({ request, user }) => {
  const store = await storeOfPost(request, user);
  const keyId = sellerPath(request)[2] ?? "";
  // Another store's key id is "not found", as an unknown one is.
  const revoked = store && /^[a-z0-9]{16}$/.test(keyId) ? await revokeApiKey(db(), keyId, store.id) : null;
  if (!store || !revoked) return notFoundResponse();
  return seeOther(`/seller/${store.slug}/keys?notice=revoked`);
});
