import { shipPart } from "@/lib/orders";
import { partMoveRoute } from "../../../_lib/desk";

// "Mark shipped" with its "Tracking number": the store's part of the order ships.
export const POST = partMoveRoute("seller.orders.ship", (tx, storeId, order, form) => shipPart(tx, storeId, order, form.tracking_number, form.carrier?.trim() ? form.carrier : undefined), "shipped");
