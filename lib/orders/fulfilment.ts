import { absoluteUrl } from "@/lib/config";
import { Prisma, type DbClient } from "@/lib/db";
import { sendEmail } from "@/lib/email/send";
import { AppError } from "@/lib/errors";
import type { OrderStatusValue } from "@/lib/schemas/orders";
import { CANCEL_REASONS, CARRIER_MAX, TRACKING_NUMBER_MAX, type CancelReason } from "@/lib/schemas/seller/orders";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";
import { queueOrderEvents } from "@/lib/webhooks/outbox";
import { cancelPartEffects } from "./cancel";
import { orderNotFound, orderRefWhere } from "./common";

/**
 * Fulfilment: each store ships and delivers its own part of an order, or cancels it while it is
 * placed, and the order's status follows its parts (cancelled ones aside): `shipped` once every
 * part is shipped or delivered, `delivered` once every part is delivered (then
 * `orders.delivered_at` is set), `cancelled` once every part is, else `placed`. Every move writes an
 * `order_events` row (the part's, and the order's own when its status changes) and bumps
 * `updated_at`.
 *
 * Pass the caller's transaction: the order row is locked first (FOR UPDATE), then its parts, so two
 * stores marking their parts of one order at once are applied one after the other and the second
 * computes the order's status from what the first wrote.
 */

/**
 * A tracking number as typed: trimmed, 1 to 64 printable ASCII characters (carriers' numbers are
 * letters, digits and a few separators). Blank is `parameter_missing`, anything else wrong
 * `parameter_invalid`, both naming `tracking_number`.
 */
export function checkTrackingNumber(value: unknown): string {
  return checkShippingText("tracking_number", value, TRACKING_NUMBER_MAX, "Enter the tracking number the carrier gave you.");
}

/** A carrier's name, by the same rules as a tracking number (up to 64 characters), naming `carrier`. */
export function checkCarrier(value: unknown): string {
  return checkShippingText("carrier", value, CARRIER_MAX, "Enter the carrier's name, or leave it out.");
}

function checkShippingText(field: string, value: unknown, max: number, blank: string): string {
  const text = typeof value === "string" ? value.trim() : "";
  if (text === "") throw new AppError("parameter_missing", blank, field);
  if (text.length > max) throw new AppError("parameter_invalid", `Invalid '${field}': at most ${max} characters.`, field);
  if (!/^[\x20-\x7e]+$/.test(text)) {
    throw new AppError("parameter_invalid", `Invalid '${field}': use letters, digits, spaces and punctuation only.`, field);
  }
  return text;
}

interface LockedOrder {
  id: string;
  number: string;
  status: OrderStatusValue;
  email: string;
  user_id: string | null;
  placed_via: "storefront" | "agent";
}

interface LockedPart {
  store_id: string;
  status: OrderStatusValue;
  store_name: string;
}

/** The order (by id or number) and all its parts, locked for the rest of the transaction. */
async function lockOrder(tx: DbClient, ref: string, storeId?: string): Promise<{ order: LockedOrder; parts: LockedPart[] }> {
  const where = orderRefWhere(ref);
  if (!where) throw orderNotFound(ref);
  const match = "id" in where ? Prisma.sql`o.id = ${where.id}::uuid` : Prisma.sql`o.number = ${where.number}`;
  const [order] = await tx.$queryRaw<LockedOrder[]>`
    SELECT o.id, o.number, o.status::text AS status, o.email, o.user_id, o.placed_via::text AS placed_via FROM orders o WHERE ${match} FOR UPDATE`;
  if (!order) throw orderNotFound(ref);
  const parts = await tx.$queryRaw<LockedPart[]>`
    SELECT p.store_id, p.status::text AS status, s.name AS store_name
    FROM order_stores p JOIN stores s ON s.id = p.store_id
    WHERE p.order_id = ${order.id}::uuid ORDER BY p.store_id FOR UPDATE OF p`;
  // A store that has no part of the order does not learn that the order exists.
  if (storeId !== undefined && !parts.some((p) => p.store_id === storeId)) throw orderNotFound(ref);
  return { order, parts };
}

/** The order's status as its parts make it. */
function orderStatusOf(parts: readonly { status: OrderStatusValue }[]): OrderStatusValue {
  const live = parts.filter((p) => p.status !== "cancelled");
  if (live.length === 0) return "cancelled";
  if (live.every((p) => p.status === "delivered")) return "delivered";
  if (live.every((p) => p.status === "shipped" || p.status === "delivered")) return "shipped";
  return "placed";
}

