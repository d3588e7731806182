import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getAddress, type SavedAddress } from "@/lib/accounts/addresses";
import { withDb } from "@/lib/http/database";
import { getSessionUser } from "@/lib/http/session";
import { AppError } from "@/lib/errors";
import { decodeFlash } from "@/lib/http/flash";
import { FormState } from "@/app/_components/forms";
import { AddressFields } from "../../_components/AddressFields";
import { one, type SearchParams } from "../../_lib/post";

export const metadata: Metadata = { title: "Edit address", robots: { index: false } };

type Props = { params: Promise<{ id: string }>; searchParams: SearchParams };

/** Editing one saved address; any id that is not one of the holder's is a 404. */
export default async function EditAddressPage({ params, searchParams }: Props) {
  const [{ id }, sp] = await Promise.all([params, searchParams]);
  const user = await getSessionUser();
  if (!user) redirect(`/signin?next=${encodeURIComponent(`/account/addresses/${id}`)}`);
  let address: SavedAddress;
  try {
    address = await withDb((client) => getAddress(client, user.id, id));
  } catch (err) {
    if (err instanceof AppError && err.code === "address_not_found") notFound();
    throw err;
  }
  const state = new FormState("address-edit", decodeFlash(one(sp.flash)));
  return (
    <main className="page" data-page="account-address">
      <p className="back">
        <Link href="/account">← Your account</Link>
      </p>
      <h1 id="edit-address-heading">Edit address</h1>
      <form method="post" action={`/account/addresses/${address.id}/update`} className="stacked-form" aria-labelledby="edit-address-heading">
        {state.alert()}
        <AddressFields state={state} values={address} />
        <button type="submit">Save address</button>
      </form>
      {address.is_default ? <p className="muted">This is your default address: checkout ships here.</p> : null}
    </main>
  );
}
