import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { getWebhookDelivery, replayWebhookDelivery } from "@/lib/seller/webhooks";
import { notFoundResponse, ownerChange, refused, returnPath, seeOther, sellerPath, withParams } from "../../../../../../_lib/post";
import { endpointOfPost, endpointPage, isNotFound } from "../../../../../../_lib/webhooks";

// POST /webhook-deliveries/{id}/replay for a delivery of the endpoint of the URL (any other is
// 404); refused, and the message shown above the delivery log, while the endpoint is disabled.
export const POST = formRoute({ name: "seller.webhooks.replay", session: "required" }, async ({ request, form, user, requestId }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  const delivery = await withDb((client) => getWebhookDelivery(client, store.id, sellerPath(request)[4] ?? "")).catch((err: unknown) => {
    if (isNotFound(err)) return null;
    throw err;
  });
  if (!delivery || delivery.endpoint_id !== endpoint.id) return notFoundResponse();
  const back = returnPath(store, form.return_to, endpointPage(store, endpoint.id));
  try {
    await ownerChange({ store, user: user!, requestId }, "webhook_deliveries.replay", { type: "webhook_delivery", id: delivery.id }, (tx) => replayWebhookDelivery(tx, store.id, delivery.id));
    return seeOther(withParams(back, { notice: "replayed" }));
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    return refused(back, "deliveries", err, {});
  }
});
