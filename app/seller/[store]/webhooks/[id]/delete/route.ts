import { AppError } from "@/lib/errors";
import { formRoute } from "@/lib/http/form";
import { deleteWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange, refused, seeOther } from "../../../../_lib/post";
import { endpointOfPost, endpointPage, isNotFound } from "../../../../_lib/webhooks";

// Deletes the endpoint and its delivery log, once the person ticked the confirmation.
export const POST = formRoute({ name: "seller.webhooks.delete", session: "required" }, async ({ request, form, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  try {
    if (form.confirm !== "on") throw new AppError("parameter_missing", "Tick the box to confirm that the endpoint and its delivery log are to be deleted.", "confirm");
    await ownerChange({ store, user: user!, requestId }, "webhook_endpoints.delete", { type: "webhook_endpoint", id: endpoint.id }, (tx) => deleteWebhookEndpoint(tx, store.id, endpoint.id));
    return seeOther(`/seller/${store.slug}/webhooks?notice=deleted`);
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    return refused(endpointPage(store, endpoint.id), "delete", err, {});
  }
});
