import { formatCents } from "@/lib/catalog/money";
import { LINE_QUANTITY_MAX, type CartView } from "@/lib/cart/cart";
import type { LineStatus } from "@/lib/cart/availability";

export const STATUS_TEXT: Record<LineStatus, string> = {
  in_stock: "In stock",
  backorder: "Backorder: ships when the seller restocks",
  insufficient_stock: "Not enough stock for this quantity; lower it to buy",
  unavailable: "No longer available",
};

/** The cart's lines, each with its quantity form and a remove button, and the subtotal. */
export function CartLines({ cart }: { cart: CartView }) {
  if (cart.lines.length === 0) {
    return (
      <p data-cart-empty="true">
        Your cart is empty. <a href="/search">Find something</a>.
      </p>
    );
  }
  return (
    <>
      <table aria-label="Cart lines" className="cart-lines">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Price</th>
            <th scope="col">Quantity</th>
            <th scope="col" className="amount">Total</th>
          </tr>
        </thead>
        <tbody>
          {cart.lines.map((line) => (
            <tr
              key={line.listing_id}
              data-cart-line={line.listing_id}
              data-quantity={line.quantity}
              data-price-cents={line.price_cents}
              data-status={line.status}
            >
              <td>
                {line.product ? <a href={line.product.url}>{line.product.title}</a> : <span>Item no longer listed</span>}
                <div className="muted">
                  {line.condition_label} · sold by <a href={`/s/${line.store_slug}`}>{line.store_name}</a>
                </div>
                <div className={line.status === "in_stock" || line.status === "backorder" ? "in-stock" : "out-of-stock"}>
                  {STATUS_TEXT[line.status]}
                </div>
              </td>
              <td>
                <span className="price">{formatCents(line.price_cents)}</span>
                {line.previous_price_cents !== null ? (
                  <div className="muted" data-price-change="true">
                    was {formatCents(line.previous_price_cents)} when added
                  </div>
                ) : null}
              </td>
              <td>
                <form method="post" action="/cart/update" className="quantity-form">
                  <input type="hidden" name="listing_id" value={line.listing_id} />
                  <label>
                    <span className="visually-hidden">Quantity</span>
                    <input
                      type="number"
                      name="quantity"
                      min={1}
                      max={LINE_QUANTITY_MAX}
                      defaultValue={line.quantity}
                      required
                      className="quantity"
                    />
                  </label>{" "}
                  <button type="submit">Update</button>{" "}
                  <button type="submit" name="remove" value="1" className="secondary" formNoValidate>
                    Remove
                  </button>
                </form>
              </td>
              <td className="amount">{line.status === "unavailable" ? "—" : formatCents(line.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cart-total">
        Subtotal ({cart.item_count} {cart.item_count === 1 ? "item" : "items"}):{" "}
        <span className="price" data-subtotal-cents={cart.subtotal_cents}>
          {formatCents(cart.subtotal_cents)}
        </span>
      </p>
      <form method="get" action="/checkout" className="cart-checkout">
        <button type="submit">Checkout</button>
      </form>
      <p className="muted">Prices and availability are checked again at checkout.</p>
    </>
  );
}
