import { apiKeyAccess } from "@/lib/http/access";
import { defineEndpoint, type Endpoint } from "@/lib/http/describe";
import { IdPath } from "@/lib/schemas/seller/common";
import {
  CreateShippingTemplateBody,
  SHIPPING_LIMITS,
  ShippingTemplateListQuery,
  ShippingTemplateListResponse,
  ShippingTemplateResponse,
  UpdateShippingTemplateBody,
} from "@/lib/schemas/seller/shipping";

const TAGS = ["Shipping templates"];

export const listShippingTemplatesEndpoint = defineEndpoint({
  name: "seller.shipping_templates.list",
  method: "GET",
  path: "/shipping-templates",
  operationId: "listShippingTemplates",
  summary: "List shipping templates",
  description: "The store's shipping templates, newest first (ties by id), with cursor paging.",
  tags: TAGS,
  access: apiKeyAccess(["listings:read"]),
  query: ShippingTemplateListQuery,
  success: { status: 200, description: "A page of shipping templates.", schema: ShippingTemplateListResponse },
  errors: [],
});

export const createShippingTemplateEndpoint = defineEndpoint({
  name: "seller.shipping_templates.create",
  method: "POST",
  path: "/shipping-templates",
  operationId: "createShippingTemplate",
  summary: "Create a shipping template",
  description: `A named set of shipping rates that listings point to with \`shipping_template_id\`. ${SHIPPING_LIMITS.ratesMin} to ${SHIPPING_LIMITS.ratesMax} rates, one per (region, service); a rate's \`min_days\` is at most its \`max_days\`.`,
  tags: TAGS,
  access: apiKeyAccess(["shipping:write"]),
  body: CreateShippingTemplateBody,
  idempotent: true,
  success: { status: 201, description: "The created shipping template.", schema: ShippingTemplateResponse },
  errors: [],
});

export const updateShippingTemplateEndpoint = defineEndpoint({
  name: "seller.shipping_templates.update",
  method: "PATCH",
  path: "/shipping-templates/{id}",
  operationId: "updateShippingTemplate",
  summary: "Update a shipping template",
  description: "Changes the fields sent; `rates` replaces every rate of the template. Listings that use the template see the change at once.",
  tags: TAGS,
  access: apiKeyAccess(["shipping:write"]),
  params: IdPath,
  body: UpdateShippingTemplateBody,
  idempotent: true,
  success: { status: 200, description: "The updated shipping template.", schema: ShippingTemplateResponse },
  errors: ["shipping_template_not_found"],
});

export const SHIPPING_ENDPOINTS: Endpoint[] = [listShippingTemplatesEndpoint, createShippingTemplateEndpoint, updateShippingTemplateEndpoint];
