// The seller orders API's use cases: a store's parts of orders, read and fulfilled.
export { deliverOrderPart, shipOrderPart } from "./fulfil";
export { listOrderParts } from "./list-order-parts";
export { getOrderPart } from "./order-part";
