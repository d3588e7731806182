import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { webhookEndpointJson } from "@/lib/seller/dashboard/forms";
import { createWebhookEndpoint } from "@/lib/seller/webhooks";
import { holdSecret } from "@/lib/seller/dashboard/shown-once";
import { notFoundResponse, ownerChange, refused, seeOther, storeOfPost } from "../../../_lib/post";
import { secretPagePath } from "../../../_lib/webhooks";

// Registers an endpoint, holds its signing secret for one view, and answers 303 to the page that
// shows it once (the secret never travels in a URL or a cookie; a reload there makes nothing).
export const POST = formRoute({ name: "seller.webhooks.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  const converted = webhookEndpointJson(form, { create: true });
  try {
    const { endpoint, revealId } = await ownerChange(
      { store, user: user!, requestId },
      "webhook_endpoints.create",
      { type: "webhook_endpoint", id: null },
      async (tx) => {
        const endpoint = await createWebhookEndpoint(tx, store.id, validateJson(CreateWebhookEndpoint, converted.json));
        return { endpoint, revealId: await holdSecret(tx, { userId: user!.id, storeId: store.id }, "webhook_created", endpoint.id, endpoint.secret) };
      },
      (created) => ({ type: "webhook_endpoint", id: created.endpoint.id }),
    );
    return seeOther(secretPagePath(store, endpoint.id, false, revealId));
  } catch (err) {
    return refused(`/seller/${store.slug}/webhooks`, "endpoint", err, form, converted.field);
  }
});