type Move =
  | { storeId: string; to: "shipped"; trackingNumber: string | null; carrier: string | null }
  | { storeId: string; to: "delivered" }
  | { storeId: string; to: "cancelled"; reason: CancelReason };

const EVENT_OF = { shipped: "order_part.shipped", delivered: "order_part.delivered", cancelled: "order.canceled" } as const;

/** Applies part moves to a locked order, then moves the order itself when its parts say so. */
async function applyMoves(tx: DbClient, order: LockedOrder, parts: LockedPart[], moves: Move[]): Promise<OrderStatusValue> {
  const now = new Date();
  for (const move of moves) {
    const part = parts.find((p) => p.store_id === move.storeId)!;
    if (move.to === "shipped") {
      await tx.orderStore.update({
        where: { orderId_storeId: { orderId: order.id, storeId: move.storeId } },
        data: { status: "shipped", trackingNumber: move.trackingNumber, carrier: move.carrier, shippedAt: now },
      });
      await tx.orderEvent.create({
        data: { orderId: order.id, storeId: move.storeId, status: "shipped", note: trackingNote(move), createdAt: now },
      });
      await sendEmail(tx, shippedEmail(order, part.store_name, move));
    } else if (move.to === "cancelled") {
      const refund = await cancelPartEffects(tx, order, move.storeId, part.store_name, move.reason, now);
      await tx.orderStore.update({
        where: { orderId_storeId: { orderId: order.id, storeId: move.storeId } },
        data: { status: "cancelled", cancelledAt: now, cancelReason: move.reason, ...refund },
      });
      const note = `Refunded ${(refund.refundCents / 100).toFixed(2)}`;
      await tx.orderEvent.create({ data: { orderId: order.id, storeId: move.storeId, status: "cancelled", note, createdAt: now } });
    } else {
      await tx.orderStore.update({
        where: { orderId_storeId: { orderId: order.id, storeId: move.storeId } },
        data: { status: "delivered", deliveredAt: now },
      });
      await tx.orderEvent.create({ data: { orderId: order.id, storeId: move.storeId, status: "delivered", createdAt: now } });
    }
    part.status = move.to;
  }
  const status = orderStatusOf(parts);
  const changed = status !== order.status;
  await tx.order.update({
    where: { id: order.id },
    data: { updatedAt: now, ...(changed ? { status, ...(status === "delivered" ? { deliveredAt: now } : {}) } : {}) },
  });
  if (changed) await tx.orderEvent.create({ data: { orderId: order.id, storeId: null, status, createdAt: now } });
  for (const move of moves) await emitStoreEvents(tx, EVENT_OF[move.to], [{ storeId: move.storeId, id: order.id }], now);
  // The platform that placed it through a commerce protocol (always an agent's order) hears of the move.
  if (order.placed_via === "agent") await queueOrderEvents(tx, [order.id], "order_update");
  return status;
}

function refused(order: LockedOrder, part: LockedPart, wanted: "shipped" | "delivered" | "cancelled"): AppError {
  const why =
    wanted === "delivered" && part.status === "placed"
      ? "mark it shipped first"
      : wanted === "cancelled"
        ? "only a part that has not shipped can be cancelled"
        : `it can be marked ${wanted} only when it is ${wanted === "shipped" ? "placed" : "shipped"}`;
  return new AppError("order_transition_invalid", `This store's part of order ${order.number} is ${part.status}: ${why}.`);
}

export interface PartMoveResult {
  order_id: string;
  number: string;
  /** The store's part, now. */
  part_status: OrderStatusValue;
  /** The order, now. */
  order_status: OrderStatusValue;
}

/**
 * The store marks its part of the order shipped, with the carrier's tracking number (required) and
 * the carrier's name (optional).
 */
export async function shipPart(tx: DbClient, storeId: string, ref: string, trackingNumber: unknown, carrier?: unknown): Promise<PartMoveResult> {
  const tracking = checkTrackingNumber(trackingNumber);
  const carrierName = carrier === undefined ? null : checkCarrier(carrier);
  const { order, parts } = await lockOrder(tx, ref, storeId);
  const part = parts.find((p) => p.store_id === storeId)!;
  if (part.status !== "placed") throw refused(order, part, "shipped");
  const status = await applyMoves(tx, order, parts, [{ storeId, to: "shipped", trackingNumber: tracking, carrier: carrierName }]);
  return { order_id: order.id, number: order.number, part_status: "shipped", order_status: status };
}

