import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { UpdateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { webhookEndpointJson } from "@/lib/seller/dashboard/forms";
import { updateWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange, refused, seeOther } from "../../../../_lib/post";
import { endpointOfPost, endpointPage, isNotFound } from "../../../../_lib/webhooks";

// The URL, events and description, as PATCH /webhook-endpoints/{id} takes them.
export const POST = formRoute({ name: "seller.webhooks.update", session: "required" }, async ({ request, form, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  const page = endpointPage(store, endpoint.id);
  const converted = webhookEndpointJson(form, { create: false });
  try {
    await ownerChange({ store, user: user!, requestId }, "webhook_endpoints.update", { type: "webhook_endpoint", id: endpoint.id }, (tx) =>
      updateWebhookEndpoint(tx, store.id, endpoint.id, validateJson(UpdateWebhookEndpoint, converted.json)),
    );
    return seeOther(`${page}?notice=updated`);
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    return refused(page, "endpoint", err, form, converted.field);
  }
});
