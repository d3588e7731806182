import { AUDIT_ENDPOINTS } from "./audit";
import { INVENTORY_ENDPOINTS } from "./inventory";
import { LISTING_ENDPOINTS } from "./listings";
import { ORDER_ENDPOINTS } from "./orders";
import { SHIPPING_ENDPOINTS } from "./shipping";
import { WEBHOOK_ENDPOINTS } from "./webhooks";

/** Every operation of the seller API (/api/v1): the routes use them, openapi.json lists them. */
export const SELLER_ENDPOINTS = [...LISTING_ENDPOINTS, ...INVENTORY_ENDPOINTS, ...SHIPPING_ENDPOINTS, ...ORDER_ENDPOINTS, ...WEBHOOK_ENDPOINTS, ...AUDIT_ENDPOINTS];
