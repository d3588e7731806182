import { Prisma, type DbClient } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { returnableUntil, returnedQuantities } from "@/lib/orders/buyer";
import { orderNotFound, orderRefWhere } from "@/lib/orders/common";
import { RETURN_INCLUDE, toReturn } from "@/lib/orders/shape";
import { RETURN_WINDOW_DAYS, type CreateReturnData, type OrderStatusValue, type ReturnData } from "@/lib/schemas/orders";
import { emitStoreEvents } from "@/lib/seller/webhooks/events";

/**
 * A buyer asks to return lines of their delivered order (decisions.md "Orders, checkout and
 * returns"), validated by `CreateReturn`. Pass the caller's transaction: the order row is locked
 * (FOR UPDATE) before the quantities already held by returns are counted, so concurrent requests
 * for the same order are applied one after the other and can never together return more units of
 * a line than were bought.
 *
 * Refusals, in this order: `order_not_found` (not the buyer's order, or no such order);
 * `order_not_returnable` (409: not delivered, or delivered more than 30 days ago); 400
 * `parameter_invalid` naming `lines[i].order_line_id` (not a line of this order, named twice, or
 * a line its store cancelled), `lines` (lines of more than one store: one return per store) or
 * `lines[i].quantity` (more than was bought minus what earlier returns that were not rejected hold).
 */
export async function requestReturn(tx: DbClient, userId: string, ref: string, body: CreateReturnData, now = new Date()): Promise<ReturnData> {
  const where = orderRefWhere(ref);
  if (!where) throw orderNotFound(ref);
  const match = "id" in where ? Prisma.sql`id = ${where.id}::uuid` : Prisma.sql`number = ${where.number}`;
  const [order] = await tx.$queryRaw<{ id: string; number: string; status: OrderStatusValue; delivered_at: Date | null }[]>`
    SELECT id, number, status::text AS status, delivered_at FROM orders WHERE ${match} AND user_id = ${userId}::uuid FOR UPDATE`;
  if (!order) throw orderNotFound(ref);

  const until = returnableUntil(order.status, order.delivered_at);
  if (!until) {
    throw new AppError("order_not_returnable", `Order ${order.number} is ${order.status}: only a delivered order can be returned.`);
  }
  if (now.getTime() > until.getTime()) {
    throw new AppError(
      "order_not_returnable",
      `Order ${order.number} was delivered more than ${RETURN_WINDOW_DAYS} days ago: its return window closed on ${until.toISOString().slice(0, 10)}.`,
    );
  }

  const ids = body.lines.map((l) => l.order_line_id);
  const found = new Map(
    (await tx.orderLine.findMany({ where: { orderId: order.id, id: { in: ids } } })).map((line) => [line.id, line]),
  );
  const cancelled = new Set((await tx.orderStore.findMany({ where: { orderId: order.id, status: "cancelled" }, select: { storeId: true } })).map((p) => p.storeId));
  const seen = new Set<string>();
  body.lines.forEach((line, i) => {
    const param = `lines[${i}].order_line_id`;
    if (!found.has(line.order_line_id)) throw new AppError("parameter_invalid", `Invalid '${param}': order ${order.number} has no line with this id.`, param);
    if (cancelled.has(found.get(line.order_line_id)!.storeId)) {
      throw new AppError("parameter_invalid", `Invalid '${param}': the store cancelled this line and refunded it; there is nothing to return.`, param);
    }
    if (seen.has(line.order_line_id)) throw new AppError("parameter_invalid", `Invalid '${param}': this line is named twice; name each line once.`, param);
    seen.add(line.order_line_id);
  });
  const stores = new Set([...found.values()].map((l) => l.storeId));
  if (stores.size > 1) {
    throw new AppError(
      "parameter_invalid",
      "Invalid 'lines': a return holds lines of one store; request one return for each store's lines.",
      "lines",
    );
  }

  const returned = await returnedQuantities(tx, order.id);
  body.lines.forEach((line, i) => {
    const bought = found.get(line.order_line_id)!;
    const left = bought.quantity - (returned.get(bought.id) ?? 0);
    if (line.quantity > left) {
      const param = `lines[${i}].quantity`;
      const held = bought.quantity - left;
      throw new AppError(
        "parameter_invalid",
        left === 0
          ? `Invalid '${param}': every unit of '${bought.title}' is already in a return.`
          : `Invalid '${param}': at most ${left} of '${bought.title}' can be returned (bought ${bought.quantity}${held ? `, ${held} already in a return` : ""}).`,
        param,
      );
    }
  });

  const created = await tx.return.create({
    data: {
      orderId: order.id,
      storeId: [...stores][0]!,
      status: "requested",
      lines: { create: body.lines.map((l) => ({ orderLineId: l.order_line_id, quantity: l.quantity, reason: l.reason })) },
    },
    include: RETURN_INCLUDE,
  });
  await emitStoreEvents(tx, "return.requested", [{ storeId: created.storeId, id: created.id }]);
  return toReturn(created);
}
