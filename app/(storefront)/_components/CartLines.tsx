import { formatCents } from "@/lib/catalog/money";
import { LINE_QUANTITY_MAX, type CartLineView, type CartView } from "@/lib/cart/cart";
import type { LineStatus } from "@/lib/cart/availability";
import type { ParcelTerms } from "@/lib/checkout";
import { ParcelTermsList } from "./ParcelTerms";

export const STATUS_TEXT: Record<LineStatus, string> = {
  in_stock: "In stock",
  backorder: "Backorder: ships when the seller restocks",
  insufficient_stock: "Not enough stock for this quantity; lower it to buy",
  unavailable: "No longer available",
};

/**
 * The cart's lines grouped by store (each store ships its own parcel), each with its thumbnail,
 * quantity form and remove button, and its parcel's terms when given (by store slug); then the subtotal.
 */
export function CartLines({
  cart,
  storeHeading: Heading = "h2",
  terms,
  country,
}: {
  cart: CartView;
  storeHeading?: "h2" | "h3";
  terms?: ReadonlyMap<string, ParcelTerms>;
  country?: string;
}) {
  if (cart.lines.length === 0) {
    return (
      <p data-cart-empty="true">
        Your cart is empty. <a href="/search">Find something</a>.
      </p>
    );
  }
  return (
    <>
      {parcels(cart.lines).map(({ storeSlug, storeName, lines }) => (
        <section key={storeSlug} className="cart-store" data-cart-store={storeSlug} aria-labelledby={`store-${storeSlug}`}>
          <Heading id={`store-${storeSlug}`}>
            Sold and shipped by <a href={`/s/${storeSlug}`}>{storeName}</a>
          </Heading>
          <table aria-label={`Lines from ${storeName}`} className="cart-lines">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Price</th>
                <th scope="col">Quantity</th>
                <th scope="col" className="amount">Total</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <CartLineRow key={line.listing_id} line={line} />
              ))}
            </tbody>
          </table>
          {terms?.get(storeSlug) ? <ParcelTermsList terms={terms.get(storeSlug)!} country={country} /> : null}
        </section>
      ))}
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

/** Lines by store, stores in the order their first line was added, lines in the order added. */
function parcels(lines: CartLineView[]) {
  const byStore = new Map<string, { storeSlug: string; storeName: string; lines: CartLineView[] }>();
  for (const line of lines) {
    const parcel = byStore.get(line.store_slug);
    if (parcel) parcel.lines.push(line);
    else byStore.set(line.store_slug, { storeSlug: line.store_slug, storeName: line.store_name, lines: [line] });
  }
  return [...byStore.values()];
}

function CartLineRow({ line }: { line: CartLineView }) {
  return (
    <tr data-cart-line={line.listing_id} data-quantity={line.quantity} data-price-cents={line.price_cents} data-status={line.status}>
      <td>
        <div className="cart-item">
          {line.product?.image_url ? (
            // eslint-disable-next-line @next/next/no-img-element -- catalog images are plain files
            <img className="cart-thumb" src={line.product.image_url} alt="" width={64} height={64} loading="lazy" />
          ) : (
            <span className="cart-thumb" aria-hidden="true" />
          )}
          <div>
            {line.product ? <a href={line.product.url}>{line.product.title}</a> : <span>Item no longer listed</span>}
            <div className="muted">{line.condition_label}</div>
            <div className={line.status === "in_stock" || line.status === "backorder" ? "in-stock" : "out-of-stock"}>
              {STATUS_TEXT[line.status]}
            </div>
          </div>
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
  );
}
