import { validateJson } from "@/lib/http/body";
import { withDb } from "@/lib/http/database";
import { formRoute } from "@/lib/http/form";
import { UpdateShippingTemplateBody } from "@/lib/schemas/seller/shipping";
import { shippingTemplateForEdit } from "@/lib/seller/dashboard/shipping";
import { shippingTemplateJson } from "@/lib/seller/dashboard/forms";
import { updateShippingTemplate } from "@/lib/seller/shipping-templates";
import { notFoundResponse, ownerChange, refused, seeOther, sellerPath, storeOfPost } from "../../../../_lib/post";

// The whole form (name, handling days, every rate) replaces the template, as PATCH with `rates` does.
export const POST = formRoute({ name: "seller.shipping.update", session: "required" }, async ({ request, form, user, requestId }) => {
  const store = await storeOfPost(request, user);
  const id = sellerPath(request)[2] ?? "";
  const template = store ? await withDb((client) => shippingTemplateForEdit(client, store.id, id)) : null;
  if (!store || !template) return notFoundResponse();
  const page = `/seller/${store.slug}/shipping/${template.id}`;
  let converted: ReturnType<typeof shippingTemplateJson> | undefined;
  try {
    await ownerChange({ store, user: user!, requestId }, "shipping_templates.update", { type: "shipping_template", id: template.id }, (tx) => {
      converted = shippingTemplateJson(form);
      return updateShippingTemplate(tx, store.id, template.id, validateJson(UpdateShippingTemplateBody, converted.json));
    });
    return seeOther(`${page}?notice=updated`);
  } catch (err) {
    return refused(page, "template", err, form, converted?.field);
  }
});
