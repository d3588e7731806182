export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from "./endpoints";
export { getWebhookDelivery, listWebhookDeliveries, replayWebhookDelivery } from "./deliveries";
export { emitStoreEvents, type StoreEventRef } from "./events";
