import Link from "next/link";
import { ADDRESS_LIMIT, type SavedAddress } from "@/lib/accounts/addresses";
import type { FormFlash } from "@/lib/http/flash";
import { FormState } from "@/app/_components/forms";
import { AddressFields } from "./AddressFields";

/** The lines of an address as a label would print them. */
export function AddressLines({ address }: { address: SavedAddress }) {
  const place = [address.city, [address.state, address.postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return (
    <address className="address-lines">
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
      {place}
      <br />
      {address.country}
    </address>
  );
}

/** One line naming an address, for the accessible names of its buttons. */
function shortName(address: SavedAddress): string {
  return `${address.full_name}, ${address.line1}`;
}

/**
 * "Shipping addresses" on /account: the saved addresses (the default first) with their buttons,
 * and the form that adds one. Forms post to /account/addresses/…; a refused one comes back here
 * with its message and what was typed.
 */
export function AddressesSection({ addresses, flash, defaultName }: { addresses: SavedAddress[]; flash: FormFlash | null; defaultName: string }) {
  const add = new FormState("address-add", flash);
  const list = new FormState("address-list", flash);
  const full = addresses.length >= ADDRESS_LIMIT;
  return (
    <section aria-labelledby="addresses-heading" id="addresses" className="panel">
      <h2 id="addresses-heading">Shipping addresses</h2>
      {list.alert()}
      {addresses.length === 0 ? (
        <p className="muted">No address saved yet. The first one you save becomes your default: checkout ships there.</p>
      ) : (
        <ul className="saved-list">
          {addresses.map((address) => (
            <li key={address.id} data-address-id={address.id} data-default={address.is_default ? "true" : undefined}>
              <AddressLines address={address} />
              {address.is_default ? <p className="badge">Default</p> : null}
              <div className="saved-actions">
                <Link href={`/account/addresses/${address.id}`} prefetch={false} aria-label={`Edit ${shortName(address)}`}>
                  Edit
                </Link>
                {address.is_default ? null : (
                  <form method="post" action={`/account/addresses/${address.id}/default`} className="inline-form" aria-label={`Make default: ${shortName(address)}`}>
                    <button type="submit" className="secondary">
                      Make default
                    </button>
                  </form>
                )}
                <form method="post" action={`/account/addresses/${address.id}/delete`} className="inline-form" aria-label={`Delete: ${shortName(address)}`}>
                  <button type="submit" className="secondary">
                    Delete
                  </button>
                </form>
              </div>
            </li>
          ))}
        </ul>
      )}
      <h3 id="add-address-heading">Add an address</h3>
      {full ? (
        <>
          {add.alert()}
          <p className="muted" data-limit="addresses">
            {`You have saved ${ADDRESS_LIMIT} addresses, the most an account can hold. Delete one to add another.`}
          </p>
        </>
      ) : (
        <form method="post" action="/account/addresses/add" className="stacked-form" aria-labelledby="add-address-heading" id="add-address">
          {add.alert()}
          <AddressFields state={add} values={{ full_name: defaultName, country: "US" }} />
          <label className="check">
            <input type="checkbox" name="make_default" defaultChecked={add.checked("make_default", false)} />
            Make this my default address
          </label>
          <button type="submit">Save address</button>
        </form>
      )}
    </section>
  );
}
