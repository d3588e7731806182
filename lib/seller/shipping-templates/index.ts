export { createShippingTemplate } from "./create";
export { getShippingTemplate } from "./get";
export { listShippingTemplates, type ShippingTemplatePage } from "./list";
export { updateShippingTemplate } from "./update";
