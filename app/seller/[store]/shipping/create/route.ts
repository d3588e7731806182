import { validateJson } from "@/lib/http/body";
import { formRoute } from "@/lib/http/form";
import { CreateShippingTemplateBody } from "@/lib/schemas/seller/shipping";
import { shippingTemplateJson } from "@/lib/seller/dashboard/forms";
import { createShippingTemplate } from "@/lib/seller/shipping-templates";
import { notFoundResponse, ownerChange, refused, seeOther, storeOfPost } from "../../../_lib/post";

export const POST = formRoute({ name: "seller.shipping.create", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  if (!store) return notFoundResponse();
  let converted: ReturnType<typeof shippingTemplateJson> | undefined;
  try {
    const template = await ownerChange(
      { store, user: user!, requestId },
      "shipping_templates.create",
      { type: "shipping_template", id: null },
      (tx) => {
        converted = shippingTemplateJson(form);
        return createShippingTemplate(tx, store.id, validateJson(CreateShippingTemplateBody, converted.json));
      },
      (t) => ({ type: "shipping_template", id: t.id }),
    );
    return seeOther(`/seller/${store.slug}/shipping/${template.id}?notice=created`);
  } catch (err) {
    return refused(`/seller/${store.slug}/shipping/new`, "template", err, form, converted?.field);
  }
});
