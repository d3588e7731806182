import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { webhookEndpointJson } from "@/lib/seller/dashboard/forms";
import { createWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange, refused, storeOfPost } from "../../../_lib/post";
import { webhookSecretPage } from "../../../_lib/webhooks";

// Registers an endpoint and answers with the one page that shows its signing secret (not a
// redirect: the secret must never travel in a URL or a cookie).
export const POST = formRoute({ name: "seller.webhooks.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  const converted = webhookEndpointJson(form, { create: true });
  try {
    const endpoint = await ownerChange(
      { store, user: user!, requestId },
      "webhook_endpoints.create",
      { type: "webhook_endpoint", id: null },
      (tx) => createWebhookEndpoint(tx, store.id, validateJson(CreateWebhookEndpoint, converted.json)),
      (created) => ({ type: "webhook_endpoint", id: created.id }),
    );
    return webhookSecretPage(store, endpoint, false);
  } catch (err) {
    return refused(`/seller/${store.slug}/webhooks`, "endpoint", err, form, converted.field);
  }
});
