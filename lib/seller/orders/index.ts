// The seller orders API's use cases: a store's parts of orders and returns of its lines, read and
// moved on with the desk's own domain functions.
export { cancelOrderPart, deliverOrderPart, shipOrderPart } from "./fulfil";
export { listOrderParts } from "./list-order-parts";
export { getOrderPart } from "./order-part";
export { getStoreReturn, listStoreReturns, moveStoreReturn } from "./returns";
