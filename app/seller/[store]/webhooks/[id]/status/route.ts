import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { UpdateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { updateWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange, refused, seeOther } from "../../../../_lib/post";
import { endpointOfPost, endpointPage, isNotFound } from "../../../../_lib/webhooks";

// "Disable" and "Enable": PATCH /webhook-endpoints/{id} with `status`.
export const POST = formRoute({ name: "seller.webhooks.status", session: "required" }, async ({ request, form, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  const page = endpointPage(store, endpoint.id);
  try {
    const body = validateJson(UpdateWebhookEndpoint, { status: form.status ?? "" });
    await ownerChange({ store, user: user!, requestId }, "webhook_endpoints.update", { type: "webhook_endpoint", id: endpoint.id }, (tx) => updateWebhookEndpoint(tx, store.id, endpoint.id, body));
    return seeOther(`${page}?notice=${body.status}`);
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    return refused(page, "status", err, {});
  }
});