/** The store marks its shipped part of the order delivered. */
export async function deliverPart(tx: DbClient, storeId: string, ref: string): Promise<PartMoveResult> {
  const { order, parts } = await lockOrder(tx, ref, storeId);
  const part = parts.find((p) => p.store_id === storeId)!;
  if (part.status !== "shipped") throw refused(order, part, "delivered");
  const status = await applyMoves(tx, order, parts, [{ storeId, to: "delivered" }]);
  return { order_id: order.id, number: order.number, part_status: "delivered", order_status: status };
}

/** A cancel reason as sent: one of CANCEL_REASONS, else `parameter_invalid` naming `reason`. */
export function checkCancelReason(value: unknown): CancelReason {
  if (typeof value === "string" && (CANCEL_REASONS as readonly string[]).includes(value)) return value as CancelReason;
  if (value === undefined || value === "") throw new AppError("parameter_missing", "Choose why you cancel.", "reason");
  throw new AppError("parameter_invalid", `Invalid 'reason': must be one of ${CANCEL_REASONS.join(", ")}.`, "reason");
}

/**
 * The store cancels its part of the order while it is placed: the units go back on the shelf, the
 * buyer is refunded the part's lines and shipping charge and is e-mailed why (lib/orders/cancel.ts);
 * the order becomes `cancelled` once every part is. A shipped or delivered part cannot be cancelled
 * (the buyer returns it instead): `order_transition_invalid`.
 */
export async function cancelPart(tx: DbClient, storeId: string, ref: string, reason: unknown): Promise<PartMoveResult> {
  const why = checkCancelReason(reason);
  const { order, parts } = await lockOrder(tx, ref, storeId);
  const part = parts.find((p) => p.store_id === storeId)!;
  if (part.status !== "placed") throw refused(order, part, "cancelled");
  const status = await applyMoves(tx, order, parts, [{ storeId, to: "cancelled", reason: why }]);
  return { order_id: order.id, number: order.number, part_status: "cancelled", order_status: status };
}

/**
 * The operator's move (`admin order mark`), whatever store the parts belong to: `shipped` marks
 * every part still placed as shipped (with `trackingNumber` when given), `delivered` every shipped
 * part as delivered. Refused (`order_transition_invalid`, naming the order's state) when no part
 * can make that move. Answers the order's new status.
 */
export async function markOrder(tx: DbClient, ref: string, to: "shipped" | "delivered", trackingNumber?: string): Promise<OrderStatusValue> {
  const tracking = trackingNumber === undefined ? null : checkTrackingNumber(trackingNumber);
  const { order, parts } = await lockOrder(tx, ref);
  const from = to === "shipped" ? "placed" : "shipped";
  const movable = parts.filter((p) => p.status === from);
  if (order.status === "cancelled" || movable.length === 0) {
    const hint = to === "delivered" && order.status === "placed" ? "mark it shipped first" : `no part of it is ${from}`;
    throw new AppError("order_transition_invalid", `Order ${order.number} is ${order.status}: ${hint}.`);
  }
  const moves: Move[] = movable.map((p) => (to === "shipped" ? { storeId: p.store_id, to, trackingNumber: tracking, carrier: null } : { storeId: p.store_id, to }));
  return applyMoves(tx, order, parts, moves);
}

/** The order event's note: "Tracking number 1Z…" (", UPS" after it when the store named the carrier). */
function trackingNote(move: { trackingNumber: string | null; carrier: string | null }): string | null {
  if (!move.trackingNumber) return null;
  return `Tracking number ${move.trackingNumber}${move.carrier ? `, ${move.carrier}` : ""}`;
}

function shippedEmail(order: LockedOrder, storeName: string, move: { trackingNumber: string | null; carrier: string | null }) {
  const lines = [
    `${storeName} has shipped its items of your order ${order.number}.`,
    move.trackingNumber ? `Tracking number: ${move.trackingNumber}${move.carrier ? ` (${move.carrier})` : ""}` : "The store gave no tracking number.",
  ];
  if (order.user_id) lines.push(`Your order: ${absoluteUrl(`/account/orders/${order.number}`)}`);
  return { to: order.email, subject: `Your order ${order.number} has shipped`, text: `${lines.join("\n\n")}\n` };
}
