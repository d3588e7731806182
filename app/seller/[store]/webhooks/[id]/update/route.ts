import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { UpdateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { webhookEndpointJson } from "@/lib/seller/dashboard/forms";
import { updateWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, refused, seeOther } from "../../../../_lib/post";
import { endpointOfPost, endpointPage, isNotFound } from "../../../../_lib/webhooks";

// The URL, events and description, as PATCH /webhook-endpoints/{id} takes them.
export const POST = formRoute({ name: "seller.webhooks.update", session: "required" }, async ({ request, form, user }) => {
  const found = await endpointOfPost(request, user);
  if (!found) return notFoundResponse();
  const { store, endpoint } = found;
  const page = endpointPage(store, endpoint.id);
  const converted = webhookEndpointJson(form, { create: false });
  try {
    const body = validateJson(UpdateWebhookEndpoint, converted.json);
    await db().$transaction((tx) => updateWebhookEndpoint(tx, store.id, endpoint.id, body));
    return seeOther(`${page}?notice=updated`);
  } catch (err) {
    if (isNotFound(err)) return notFoundResponse();
    return refused(page, "endpoint", err, form, converted.field);
  }
});
