import type { CartOwner } from "@/lib/cart/cart";
import { ADDRESS_LIMITS } from "@/lib/orders/address";
import { cartOwnerWhere } from "./lines";
import type { Executor, Tx } from "./types";

/**
 * What a shopper typed on /checkout, kept with their cart so that a reload of the page fills it
 * in again: the contact and address fields only. A card number or CVC is never among them (no
 * card data is stored, decisions.md "Payment"): anything not named here is dropped.
 */
export const DRAFT_FIELDS: Readonly<Record<string, number>> = { email: 254, ...ADDRESS_LIMITS };

export type CheckoutDraft = Partial<Record<string, string>>;

// Control characters (a NUL cannot even be stored in jsonb) are refused at checkout anyway: not kept.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The draft fields of posted (or stored) values: known names, strings within their limit, not blank, printable. */
export function draftOf(fields: Readonly<Record<string, unknown>>): CheckoutDraft {
  const draft: CheckoutDraft = {};
  for (const [name, max] of Object.entries(DRAFT_FIELDS)) {
    const value = fields[name];
    if (typeof value === "string" && value.trim() !== "" && value.length <= max && !CONTROL.test(value) && value.isWellFormed()) draft[name] = value;
  }
  return draft;
}

/**
 * Keeps `fields`' draft with the owner's cart (replacing the last one); false when there is no cart
 * or it is empty (an order just took its lines: a save that raced the order must not bring back
 * what the order cleared).
 */
export async function saveCheckoutDraft(executor: Pick<Tx, "$executeRaw">, owner: CartOwner, fields: Readonly<Record<string, unknown>>): Promise<boolean> {
  const where = cartOwnerWhere(owner);
  if (!where) return false;
  const draft = draftOf(fields);
  const value = Object.keys(draft).length ? JSON.stringify(draft) : null;
  return (await executor.$executeRaw`UPDATE carts SET checkout_draft = ${value}::jsonb
    WHERE ${where} AND EXISTS (SELECT 1 FROM cart_lines cl WHERE cl.cart_id = carts.id)`) > 0;
}

/** The owner's kept draft (empty when there is none). */
export async function checkoutDraft(executor: Executor, owner: CartOwner): Promise<CheckoutDraft> {
  const where = cartOwnerWhere(owner);
  if (!where) return {};
  const [row] = await executor.$queryRaw<Array<{ draft: unknown }>>`SELECT checkout_draft AS draft FROM carts WHERE ${where}`;
  return row?.draft && typeof row.draft === "object" ? draftOf(row.draft as Record<string, unknown>) : {};
}
