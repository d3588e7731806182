export { orderRefWhere, type ListQuery, type Page } from "./common";
export { getBuyerOrder, listBuyerOrders, type BuyerOrder, type BuyerOrderEvent, type BuyerOrderPart } from "./buyer";
export { getDeskOrder, listDeskOrders, type DeskOrder, type DeskPart } from "./desk";
export { checkTrackingNumber, deliverPart, markOrder, shipPart, TRACKING_NUMBER_MAX, type PartMoveResult } from "./fulfilment";
