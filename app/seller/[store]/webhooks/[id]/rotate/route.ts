import { formRoute } from "@/lib/http/form";
import { rotateWebhookSecret } from "@/lib/seller/webhooks";
import { holdSecret } from "@/lib/seller/dashboard/shown-once";
import { notFoundResponse, ownerChange, seeOther } from "../../../../_lib/post";
import { endpointOfPost, isNotFound, secretPagePath } from "../../../../_lib/webhooks";

// A new signing secret, held for one view on the page this redirects to; the previous one keeps signing for a while.
export const POST = formRoute({ name: "seller.webhooks.rotate", session: "required" }, async ({ request, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  try {
    const revealId = await ownerChange({ store, user: user!, requestId }, "webhook_endpoints.rotate_secret", { type: "webhook_endpoint", id: endpoint.id }, async (tx) => {
      const rotated = await rotateWebhookSecret(tx, store.id, endpoint.id);
      return holdSecret(tx, { userId: user!.id, storeId: store.id }, "webhook_rotated", rotated.id, rotated.secret);
    });
    return seeOther(secretPagePath(store, endpoint.id, true, revealId));
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    throw err;
  }
});
