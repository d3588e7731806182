import { formRoute } from "@/lib/http/form";
import { rotateWebhookSecret } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange } from "../../../../_lib/post";
import { endpointOfPost, isNotFound, webhookSecretPage } from "../../../../_lib/webhooks";

// A new signing secret, shown once on the answer itself; the previous one keeps signing for a while.
export const POST = formRoute({ name: "seller.webhooks.rotate", session: "required" }, async ({ request, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  try {
    const rotated = await ownerChange({ store, user: user!, requestId }, "webhook_endpoints.rotate_secret", { type: "webhook_endpoint", id: endpoint.id }, (tx) => rotateWebhookSecret(tx, store.id, endpoint.id));
    return webhookSecretPage(store, rotated, true);
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    throw err;
  }
});
