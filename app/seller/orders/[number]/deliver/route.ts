import { deliverPart } from "@/lib/orders";
import { partMoveRoute } from "../../../_lib/desk";

// "Mark delivered": the store's shipped part of the order is delivered.
export const POST = partMoveRoute("seller.orders.deliver", (tx, storeId, order) => deliverPart(tx, storeId, order), "delivered");
