import { formatCents } from "@/lib/catalog/money";
import { CONDITION_LABELS } from "@/lib/schemas/catalog";
import type { OrderLineData, OrderStatusValue, ReturnStatusValue, ShippingAddressData } from "@/lib/schemas/orders";

/** What the buyer's order pages and the seller desk share: statuses in words, lines, an address. */

export const ORDER_STATUS_LABELS: Record<OrderStatusValue, string> = {
  placed: "Placed",
  shipped: "Shipped",
  delivered: "Delivered",
  cancelled: "Cancelled",
};

export const RETURN_STATUS_LABELS: Record<ReturnStatusValue, string> = {
  requested: "Requested",
  approved: "Approved",
  received: "Received by the store",
  refunded: "Refunded",
  rejected: "Rejected",
};

/** Marks an order an agent placed for its holder (buyer API or agent MCP), on order pages and in order lists. */
export function PlacedByAgent({ placedVia, inline = false }: { placedVia: "storefront" | "agent"; inline?: boolean }) {
  if (placedVia !== "agent") return null;
  const Tag = inline ? "span" : "p";
  return (
    <Tag className="badge placed-by-agent" data-placed-via="agent">
      Placed by an agent
    </Tag>
  );
}

/** A line as the table shows it: an order's line, or one of an order an agent asks the holder to approve. */
export type ShownLine = Pick<OrderLineData, "id" | "title" | "condition" | "quantity" | "unit_price_cents" | "line_total_cents">;

/** The lines of an order (or of one store's part), as bought or about to be. */
export function OrderLinesTable({ lines, label }: { lines: ShownLine[]; label: string }) {
  return (
    <table className="stack-table order-lines" aria-label={label}>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Condition</th>
          <th scope="col">Quantity</th>
          <th scope="col">Unit price</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line) => (
          <tr key={line.id} data-line={line.id}>
            <td data-label="Item">{line.title}</td>
            <td data-label="Condition">{CONDITION_LABELS[line.condition]}</td>
            <td data-label="Quantity">{line.quantity}</td>
            <td data-label="Unit price" className="amount">
              {formatCents(line.unit_price_cents)}
            </td>
            <td data-label="Total" className="amount">
              {formatCents(line.line_total_cents)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function ShippingAddressBlock({ address }: { address: ShippingAddressData }) {
  return (
    <address className="shipping-address" data-shipping-address="true">
      {address.full_name}
      <br />
      {address.line1}
      {address.line2 ? (
        <>
          <br />
          {address.line2}
        </>
      ) : null}
      <br />
      {address.city}, {address.state} {address.postal_code}
      <br />
      {address.country}
    </address>
  );
}
