import { db } from "@/lib/db";
import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateShippingTemplateBody } from "@/lib/schemas/seller/shipping";
import { shippingTemplateJson } from "@/lib/seller/dashboard/forms";
import { createShippingTemplate } from "@/lib/seller/shipping-templates";
import { notFoundResponse, refused, seeOther, storeOfPost } from "../../../_lib/post";

export const POST = formRoute({ name: "seller.shipping.create", session: "required" }, async ({ request, form, user }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  let converted: ReturnType<typeof shippingTemplateJson> | undefined;
  try {
    converted = shippingTemplateJson(form);
    const body = validateJson(CreateShippingTemplateBody, converted.json);
    const template = await db().$transaction((tx) => createShippingTemplate(tx, store.id, body));
    return seeOther(`/seller/${store.slug}/shipping/${template.id}?notice=created`);
  } catch (err) {
    return refused(`/seller/${store.slug}/shipping/new`, "template", err, form, converted?.field);
  }
});
