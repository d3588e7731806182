import { cancelPart } from "@/lib/orders";
import { partMoveRoute } from "../../../_lib/desk";

// "Cancel order" with its "Reason": the store's part of the order is cancelled and refunded.
export const POST = partMoveRoute("seller.orders.cancel", (tx, storeId, order, form) => cancelPart(tx, storeId, order, form.reason), "cancelled");
