import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateWebhookEndpoint } from "@/lib/schemas/seller/webhooks";
import { webhookEndpointJson } from "@/lib/seller/dashboard/forms";
import { createWebhookEndpoint } from "@/lib/seller/webhooks";
import { notFoundResponse, refused, storeOfPost } from "../../../_lib/post";
import { webhookSecretPage } from "../../../_lib/webhooks";

// Registers an endpoint and answers with the one page that shows its signing secret (not a
// redirect: the secret must never travel in a URL or a cookie).
export const POST = formRoute({ name: "seller.webhooks.create", session: "required" }, async ({ request, form, user }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  const converted = webhookEndpointJson(form, { create: true });
  try {
    const body = validateJson(CreateWebhookEndpoint, converted.json);
    const endpoint = await db().$transaction((tx) => createWebhookEndpoint(tx, store.id, body));
    return webhookSecretPage(store, endpoint, false);
  } catch (err) {
    return refused(`/seller/${store.slug}/webhooks`, "endpoint", err, form, converted.field);
  }
});
