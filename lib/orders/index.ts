export { orderRefWhere, type ListQuery, type Page } from "./common";
export { getBuyerOrder, listBuyerOrders, type BuyerOrder, type BuyerOrderEvent, type BuyerOrderPart } from "./buyer";
export { getDeskOrder, listDeskOrders, type DeskOrder, type DeskPart } from "./desk";
export { cancelPart, checkCancelReason, checkCarrier, checkTrackingNumber, deliverPart, markOrder, shipPart, type PartMoveResult } from "./fulfilment";
export { CANCEL_REASONS, CARRIER_MAX, TRACKING_NUMBER_MAX } from "@/lib/schemas/seller/orders";
